//! The store as an ordinary user sees it: root passes every permission
//! check, so when the tests run as root (as in CI) this test runs its checks
//! in a child (this test binary again) under an unprivileged uid with
//! `setpriv`; otherwise in this process.
//!
//! - A directory the user owns, under a parent the user owns, is trusted
//!   (the owner compared is the user's, and a parent may be ours or root's).
//! - Forget reports an agent it cannot list or whose files it cannot remove,
//!   rather than answering as if it had forgotten it.
//! - An agent's stamp that cannot be written does not fail a claim.
//! - A relative state directory is checked against the working directory.
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::fs;
use std::os::unix::fs::{PermissionsExt, chown};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, SystemTime};

use advisor_core::{Claim, LedgerStore};
use ledger_file::{FileLimits, FileStore};
use support::hostile::is_root;
use support::*;

/// The unprivileged uid (and gid) the child runs as when the tests are root.
const USER: u32 = 60101;

fn chmod(path: &Path, mode: u32) {
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
}

/// The checks, in a parent directory this process's user owns.
fn as_its_owner(parent: &Path) {
    let state = parent.join("state");
    let limits = FileLimits {
        gc_interval: Duration::from_secs(3600),
        ..FileLimits::default()
    };
    // Panics (failing the test) when our own directory is refused.
    let store = store_at(&state, limits);

    // (agent, the mode its directory gets, the operation forget reports)
    for (name, mode, op) in [
        ("unremovable", 0o500, "cannot remove"),
        ("unlisted", 0o300, "cannot list"),
    ] {
        let a = agent(name);
        store.claim(&a, &slot()).unwrap();
        store.edit_budget(&a, &mut increment).unwrap();
        let dir = store.agent_dir(&a);
        chmod(&dir, mode);
        let fault = store.forget(&a);
        chmod(&dir, 0o700);
        let fault = fault.expect_err(name);
        assert!(fault.what.contains(op), "{name}: {fault}");
        assert!(
            fault.what.contains(&dir.display().to_string()),
            "{name}: {fault}"
        );
        assert_eq!(store.claim(&a, &slot()).unwrap(), Claim::Again, "{name}");
    }

    let a = agent("stale stamp");
    store.claim(&a, &slot()).unwrap();
    let touched = store.agent_dir(&a).join("touched");
    let file = fs::OpenOptions::new().write(true).open(&touched).unwrap();
    file.set_modified(SystemTime::now() - Duration::from_secs(3600))
        .unwrap();
    chmod(&touched, 0o400);
    assert_eq!(
        store.claim(&a, &slot()).unwrap(),
        Claim::Again,
        "a stamp it cannot write does not fail the claim"
    );

    // What cannot be created is reported as that, with the system's reason.
    let a = agent("new");
    chmod(&store.root().join("agents"), 0o500);
    let fault = store.claim(&a, &slot());
    chmod(&store.root().join("agents"), 0o700);
    let fault = fault.expect_err("an agent directory it cannot make");
    assert!(fault.what.contains("ermission denied"), "{fault}");
    let locked = parent.join("locked");
    fs::create_dir(&locked).unwrap();
    chmod(&locked, 0o500);
    let fault = FileStore::open(&locked, limits).expect_err("a v1 it cannot make");
    assert!(fault.what.contains("cannot create"), "{fault}");

    // A relative state directory: its parent is the working directory,
    // which this user owns, so it is trusted too.
    std::env::set_current_dir(parent).unwrap();
    FileStore::open("relative", limits).expect("a relative directory in our own one");
}

/// The child side: inert unless [`ROLE`] is set.
#[test]
fn child() {
    if std::env::var(ROLE).is_err() {
        return;
    }
    as_its_owner(Path::new(&var("LEDGER_FILE_DIR")));
    println!("{ANSWER} done");
}

/// Changes this process's working directory (when not root): the only
/// other test of this binary is the inert `child`.
#[test]
fn an_ordinary_user_trusts_its_own_directory_and_forget_reports_what_it_cannot_do() {
    let tmp = tempfile::tempdir().unwrap();
    let parent = tmp.path().join("home");
    fs::create_dir(&parent).unwrap();
    chmod(&parent, 0o700);
    if !is_root() {
        as_its_owner(&parent);
        return;
    }
    chmod(tmp.path(), 0o755);
    chown(&parent, Some(USER), Some(USER)).unwrap();
    // The other user runs a copy: the build tree may lie where only its
    // owner can enter (a clone in a 0700 directory).
    let exe = tmp.path().join("test-exe");
    fs::copy(std::env::current_exe().unwrap(), &exe).unwrap();
    chmod(&exe, 0o755);
    let child = Command::new("setpriv")
        .args([
            format!("--reuid={USER}"),
            format!("--regid={USER}"),
            "--clear-groups".to_owned(),
        ])
        .arg(&exe)
        .args(["child", "--exact", "--nocapture", "--test-threads=1"])
        .env(ROLE, "unprivileged")
        .env("LEDGER_FILE_DIR", &parent)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("setpriv runs the child as an unprivileged user");
    assert_eq!(answers(child), ["done"]);
}
