//! `sandbox-advisor hook`: cold start plus decision, per invocation (issue 17:
//! 5 ms or less).
//!
//! `cargo bench -p sandbox-advisor --bench hook` builds the binary (the
//! `bench` profile: the release code with line tables), then times whole processes: each iteration spawns
//! it with `hook --dialect claude-code --platform win32 --mode
//! workspace-write --state-dir <temp dir>`, writes one payload on its stdin,
//! closes it, and waits for the exit with stdout and stderr read through
//! pipes, as Claude Code and Codex run a hook. Every iteration checks the
//! exit status and whether stdout held an advisory.
//!
//! - `floor`: `/bin/true` and `sandbox-advisor --version` (what a process
//!   costs before the hook does anything).
//! - `silent`: a PostToolUse that matches nothing, and a PreToolUse with the
//!   budget off (the default). The ledger's stores are opened on first use,
//!   and neither needs them, except for the note below.
//! - `file`: the on-disk ledger (the default): a PostToolUseFailure with the
//!   ACL backend's message whose advisory was already delivered (the claim
//!   says again), and the first advisory for a fresh session (a distinct
//!   session id per iteration: the claim is first).
//! - `file_10k`: the same in a state directory already holding 10,000
//!   agents; and the first advisory when the collection is due (its stamp
//!   removed before each iteration, once a minute per state directory in
//!   use): that invocation answers, then starts the detached `collect` that
//!   lists and retires; the setup waits for it outside the timing.
//! - `redis`: `--ledger redis://…` on a throwaway `redis-server` (with the
//!   on-disk store behind it, as `hook` always has): again, first, and a
//!   PostToolUse that matches nothing.
//!   Skipped, with a note, when `redis-server` is not on `PATH` (unless
//!   `SANDBOX_ADVISOR_REQUIRE_REDIS` is set).
//!
//! `--platform win32` on a Linux machine gives the host no temp directory,
//! so a PostToolUse discloses temp-root's withhold: a claim, first for the
//! agent's first event (with one warn line on stderr), again after. That
//! opens the store even when the event matches nothing. On Windows the OS's
//! temp directory is given and that claim is not made;
//! `silent::post_no_match_temp_dir_known` measures that path.
//!
//! `SANDBOX_ADVISOR_BIN=path` measures another build of the binary (the
//! shipped `release` one: `cargo bench` runs the `bench` profile's, which
//! carries line tables).
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic, missing_docs)]

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use divan::Bencher;
use ledger_redis::testing::RedisServer;
use serde_json::json;

#[path = "support/spawn.rs"]
mod spawn;

/// The binary: this build's, or `SANDBOX_ADVISOR_BIN` to measure another.
fn bin() -> &'static str {
    static BIN: OnceLock<String> = OnceLock::new();
    BIN.get_or_init(|| {
        std::env::var("SANDBOX_ADVISOR_BIN")
            .unwrap_or_else(|_| env!("CARGO_BIN_EXE_sandbox-advisor").to_owned())
    })
}

const ACL: &str = r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)";
/// Agents already in the state directory of `file_10k`.
const AGENTS: usize = 10_000;

static REDIS_URL: OnceLock<String> = OnceLock::new();
static NEXT: AtomicU64 = AtomicU64::new(0);

fn main() {
    // One throwaway server for the `redis` group, killed when main returns.
    let server = RedisServer::start();
    if let Some(server) = &server {
        REDIS_URL.set(server.url()).expect("set once");
    }
    divan::main();
    drop(server);
}

/// What the answer should be.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Expect {
    Silence,
    Advisory,
}

fn payload(event: serde_json::Value) -> Vec<u8> {
    event.to_string().into_bytes()
}

