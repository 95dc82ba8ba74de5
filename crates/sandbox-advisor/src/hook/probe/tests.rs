#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(unix)]
use std::os::unix::fs::PermissionsExt;

use super::claude::claude_sandbox;
use super::files::{Owner, read_no_follow};
use super::*;
#[cfg(unix)]
use advisor_core::{Judged, MountFact, SandboxMode, Untrusted};

pub(super) fn inputs(dir: &Path) -> Inputs {
    Inputs {
        home: Some(dir.join("home")),
        codex_home: None,
        claude_config: None,
        project: Some(dir.join("proj")),
        temp: PathBuf::from("/tmp"),
        path: None,
        cwd: Some(dir.join("proj")),
        tmpdir: Some(PathBuf::from("/tmp/codex-tmp")),
        claude_tmpdir: Some(PathBuf::from("/tmp/claude-0")),
        codex_arguments: None,
    }
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[cfg(unix)]
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

// Linux's namespaces: elsewhere the probe trusts no program and never runs.
#[cfg(unix)]
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

// Off Unix no settings file is read (`files::read_no_follow`): see the twin below.
#[cfg(unix)]
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

// File modes and symbolic links: Unix's.
#[cfg(unix)]
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

#[cfg(unix)]
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

/// Off Unix the no-follow walk and the owner check do not exist, so no
/// settings file is read, even a plain one of this user's: Claude Code's
/// sandbox stays unknown rather than read unsafely.
#[cfg(not(unix))]
#[test]
fn off_unix_no_settings_file_is_read_and_the_sandbox_stays_unknown() {
    let dir = tempfile::tempdir().unwrap();
    let env = inputs(dir.path());
    let home = dir.path().join("home/.claude/settings.json");
    write(&home, r#"{"sandbox": {"enabled": true}}"#);
    assert_eq!(claude_sandbox(&env).enabled, None);
    assert!(read_no_follow(&home, SETTINGS_MAX_BYTES, Owner::ThisUser).is_err());
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

#[cfg(unix)]
fn posix(p: &Path) -> HostPath {
    HostPath::lexical(PathStyle::Posix, p.to_str().unwrap())
}

// Reads the client's files: off Unix nothing is read (see the off-Unix test).
#[cfg(unix)]
#[test]
fn claude_codes_writable_directories_from_its_settings_and_environment() {
    let dir = tempfile::tempdir().unwrap();
    let env = inputs(dir.path());
    write(
        &dir.path().join("proj/.claude/settings.json"),
        r#"{"sandbox": {"enabled": true, "filesystem": {"allowWrite": ["/srv/extra", "~/cache", "relative", "/srv/glob/*", 3]}}}"#,
    );
    let found = claude_sandbox(&env);
    assert_eq!(found.enabled, Some(true));
    let roots: Vec<_> = found.allow_write.iter().map(HostPath::as_str).collect();
    let home_cache = dir.path().join("home/cache");
    assert_eq!(roots, ["/srv/extra", home_cache.to_str().unwrap()]);
    assert_eq!(
        found.tmpdir.as_ref().map(HostPath::as_str),
        Some("/tmp/claude-0")
    );
    assert_eq!(found.project_dir, Some(posix(&dir.path().join("proj"))));
}

#[cfg(unix)]
fn codex(dir: &Path) -> advisor_core::CodexSandbox {
    let mut env = inputs(dir);
    env.codex_home = Some(dir.join("codex-home"));
    match codex::codex_config(&env) {
        advisor_core::CodexConfig::Read(config) => config,
        other => panic!("{other:?}"),
    }
}

// Reads the client's files: off Unix nothing is read (see the off-Unix test).
#[cfg(unix)]
#[test]
fn codexs_configuration_in_its_layers() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // No file at all: an untrusted project runs read-only.
    let none = codex(d);
    assert_eq!(none.mode, Some(SandboxMode::ReadOnly));
    assert_eq!((none.writable_roots.len(), none.network_access), (0, None));
    assert_eq!(
        none.tmpdir.as_ref().map(HostPath::as_str),
        Some("/tmp/codex-tmp")
    );
    assert_eq!(none.cwd, Some(posix(&d.join("proj"))));
    // The user's file, and a project file that counts only once trusted.
    write(
        &d.join("codex-home/config.toml"),
        "[sandbox_workspace_write]\nwritable_roots = [\"/srv/extra\", \"rel\"]\n",
    );
    write(
        &d.join("proj/.codex/config.toml"),
        "sandbox_mode = \"danger-full-access\"\n[sandbox_workspace_write]\nnetwork_access = true\n",
    );
    let untrusted = codex(d);
    assert_eq!(untrusted.mode, Some(SandboxMode::ReadOnly));
    assert_eq!(untrusted.network_access, None);
    let roots: Vec<_> = untrusted
        .writable_roots
        .iter()
        .map(HostPath::as_str)
        .collect();
    let rel = d.join("codex-home/rel");
    assert_eq!(roots, ["/srv/extra", rel.to_str().unwrap()]);
    let trust = format!(
        "[sandbox_workspace_write]\nwritable_roots = [\"/srv/extra\"]\n[projects.\"{}\"]\ntrust_level = \"trusted\"\n",
        d.join("proj").display()
    );
    write(&d.join("codex-home/config.toml"), &trust);
    let trusted = codex(d);
    assert_eq!(trusted.mode, Some(SandboxMode::DangerFullAccess));
    assert_eq!(trusted.network_access, Some(true));
    // Trusted with no mode anywhere: workspace-write.
    std::fs::remove_file(d.join("proj/.codex/config.toml")).unwrap();
    assert_eq!(codex(d).mode, Some(SandboxMode::WorkspaceWrite));
}

// Reads the client's files: off Unix nothing is read (see the off-Unix test).
#[cfg(unix)]
#[test]
fn an_unreadable_codex_file_is_unreadable_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut env = inputs(d);
    env.codex_home = Some(d.join("codex-home"));
    write(&d.join("elsewhere.toml"), "sandbox_mode = \"read-only\"\n");
    std::fs::create_dir_all(d.join("codex-home")).unwrap();
    std::os::unix::fs::symlink(d.join("elsewhere.toml"), d.join("codex-home/config.toml")).unwrap();
    assert_eq!(
        codex::codex_config(&env),
        advisor_core::CodexConfig::Unreadable("codex-config-not-readable")
    );
    std::fs::remove_file(d.join("codex-home/config.toml")).unwrap();
    write(
        &d.join("codex-home/config.toml"),
        "sandbox_mode = \"everything\"\n",
    );
    assert_eq!(
        codex::codex_config(&env),
        advisor_core::CodexConfig::Unreadable("codex-config-unknown-mode")
    );
    env.codex_home = None;
    env.home = None;
    assert_eq!(
        codex::codex_config(&env),
        advisor_core::CodexConfig::Unreadable("codex-home-unknown")
    );
}

// The mount and the socket are tried on Unix only (see the off-Unix test).
#[cfg(unix)]
#[test]
fn the_mount_at_a_relative_path_is_read_against_cwd_and_sockets_are_tried() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join("proj")).unwrap();
    let env = inputs(d);
    let wanted = Checks::of(&[Check::MountAt, Check::InetSocket]);
    let found = gather(wanted, Some("../proj/missing/x"), &env);
    assert_eq!(
        found.mount,
        Some(MountFact::Writable {
            judged: Judged::Ancestor,
            user_may_write: true,
        })
    );
    assert_eq!(found.inet_socket, Some(true));
    // The working directory the path was resolved against goes with the mount.
    assert_eq!(found.working_directory, Some(posix(&d.join("proj"))));
    let no_mount = gather(Checks::of(&[Check::InetSocket]), None, &env);
    assert_eq!(no_mount.working_directory, None);
    assert_eq!(gather(Checks::NONE, None, &env), HostChecks::default());
    assert_eq!(
        gather(Checks::of(&[Check::MountAt]), Some("a/../x"), &env).mount,
        Some(MountFact::Unknown("path-unusual"))
    );
}

// Reads the client's files: off Unix nothing is read (see the off-Unix test).
#[cfg(unix)]
#[test]
fn codexs_command_line_outranks_its_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        &d.join("codex-home/config.toml"),
        "sandbox_mode = \"read-only\"\n[sandbox_workspace_write]\nnetwork_access = false\nwritable_roots = [\"/srv/a\"]\n",
    );
    let mut env = inputs(d);
    env.codex_home = Some(d.join("codex-home"));
    env.codex_arguments = Some(
        "codex exec --sandbox workspace-write -c sandbox_workspace_write.network_access=true --add-dir extra"
            .split(' ')
            .map(str::to_owned)
            .collect(),
    );
    let advisor_core::CodexConfig::Read(got) = codex::codex_config(&env) else {
        panic!("unreadable");
    };
    assert_eq!(got.mode, Some(SandboxMode::WorkspaceWrite));
    assert_eq!(got.network_access, Some(true));
    let roots: Vec<_> = got.writable_roots.iter().map(HostPath::as_str).collect();
    let extra = d.join("proj/extra");
    assert_eq!(roots, ["/srv/a", extra.to_str().unwrap()]);
}
