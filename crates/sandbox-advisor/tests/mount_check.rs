//! The hook's mount check (`hook::mount`) against real mounts: a read-only
//! bind in a private mount namespace beside a writable directory, as root
//! and as an unprivileged user, and a FUSE mount whose daemon never answers
//! (a hung mount: `statfs` and every lookup below it block), which must cost
//! the deadline and no more.
//!
//! Each needs root (a mount namespace, `mount`): the test re-runs this test
//! binary inside `unshare -m`, where one of the `inner_*` tests (ignored in
//! a plain run) does the checking. Without root, or without `/dev/fuse`,
//! they print a note and pass, unless `SANDBOX_ADVISOR_REQUIRE_MOUNTS=1`
//! (CI runs as root and sets it), in which case they fail.

#![cfg(target_os = "linux")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use sandbox_advisor::hook::mount::{Judged, Mount, MountCheck, Unchecked, check};

const REQUIRE: &str = "SANDBOX_ADVISOR_REQUIRE_MOUNTS";
/// Where the outer test put the directories the inner test checks.
const DIR: &str = "SANDBOX_ADVISOR_MOUNT_DIR";
const NOBODY: &str = "65534";

fn required() -> bool {
    std::env::var(REQUIRE).is_ok_and(|v| !v.is_empty() && v != "0")
}

/// Whether this test can run here; a note (or a failure, when required) if not.
fn can_run(what: &str, ok: bool) -> bool {
    if !ok {
        assert!(!required(), "{REQUIRE} is set, but {what}");
        eprintln!("skipped: {what} (set {REQUIRE}=1 to require it)");
    }
    ok
}

fn is_root() -> bool {
    rustix::process::geteuid().is_root()
}

/// A directory for the mounts, that an unprivileged user may enter.
fn scratch() -> tempfile::TempDir {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::Builder::new()
        .prefix("sandbox-advisor-mount-")
        .tempdir()
        .unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

/// Runs `inner` (an ignored test of this binary) inside a private mount
/// namespace after `setup` (sh, with `$D` the scratch directory), with
/// `user` (`setpriv` in front) when given; asserts it ran and passed.
fn inside(dir: &Path, setup: &str, inner: &str, user: Option<&str>) {
    let exe = std::env::current_exe().unwrap();
    // Another user runs a copy in the scratch directory: the build tree may
    // lie where only its owner can enter (a clone in a 0700 directory).
    let (setpriv, exe_ref) = user.map_or((String::new(), "\"$0\""), |uid| {
        (
            format!(
                "cp \"$0\" \"$D/test-exe\"; chmod 755 \"$D/test-exe\"; exec setpriv --reuid={uid} --regid={uid} --clear-groups "
            ),
            "\"$D/test-exe\"",
        )
    });
    let exec = if setpriv.is_empty() { "exec " } else { "" };
    let script = format!(
        "set -e; {setup}; {setpriv}{exec}{exe_ref} --ignored --exact {inner} --nocapture --test-threads 1"
    );
    let out = Command::new("unshare")
        .args(["-m", "--propagation", "private", "--", "sh", "-c", &script])
        .arg(&exe)
        .env(DIR, dir)
        .env("D", dir)
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "{inner} in a mount namespace: {}\n{stdout}\n{stderr}",
        out.status
    );
}

const RO_BIND: &str = "mkdir -p \"$D/ro\" \"$D/rw\"; ln -s \"$D/ro\" \"$D/rw/link\"; \
     mount --bind \"$D/ro\" \"$D/ro\"; mount -o remount,bind,ro \"$D/ro\"";

#[test]
fn a_read_only_bind_and_its_writable_neighbour() {
    if !can_run("not root: a mount namespace needs it", is_root()) {
        return;
    }
    let dir = scratch();
    inside(dir.path(), RO_BIND, "inner_read_only_bind_as_root", None);
    inside(
        dir.path(),
        RO_BIND,
        "inner_read_only_bind_as_user",
        Some(NOBODY),
    );
}

fn scratch_of_outer() -> PathBuf {
    PathBuf::from(std::env::var_os(DIR).expect("run by the outer test"))
}

