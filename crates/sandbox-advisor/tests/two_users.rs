//! Two local users share a `--state-dir` parent (a sticky, world-writable
//! directory like `/tmp`): the attacker prepares the state directory, the
//! victim's hook and collector run in it (issue 23, item 1). Nothing outside
//! the state directory may change, and the hook must answer, or exit 1 with
//! one line, within 100 ms.
//!
//! It switches users with `setpriv` (util-linux), so it runs only as root
//! (CI runs as root), or fails when `SANDBOX_ADVISOR_REQUIRE_TWO_USERS=1`
//! demands it and this is not root; otherwise it prints a note and passes.

// Helpers outside #[test] functions are test code too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg(all(unix, feature = "all-families"))]

mod two_users {
    pub mod tree;
}

use std::fs;
use std::io::Write;
use std::os::unix::fs::{PermissionsExt, chown};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;
use two_users::tree::{precious, snapshot};

const ATTACKER: u32 = 60101;
const VICTIM: u32 = 60102;
/// The bound the issue sets for the hook's answer or refusal.
const BOUND: Duration = Duration::from_millis(100);
/// How long a run may take before it is killed as stuck.
const STUCK: Duration = Duration::from_secs(5);
const REQUIRE: &str = "SANDBOX_ADVISOR_REQUIRE_TWO_USERS";
const ACL: &str = r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)";

/// One attack: a shell script the attacker runs in the shared directory.
/// `$STATE` is the state directory, `$VHOME` the victim's home, `$DROP` a
/// path of the attacker's choosing, `$BIN` the binary, `$PAYLOAD` the
/// victim's hook payload.
struct Attack {
    name: &'static str,
    script: &'static str,
}

const ATTACKS: &[Attack] = &[
    Attack {
        name: "a pre-created 0777 state directory",
        script: r#"mkdir -m 0777 "$STATE" "$STATE/v1" "$STATE/v1/agents" "$STATE/v1/trash""#,
    },
    Attack {
        name: "v1/agents a link to the victim's projects",
        script: r#"mkdir -m 0777 "$STATE" "$STATE/v1" "$STATE/v1/trash"
                   ln -s "$VHOME/projects" "$STATE/v1/agents""#,
    },
    Attack {
        name: "v1/trash a link to the victim's Documents",
        script: r#"mkdir -m 0777 "$STATE" "$STATE/v1" "$STATE/v1/agents"
                   ln -s "$VHOME/Documents" "$STATE/v1/trash""#,
    },
    Attack {
        name: "v1/gc.lock a link to the attacker's path",
        script: r#"mkdir -m 0777 "$STATE" "$STATE/v1" "$STATE/v1/agents" "$STATE/v1/trash"
                   ln -s "$DROP" "$STATE/v1/gc.lock""#,
    },
    Attack {
        name: "a planted key",
        script: r#"mkdir -m 0755 "$STATE" "$STATE/v1" "$STATE/v1/agents" "$STATE/v1/trash"
                   printf '000102030405060708090a0b0c0d0e0f\n' > "$STATE/v1/key""#,
    },
    Attack {
        name: "slots pre-claimed by the attacker's own hook",
        // The harness's bridge, as the victim's hook: its ACL family claims
        // the slot (a Claude Code host has no family for this line, and
        // since issue 36 no harness pre-flight either, so nothing is claimed).
        script: r#"printf '%s' "$PAYLOAD" | "$BIN" hook --dialect claude-code --host dsh --platform win32 --state-dir "$STATE" > /dev/null
                   chmod -R a+rwX "$STATE""#,
    },
    Attack {
        name: "a FIFO at v1/key",
        script: r#"mkdir -m 0777 "$STATE" "$STATE/v1" "$STATE/v1/agents" "$STATE/v1/trash"
                   mkfifo -m 0666 "$STATE/v1/key""#,
    },
];