/// A PostToolUse whose text matches no family (the common case).
fn success(session: &str) -> Vec<u8> {
    payload(json!({
        "session_id": session, "transcript_path": "C:\\Users\\dev\\.claude\\projects\\ws\\s.jsonl",
        "cwd": "D:\\ws", "permission_mode": "default", "hook_event_name": "PostToolUse",
        "tool_name": "pwsh", "tool_input": {"command": "Get-ChildItem"}, "tool_use_id": "toolu_01",
        "tool_response": "\n    Directory: D:\\ws\n\nMode   LastWriteTime   Length Name\n----   -------------   ------ ----\nd----  01/12/2026 20:00        src\n-a---  01/12/2026 20:00   1024 Cargo.toml\n",
    }))
}

/// A PreToolUse (`tests/hooks/claude-code/pre-tool-use-allowed.json`).
fn pre(session: &str) -> Vec<u8> {
    payload(json!({
        "session_id": session, "transcript_path": "C:\\Users\\dev\\.claude\\projects\\ws\\s.jsonl",
        "cwd": "D:\\ws", "permission_mode": "default", "hook_event_name": "PreToolUse",
        "tool_name": "pwsh", "tool_input": {"command": "Get-Date"}, "tool_use_id": "toolu_01",
    }))
}

/// A PostToolUseFailure with the ACL backend's message
/// (`tests/hooks/claude-code/post-tool-use-failure-acl.json`).
fn acl_failure(session: &str) -> Vec<u8> {
    payload(json!({
        "session_id": session, "transcript_path": "C:\\Users\\dev\\.claude\\projects\\ws\\s.jsonl",
        "cwd": "D:\\ws", "permission_mode": "default", "hook_event_name": "PostToolUseFailure",
        "tool_name": "pwsh", "tool_input": {"command": "Get-Date"}, "tool_use_id": "toolu_01",
        "error": ACL, "is_interrupt": false,
    }))
}

/// A session id no earlier iteration used.
fn fresh_session() -> String {
    format!(
        "bench-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Relaxed)
    )
}

/// One hook invocation, spawned and waited for as a host does it.
fn hook(extra: &[&str], state_dir: &Path, payload: &[u8]) -> Output {
    hook_on("win32", extra, state_dir, payload)
}

/// [`hook`] with `--platform platform`.
fn hook_on(platform: &str, extra: &[&str], state_dir: &Path, payload: &[u8]) -> Output {
    spawn::with_stdin(
        Command::new(bin())
            .args(["hook", "--dialect", "claude-code", "--platform", platform])
            .args(["--mode", "workspace-write", "--state-dir"])
            .arg(state_dir)
            .args(extra),
        payload,
    )
}

fn check(out: &Output, expect: Expect) {
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let advised = out
        .stdout
        .windows(b"additionalContext".len())
        .any(|w| w == b"additionalContext");
    let got = if advised {
        Expect::Advisory
    } else {
        assert!(out.stdout.is_empty(), "{:?}", out.stdout);
        Expect::Silence
    };
    assert_eq!(got, expect, "{}", String::from_utf8_lossy(&out.stderr));
}

/// Times `payload` (a new one per iteration) against `state_dir`.
fn bench_hook(
    bencher: Bencher,
    extra: &[&str],
    state_dir: &Path,
    payload: impl FnMut() -> Vec<u8>,
    expect: Expect,
) {
    bencher
        .with_inputs(payload)
        .bench_local_values(|payload| check(&hook(extra, state_dir, &payload), expect));
}

fn state_dir() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary state directory")
}

/// The ACL failure again: delivered once outside the timing, then timed
/// while the claim says again and the hook is silent.
fn bench_again(bencher: Bencher, extra: &[&str], state_dir: &Path) {
    check(
        &hook(extra, state_dir, &acl_failure("s1")),
        Expect::Advisory,
    );
    bench_hook(
        bencher,
        extra,
        state_dir,
        || acl_failure("s1"),
        Expect::Silence,
    );
}