fn checked(path: &Path) -> Result<MountCheck, Unchecked> {
    check(path, Duration::from_secs(5))
}

fn state(mount: Mount, judged: Judged, user_may_write: bool) -> Result<MountCheck, Unchecked> {
    Ok(MountCheck {
        mount,
        judged,
        user_may_write,
    })
}

#[test]
#[ignore = "run inside a mount namespace by a_read_only_bind_and_its_writable_neighbour"]
fn inner_read_only_bind_as_root() {
    let d = scratch_of_outer();
    use {
        Judged::{Ancestor, Path as Itself},
        Mount::*,
    };
    assert_eq!(checked(&d.join("ro")), state(ReadOnly, Itself, false));
    assert_eq!(
        checked(&d.join("ro/missing")),
        state(ReadOnly, Ancestor, false)
    );
    assert_eq!(
        checked(&d.join("ro/a/b/c")),
        state(ReadOnly, Ancestor, false)
    );
    assert_eq!(checked(&d.join("rw")), state(Writable, Itself, true));
    assert_eq!(
        checked(&d.join("rw/missing")),
        state(Writable, Ancestor, true)
    );
    // A link is never followed, even to a directory that exists.
    assert_eq!(checked(&d.join("rw/link/x")), Err(Unchecked::ThroughLink));
    assert_eq!(checked(&d.join("rw/link")), Err(Unchecked::ThroughLink));
    assert_eq!(checked(Path::new("rw/x")), Err(Unchecked::NotAbsolute));
    assert_eq!(checked(&d.join("rw/../ro/x")), Err(Unchecked::Unusual));
    // A regular file below which nothing can exist.
    std::fs::write(d.join("rw/file"), "").unwrap();
    assert_eq!(checked(&d.join("rw/file")), state(Writable, Itself, true));
    assert_eq!(
        checked(&d.join("rw/file/x")),
        Err(Unchecked::Unreadable(20)) // ENOTDIR
    );
}

#[test]
#[ignore = "run inside a mount namespace by a_read_only_bind_and_its_writable_neighbour"]
fn inner_read_only_bind_as_user() {
    let d = scratch_of_outer();
    use {Judged::Ancestor, Mount::*};
    assert!(!rustix::process::geteuid().is_root());
    // The mount is the same for everyone; the permission is this user's.
    assert_eq!(checked(&d.join("ro/x")), state(ReadOnly, Ancestor, false));
    assert_eq!(checked(&d.join("rw/x")), state(Writable, Ancestor, false));
    assert_eq!(
        checked(Path::new("/etc/x")),
        state(Writable, Ancestor, false)
    );
}

#[test]
fn a_hung_mount_costs_the_deadline_then_is_unknown() {
    if !can_run("not root: a mount namespace needs it", is_root())
        || !can_run("no /dev/fuse", Path::new("/dev/fuse").exists())
    {
        return;
    }
    let dir = scratch();
    // A FUSE mount whose device nobody reads: the daemon never answers, so
    // statfs and every lookup below the mount wait for it. The test binary
    // inherits the device (fd 3) and holds it until it exits.
    let setup = "mkdir -p \"$D/hang\"; exec 3<>/dev/fuse; \
        mount -t fuse -o fd=3,rootmode=40000,user_id=0,group_id=0 sandbox-advisor-hang \"$D/hang\"";
    inside(dir.path(), setup, "inner_hung_mount", None);
}

#[test]
#[ignore = "run inside a mount namespace by a_hung_mount_costs_the_deadline_then_is_unknown"]
fn inner_hung_mount() {
    let d = scratch_of_outer();
    for path in [d.join("hang"), d.join("hang/x/y")] {
        let started = Instant::now();
        assert_eq!(
            check(&path, Duration::from_millis(300)),
            Err(Unchecked::TimedOut),
            "{}",
            path.display()
        );
        let took = started.elapsed();
        assert!(
            took < Duration::from_secs(2),
            "{} took {took:?}",
            path.display()
        );
    }
    // The directory beside it still answers.
    assert!(checked(&d).is_ok());
}