/// The places one case uses: a root-owned base (0755) holding the binary,
/// the shared sticky directory, the victim's home and the attacker's own.
struct Place {
    _base: tempfile::TempDir,
    bin: PathBuf,
    state: PathBuf,
    vhome: PathBuf,
    attacker: PathBuf,
}

impl Place {
    fn new() -> Self {
        let base = tempfile::tempdir().unwrap();
        let root = base.path().to_owned();
        fs::set_permissions(&root, fs::Permissions::from_mode(0o755)).unwrap();
        // A copy the other uids can execute wherever the build tree is.
        let bin = root.join("sandbox-advisor");
        fs::copy(env!("CARGO_BIN_EXE_sandbox-advisor"), &bin).unwrap();
        fs::set_permissions(&bin, fs::Permissions::from_mode(0o755)).unwrap();
        let shared = root.join("shared");
        fs::create_dir(&shared).unwrap();
        fs::set_permissions(&shared, fs::Permissions::from_mode(0o1777)).unwrap();
        let vhome = root.join("victim");
        fs::create_dir(&vhome).unwrap();
        precious(&vhome);
        chown_tree(&vhome, VICTIM);
        let attacker = root.join("attacker");
        fs::create_dir(&attacker).unwrap();
        fs::write(attacker.join("kept"), "the attacker's").unwrap();
        chown_tree(&attacker, ATTACKER);
        // Anyone may create the attacker's chosen path: only a victim
        // following the link would.
        fs::set_permissions(&attacker, fs::Permissions::from_mode(0o777)).unwrap();
        Self {
            bin,
            state: shared.join("state"),
            vhome,
            attacker,
            _base: base,
        }
    }

    /// Runs `args` as `uid` with `stdin`, in a minimal environment whose
    /// HOME is the victim's for the victim; how long it took.
    fn run_as(
        &self,
        uid: u32,
        program: &Path,
        args: &[&str],
        env: &[(&str, &str)],
        stdin: &[u8],
    ) -> (Output, Duration) {
        let mut command = Command::new("setpriv");
        command
            .arg(format!("--reuid={uid}"))
            .arg(format!("--regid={uid}"))
            .arg("--clear-groups")
            .arg(program)
            .args(args)
            .env_clear()
            .env("PATH", "/usr/bin:/bin")
            .env(
                "HOME",
                if uid == VICTIM {
                    &self.vhome
                } else {
                    &self.attacker
                },
            )
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let started = Instant::now();
        let mut child = command.spawn().expect("setpriv (util-linux) runs");
        child.stdin.take().unwrap().write_all(stdin).unwrap();
        // The outputs fit a pipe's buffer; a child still running after
        // [`STUCK`] (the hook blocked on a FIFO) is killed and reported.
        while child.try_wait().unwrap().is_none() && started.elapsed() < STUCK {
            std::thread::sleep(Duration::from_millis(1));
        }
        let took = started.elapsed();
        let _ = child.kill();
        (child.wait_with_output().unwrap(), took)
    }
}

fn chown_tree(path: &Path, uid: u32) {
    chown(path, Some(uid), Some(uid)).unwrap();
    if fs::symlink_metadata(path).unwrap().is_dir() {
        for entry in fs::read_dir(path).unwrap() {
            chown_tree(&entry.unwrap().path(), uid);
        }
    }
}

fn payload() -> String {
    json!({
        "session_id": "victim-session", "cwd": "D:\\ws", "hook_event_name": "PostToolUseFailure",
        "tool_name": "pwsh", "tool_input": {"command": "Get-Date"}, "tool_use_id": "toolu_01",
        "error": ACL, "is_interrupt": false,
    })
    .to_string()
}