/// The first advisory for a fresh session each iteration: the claim is first.
fn bench_first(bencher: Bencher, extra: &[&str], state_dir: &Path) {
    bench_hook(
        bencher,
        extra,
        state_dir,
        || acl_failure(&fresh_session()),
        Expect::Advisory,
    );
}

mod floor {
    use super::*;

    /// Spawning a process that does nothing, through the same pipes.
    #[cfg(unix)]
    #[divan::bench(sample_count = 200, sample_size = 1)]
    fn bin_true(bencher: Bencher) {
        bencher.bench_local(|| {
            let out = Command::new("true")
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .output()
                .expect("spawn true");
            assert!(out.status.success());
        });
    }

    /// The binary's own start and exit: `--version`.
    #[divan::bench(sample_count = 200, sample_size = 1)]
    fn version(bencher: Bencher) {
        bencher.bench_local(|| {
            let out = Command::new(bin())
                .arg("--version")
                .stdin(Stdio::null())
                .output()
                .expect("spawn sandbox-advisor");
            assert!(out.status.success());
        });
    }
}

mod silent {
    use super::*;

    /// (a) PostToolUse that matches nothing: the common case.
    #[divan::bench(sample_count = 200, sample_size = 1)]
    fn post_no_match(bencher: Bencher) {
        let dir = state_dir();
        bench_hook(bencher, &[], dir.path(), || success("s1"), Expect::Silence);
    }

    /// (a) again, with the host's temp directory known, as on Windows (there
    /// `--platform` is left to the OS; here `--platform linux` is this
    /// machine's own): temp-root does not withhold, so no digest is computed
    /// and no store is opened.
    #[divan::bench(sample_count = 200, sample_size = 1)]
    fn post_no_match_temp_dir_known(bencher: Bencher) {
        let dir = state_dir();
        let payload = success("s1");
        bencher.bench_local(|| {
            check(
                &hook_on("linux", &[], dir.path(), &payload),
                Expect::Silence,
            );
        });
        assert!(
            std::fs::read_dir(dir.path())
                .expect("the state directory")
                .next()
                .is_none(),
            "no store was opened"
        );
    }

    /// (b) PreToolUse with the budget off (the default).
    #[divan::bench(sample_count = 200, sample_size = 1)]
    fn pre_budget_off(bencher: Bencher) {
        let dir = state_dir();
        bench_hook(bencher, &[], dir.path(), || pre("s1"), Expect::Silence);
    }
}

mod file {
    use super::*;

    /// (c) The ACL failure again, its advisory already delivered: the claim
    /// on the on-disk store says again, and the hook is silent.
    #[divan::bench(sample_count = 200, sample_size = 1)]
    fn acl_again(bencher: Bencher) {
        bench_again(bencher, &[], state_dir().path());
    }

    /// (d) The first advisory for a fresh session: the claim is first.
    #[divan::bench(sample_count = 200, sample_size = 1)]
    fn acl_first(bencher: Bencher) {
        bench_first(bencher, &[], state_dir().path());
    }
}

mod file_10k {
    use super::*;

