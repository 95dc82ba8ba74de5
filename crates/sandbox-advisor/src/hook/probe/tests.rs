#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::os::unix::fs::PermissionsExt;

use super::claude::claude_sandbox;
use super::files::{Owner, read_no_follow};
use super::*;
use advisor_core::Untrusted;

fn inputs(dir: &Path) -> Inputs {
    Inputs {
        home: Some(dir.join("home")),
        codex_home: None,
        claude_config: None,
        project: Some(dir.join("proj")),
        temp: PathBuf::from("/tmp"),
    }
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn hosts(list: &[Untrusted]) -> Vec<&str> {
    list.iter().map(Untrusted::inspect).collect()
}

#[test]
fn a_failed_probe_is_a_refusal_only_in_namespace_words() {
    for said in [
        "bwrap: Creating new namespace failed: nesting depth or /proc/sys/user/max_*_namespaces exceeded (ENOSPC)",
        "bwrap: setting up uid map: Permission denied",
        "unshare: unshare failed: No space left on device",
        "unshare: write failed /proc/self/uid_map: Operation not permitted",
    ] {
        assert_eq!(classify(said), NamespaceProbe::Refused, "{said}");
    }
    for said in ["bwrap: execvp /bin/true: No such file or directory", ""] {
        assert_eq!(classify(said), NamespaceProbe::NotRun, "{said}");
    }
}

#[test]
fn the_probe_agrees_with_the_advisorys_own_check_run_by_hand() {
    if !Path::new("/usr/bin/unshare").exists() {
        return;
    }
    let by_hand = std::process::Command::new("/usr/bin/unshare")
        .args(["--user", "--map-root-user", "/bin/true"])
        .status()
        .unwrap()
        .success();
    let probe = namespace_probe();
    assert_ne!(probe, NamespaceProbe::NotRun);
    assert_eq!(probe == NamespaceProbe::Created, by_hand);
}

#[test]
fn codex_home_is_placed_against_the_temp_dir_lexically() {
    let mut env = inputs(Path::new("/srv/x"));
    assert_eq!(codex_home(&env), Some(HomePlace::OutsideTemp));
    env.codex_home = Some(PathBuf::from("/tmp/run/codex-home"));
    assert_eq!(codex_home(&env), Some(HomePlace::UnderTemp));
    env.codex_home = Some(PathBuf::from("/tmp/../srv/codex"));
    assert_eq!(codex_home(&env), Some(HomePlace::OutsideTemp));
    env.codex_home = Some(PathBuf::from("/tmpfoo/codex"));
    assert_eq!(codex_home(&env), Some(HomePlace::OutsideTemp));
    env.codex_home = Some(PathBuf::from("relative/codex"));
    assert_eq!(codex_home(&env), None);
    env.codex_home = None;
    env.home = Some(PathBuf::from("/tmp/home"));
    assert_eq!(codex_home(&env), Some(HomePlace::UnderTemp));
    env.home = None;
    assert_eq!(codex_home(&env), None);
}

#[test]
fn claude_codes_layers_the_last_setting_wins_and_lists_add_up() {
    let dir = tempfile::tempdir().unwrap();
    let env = inputs(dir.path());
    // No file at all: the sandbox is off (only the managed file could be there).
    let none = claude_sandbox(&env);
    if Path::new("/etc/claude-code/managed-settings.json").exists() {
        return;
    }
    assert_eq!(none.enabled, Some(false));
    write(
        &dir.path().join("home/.claude/settings.json"),
        r#"{"sandbox": {"enabled": true, "network": {"allowedDomains": ["a.example"]}}}"#,
    );
    write(
        &dir.path().join("proj/.claude/settings.json"),
        r#"{"sandbox": {"network": {"allowedDomains": ["*.b.example", 7], "deniedDomains": ["c.example"]}}}"#,
    );
    let read = claude_sandbox(&env);
    assert_eq!(read.enabled, Some(true));
    assert_eq!(hosts(&read.allowed_domains), ["a.example", "*.b.example"]);
    assert_eq!(hosts(&read.denied_domains), ["c.example"]);
    // The local layer turns it off again.
    write(
        &dir.path().join("proj/.claude/settings.local.json"),
        r#"{"sandbox": {"enabled": false}}"#,
    );
    assert_eq!(claude_sandbox(&env).enabled, Some(false));
}

#[test]
fn a_layer_that_cannot_be_read_leaves_the_sandbox_unknown() {
    let dir = tempfile::tempdir().unwrap();
    let env = inputs(dir.path());
    let project = dir.path().join("proj/.claude/settings.json");
    for bad in ["not json", "{\"sandbox\": "] {
        write(&project, bad);
        assert_eq!(claude_sandbox(&env).enabled, None, "{bad}");
    }
    // Writable by others: not trusted.
    write(&project, r#"{"sandbox": {"enabled": false}}"#);
    std::fs::set_permissions(&project, std::fs::Permissions::from_mode(0o666)).unwrap();
    assert_eq!(claude_sandbox(&env).enabled, None);
    // A link, at the file or at a directory on the way: not followed.
    std::fs::remove_file(&project).unwrap();
    let elsewhere = dir.path().join("elsewhere.json");
    write(&elsewhere, r#"{"sandbox": {"enabled": false}}"#);
    std::os::unix::fs::symlink(&elsewhere, &project).unwrap();
    assert_eq!(claude_sandbox(&env).enabled, None);
    std::fs::remove_dir_all(dir.path().join("proj")).unwrap();
    write(&dir.path().join("real/.claude/settings.json"), "{}");
    std::os::unix::fs::symlink(dir.path().join("real"), dir.path().join("proj")).unwrap();
    assert_eq!(claude_sandbox(&env).enabled, None);
}

#[test]
fn reads_are_bounded_and_refuse_what_is_not_a_regular_file() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.json");
    std::fs::write(&big, vec![b' '; SETTINGS_MAX_BYTES as usize + 1]).unwrap();
    assert!(read_no_follow(&big, SETTINGS_MAX_BYTES, Owner::ThisUser).is_err());
    let fits = dir.path().join("fits.json");
    std::fs::write(&fits, b"{}").unwrap();
    assert_eq!(
        read_no_follow(&fits, SETTINGS_MAX_BYTES, Owner::ThisUser).unwrap(),
        Some(b"{}".to_vec())
    );
    assert_eq!(
        read_no_follow(&dir.path().join("absent"), 64, Owner::ThisUser).unwrap(),
        None
    );
    assert!(
        read_no_follow(dir.path(), 64, Owner::ThisUser).is_err(),
        "a directory"
    );
    assert!(read_no_follow(Path::new("relative"), 64, Owner::ThisUser).is_err());
    assert!(
        read_no_follow(&dir.path().join("a/../fits.json"), 64, Owner::ThisUser).is_err(),
        "no `..`"
    );
}

#[test]
fn nothing_is_checked_for_another_platform_or_when_nothing_was_named() {
    let probe = HookProbe::new(Some("/nonexistent".into()), Some(12));
    let mut host = HostFacts::current();
    host.platform = if Platform::current() == Platform::Win32 {
        Platform::Linux
    } else {
        Platform::Win32
    };
    let all = Checks::of(&Check::ALL);
    let other = probe.check(all, &host);
    assert_eq!(
        (
            other.user_namespaces,
            other.codex_home,
            other.claude_sandbox
        ),
        (None, None, None)
    );
    assert_eq!(
        other.client_tail,
        Some(12),
        "the payload's own fact needs no host"
    );
    host.platform = Platform::current();
    let unasked = probe.check(Checks::of(&[Check::CodexHome]), &host);
    assert_eq!(unasked.client_tail, None);
}