/// Runs one attack, then the victim's hook and collector: what went wrong.
fn check(attack: &Attack) -> Vec<String> {
    let place = Place::new();
    let payload = payload();
    let state = place.state.to_str().unwrap();
    let drop_path = place.attacker.join("drop");
    let env = [
        ("STATE", state),
        ("VHOME", place.vhome.to_str().unwrap()),
        ("DROP", drop_path.to_str().unwrap()),
        ("BIN", place.bin.to_str().unwrap()),
        ("PAYLOAD", payload.as_str()),
    ];
    let sh = Path::new("/bin/sh");
    let (prepared, _) = place.run_as(ATTACKER, sh, &["-ec", attack.script], &env, b"");
    let name = attack.name;
    assert!(
        prepared.status.success(),
        "{name}: the attacker's setup failed: {prepared:?}"
    );
    let home = snapshot(&place.vhome);
    let attackers = snapshot(&place.attacker);

    let hook = [
        "hook",
        "--dialect",
        "claude-code",
        "--host",
        "dsh",
        "--platform",
        "win32",
        // Stated, not assumed (a hook has no default mode); under
        // read-only the temp-root pre-flight has nothing to say.
        "--mode",
        "read-only",
        "--state-dir",
        state,
    ];
    // The fastest of three runs (all alike: nothing is written) is timed,
    // so a busy machine does not fail the bound; a blocked hook fails it
    // each time.
    let runs: Vec<(Output, Duration)> = (0..3)
        .map(|_| place.run_as(VICTIM, &place.bin, &hook, &[], payload.as_bytes()))
        .collect();
    let took = runs.iter().map(|(_, took)| *took).min().unwrap();
    let out = runs.into_iter().map(|(out, _)| out).next_back().unwrap();
    let collect = ["collect", "--state-dir", state];
    let (collected, _) = place.run_as(VICTIM, &place.bin, &collect, &[], b"");
    // A detached collector the hook might have started has had its time.
    std::thread::sleep(Duration::from_millis(200));

    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let code = out.status.code();
    let answered = code == Some(0) && stdout.contains("additionalContext");
    let refused = code == Some(1) && stdout.is_empty();
    let said = String::from_utf8_lossy(&collected.stderr);
    let checks = [
        (
            snapshot(&place.vhome) == home,
            "the victim's home changed".to_owned(),
        ),
        (
            snapshot(&place.attacker) == attackers,
            "the attacker's path changed".to_owned(),
        ),
        (
            answered || refused,
            format!("the hook exited {code:?}: {stdout}"),
        ),
        (
            stderr.lines().count() == 1,
            format!("the hook's stderr is not one line: {stderr:?}"),
        ),
        (
            stderr.contains("not a safe state directory"),
            format!("the hook gave no reason: {stderr:?}"),
        ),
        (took < BOUND, format!("the hook took {took:?}")),
        (
            !collected.status.success(),
            format!("collect ran: {said:?}"),
        ),
        (
            said.lines().count() == 1,
            format!("collect's stderr is not one line: {said:?}"),
        ),
        (
            said.contains(state) && said.contains("not a safe state directory"),
            format!("collect gave no reason: {said:?}"),
        ),
    ];
    let failed: Vec<String> = checks
        .into_iter()
        .filter(|(ok, _)| !ok)
        .map(|(_, why)| format!("{name}: {why}"))
        .collect();
    eprintln!(
        "{name}: {} in {took:?}",
        if answered { "answered" } else { "refused" }
    );
    failed
}

#[test]
fn an_attacker_who_prepares_the_state_directory_changes_nothing_of_the_victims() {
    if !is_root() {
        assert!(
            std::env::var_os(REQUIRE).is_none_or(|v| v != "1"),
            "{REQUIRE}=1 but this process is not root: the two-user test needs root to switch uids"
        );
        eprintln!(
            "note: not root; the two-user test is skipped (set {REQUIRE}=1 to make this a failure)"
        );
        return;
    }
    let failed: Vec<String> = ATTACKS.iter().flat_map(check).collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// True when this process runs as root: a file it creates is owned by uid 0.
fn is_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    let probe = tempfile::tempfile().unwrap();
    probe.metadata().unwrap().uid() == 0
}