    /// A state directory holding [`AGENTS`] agents, each advised once, filled
    /// by one `serve --ledger file` process (the same digest key and layout
    /// as the hooks'); its collection stamp is fresh.
    fn populated() -> tempfile::TempDir {
        let dir = state_dir();
        let mut child = Command::new(bin())
            .args(["--log", "off", "serve", "--ledger", "file", "--state-dir"])
            .arg(dir.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn serve");
        let mut stdin = std::io::BufWriter::new(child.stdin.take().expect("stdin"));
        let mut line = |value: serde_json::Value| writeln!(stdin, "{value}").expect("write");
        line(json!({"type": "host", "platform": "win32", "tmpdir": "C:\\Temp"}));
        line(json!({"type": "session", "session": "s", "cwd": "D:\\ws"}));
        line(json!({"type": "sandbox-mode", "session": "s", "mode": "workspace-write"}));
        for agent in 0..AGENTS {
            line(json!({
                "type": "post", "agent": format!("pre-{agent}"), "session": "s", "call": "c1",
                "tool": "pwsh", "args": {"command": "Get-Date"}, "error": {"message": ACL},
            }));
        }
        drop(stdin);
        assert!(child.wait().expect("serve").success());
        let agents = std::fs::read_dir(dir.path().join("v1").join("agents"))
            .expect("the agents directory")
            .count();
        assert!(agents >= AGENTS, "{agents} agents");
        dir
    }

    /// The collection's stamp (`ledger-file`'s layout: `<dir>/v1/gc.stamp`).
    fn gc_stamp(dir: &Path) -> PathBuf {
        dir.join("v1").join("gc.stamp")
    }

    /// (f) The ACL failure again with 10,000 agents on disk.
    #[divan::bench(sample_count = 200, sample_size = 1)]
    fn acl_again(bencher: Bencher) {
        bench_again(bencher, &[], populated().path());
    }

    /// (f) The first advisory for a fresh session with 10,000 agents on disk
    /// (the collection not due: it ran when the directory was filled).
    #[divan::bench(sample_count = 200, sample_size = 1)]
    fn acl_first(bencher: Bencher) {
        bench_first(bencher, &[], populated().path());
    }

    /// (f) The same when the collection is due (the stamp is removed before
    /// each one): the hook answers, then starts a detached `collect`, which
    /// lists the 10,000 agents and retires the oldest down to the count
    /// bound. The setup waits for that collector to finish (its stamp back,
    /// then its lock free) so it never runs beside a timed iteration.
    #[divan::bench(sample_count = 50, sample_size = 1)]
    fn acl_first_collecting(bencher: Bencher) {
        let dir = populated();
        let stamp = gc_stamp(dir.path());
        bench_hook(
            bencher,
            &[],
            dir.path(),
            || {
                collector_done(dir.path());
                std::fs::remove_file(&stamp).expect("remove the collection stamp");
                acl_failure(&fresh_session())
            },
            Expect::Advisory,
        );
        collector_done(dir.path());
    }

    /// Waits until the detached collector has written its stamp (under its
    /// lock) and released the lock.
    fn collector_done(dir: &Path) {
        let stamp = gc_stamp(dir);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while !stamp.exists() {
            assert!(
                std::time::Instant::now() < deadline,
                "no collector wrote {} within 30 s",
                stamp.display()
            );
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        let lock =
            std::fs::File::open(dir.join("v1").join("gc.lock")).expect("the collection lock");
        let mut lock = fd_lock::RwLock::new(lock);
        drop(lock.write().expect("wait for the collector"));
    }
}

mod redis {
    use super::*;

    fn url() -> Option<&'static str> {
        let url = REDIS_URL.get().map(String::as_str);
        if url.is_none() {
            eprintln!("skipped: redis-server not found");
        }
        url
    }

    /// (e) The ACL failure again, the claim answered by Redis.
    #[divan::bench(sample_count = 200, sample_size = 1)]
    fn acl_again(bencher: Bencher) {
        let Some(url) = url() else { return };
        bench_again(bencher, &["--ledger", url], state_dir().path());
    }

    /// (e) The first advisory for a fresh session with `--ledger redis://…`.
    #[divan::bench(sample_count = 200, sample_size = 1)]
    fn acl_first(bencher: Bencher) {
        let Some(url) = url() else { return };
        bench_first(bencher, &["--ledger", url], state_dir().path());
    }

    /// A PostToolUse that matches nothing with `--ledger redis://…`: what
    /// connecting and binding the fleet's digest key cost every invocation.
    #[divan::bench(sample_count = 200, sample_size = 1)]
    fn post_no_match(bencher: Bencher) {
        let Some(url) = url() else { return };
        let dir = state_dir();
        bench_hook(
            bencher,
            &["--ledger", url],
            dir.path(),
            || success("s1"),
            Expect::Silence,
        );
    }
}
