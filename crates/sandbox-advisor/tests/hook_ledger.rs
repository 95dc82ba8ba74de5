//! `hook` across processes: the hosts start one process per event, several at
//! once, so "once per agent per family" and the fail-fast budget must hold in
//! the ledger the processes share — the on-disk store by default, Redis with
//! `--ledger`.

// Helpers outside #[test] functions are test code too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// The ACL family is the shipped one.
#![cfg(feature = "all-families")]

mod common;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use common::BIN;
use ledger_redis::testing::RedisServer;
use serde_json::{Value, json};

const ACL: &str = r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)";

fn failure(session: &str, call: &str) -> Value {
    json!({
        "session_id": session, "cwd": "D:\\ws", "hook_event_name": "PostToolUseFailure",
        "tool_name": "pwsh", "tool_input": {"command": "Get-Date"}, "tool_use_id": call,
        "error": ACL, "is_interrupt": false,
    })
}

fn success(session: &str, call: &str) -> Value {
    json!({
        "session_id": session, "cwd": "D:\\ws", "hook_event_name": "PostToolUse",
        "tool_name": "pwsh", "tool_input": {"command": "Get-Date"}, "tool_use_id": call,
        "tool_response": "Tuesday, 1 December 2026 20:00:00",
    })
}

fn pre(session: &str, call: &str) -> Value {
    json!({
        "session_id": session, "cwd": "D:\\ws", "hook_event_name": "PreToolUse",
        "tool_name": "pwsh", "tool_input": {"command": "Get-Date"}, "tool_use_id": call,
    })
}

/// What one hook process printed.
struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Starts every payload's process (on a Windows host) before reading any
/// answer, so they run at once.
fn concurrently(extra: &[&str], payloads: Vec<Value>) -> Vec<Out> {
    on_platform("win32", extra, payloads)
}

/// Each call's processes get a per-user state directory of their own (as
/// `common::run` gives each run), so a hook that ignored `--state-dir` would
/// share nothing with the next call, and never writes into the home of
/// whoever runs the tests.
fn on_platform(platform: &str, extra: &[&str], payloads: Vec<Value>) -> Vec<Out> {
    let home = tempfile::tempdir().unwrap();
    in_home(home.path(), platform, extra, payloads)
}

/// [`on_platform`] with `home/sandbox-advisor` as the default state directory
/// (`SANDBOX_ADVISOR_STATE_DIR`, which every system honours). `XDG_STATE_HOME`
/// points elsewhere in `home`, so a hook that ignored the variable would
/// neither use that directory nor write into the tester's own home.
fn in_home(home: &Path, platform: &str, extra: &[&str], payloads: Vec<Value>) -> Vec<Out> {
    in_env(
        &[
            ("SANDBOX_ADVISOR_STATE_DIR", home.join("sandbox-advisor")),
            ("XDG_STATE_HOME", home.join("xdg")),
        ],
        platform,
        extra,
        payloads,
    )
}

/// The processes of [`on_platform`], each with `vars` set (and no
/// `SANDBOX_ADVISOR_STATE_DIR` unless `vars` sets it).
fn in_env(
    vars: &[(&str, std::path::PathBuf)],
    platform: &str,
    extra: &[&str],
    payloads: Vec<Value>,
) -> Vec<Out> {
    let mut args = vec![
        "hook",
        "--dialect",
        "claude-code",
        // The harness's bridge: its families are the ones under test.
        "--host",
        "dsh",
        "--platform",
        platform,
        "--mode",
        "workspace-write",
    ];
    args.extend_from_slice(extra);
    let children: Vec<_> = payloads
        .iter()
        .map(|payload| {
            let mut child = Command::new(BIN)
                .args(&args)
                .env_remove("SANDBOX_ADVISOR_STATE_DIR")
                .envs(vars.iter().map(|(k, v)| (k, v)))
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let mut stdin = child.stdin.take().unwrap();
            stdin.write_all(payload.to_string().as_bytes()).unwrap();
            child
        })
        .collect();
    children
        .into_iter()
        .map(|child| {
            let out = child.wait_with_output().unwrap();
            Out {
                code: out.status.code().unwrap_or(-1),
                stdout: String::from_utf8(out.stdout).unwrap(),
                stderr: String::from_utf8(out.stderr).unwrap(),
            }
        })
        .collect()
}

fn state(dir: &Path) -> Vec<String> {
    let config = dir.join("advisor.json");
    std::fs::write(&config, r#"{"enforceAfter": 1, "maxDenials": 2}"#).unwrap();
    vec![
        "--state-dir".into(),
        dir.join("state").to_str().unwrap().into(),
        "--config".into(),
        config.to_str().unwrap().into(),
    ]
}

fn advised(outs: &[Out]) -> usize {
    outs.iter()
        .filter(|o| o.stdout.contains("additionalContext"))
        .count()
}

fn denied(outs: &[Out]) -> usize {
    outs.iter()
        .filter(|o| o.stdout.contains(r#""permissionDecision":"deny""#))
        .count()
}

fn all_ok(outs: &[Out]) {
    for o in outs {
        assert_eq!(o.code, 0, "{}", o.stderr);
    }
}

#[test]
fn thirty_two_concurrent_hooks_one_advisory() {
    for round in 0..8 {
        let dir = tempfile::tempdir().unwrap();
        let args = state(dir.path());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let payloads = (0..32).map(|i| failure("s1", &format!("t{i}"))).collect();
        let outs = concurrently(&args, payloads);
        all_ok(&outs);
        assert_eq!(advised(&outs), 1, "round {round}");
        // A subagent of the same session is an agent of its own.
        let mut sub = failure("s1", "t99");
        sub["agent_id"] = json!("helper");
        assert_eq!(advised(&concurrently(&args, vec![sub])), 1, "round {round}");
    }
}

/// enforceAfter 1, maxDenials 2: after one recognized failure, identical calls
/// are refused twice per episode — across every process — and a success of
/// the call re-arms the episode once it fails again.
#[test]
fn the_budget_holds_across_concurrent_processes() {
    for round in 0..3 {
        let dir = tempfile::tempdir().unwrap();
        let args = state(dir.path());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let posts = (0..4).map(|i| failure("s1", &format!("f{i}"))).collect();
        let outs = concurrently(&args, posts);
        all_ok(&outs);
        assert_eq!(advised(&outs), 1, "round {round}");
        let pres = (0..8).map(|i| pre("s1", &format!("p{i}"))).collect();
        let outs = concurrently(&args, pres);
        all_ok(&outs);
        assert_eq!(denied(&outs), 2, "round {round}");
        let other = concurrently(&args, vec![pre("s2", "q1")]);
        assert_eq!(denied(&other), 0, "another session is another agent");
        // The call succeeds (the user fixed the grant), then fails again.
        all_ok(&concurrently(&args, vec![success("s1", "ok1")]));
        let pres = (0..4).map(|i| pre("s1", &format!("r{i}"))).collect();
        assert_eq!(denied(&concurrently(&args, pres)), 0, "no longer watched");
        all_ok(&concurrently(&args, vec![failure("s1", "f9")]));
        let pres = (0..8).map(|i| pre("s1", &format!("u{i}"))).collect();
        assert_eq!(
            denied(&concurrently(&args, pres)),
            2,
            "re-armed, round {round}"
        );
    }
}

#[test]
fn with_redis_the_hooks_share_it_and_fall_back_to_the_disk_when_it_is_gone() {
    let Some(mut redis) = RedisServer::start() else {
        return;
    };
    let url = redis.url();
    let dir = tempfile::tempdir().unwrap();
    let mut args = state(dir.path());
    args.extend(["--ledger".to_owned(), url.clone()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let payloads = |session: &str| {
        (0..32)
            .map(|i| failure(session, &format!("t{i}")))
            .collect()
    };
    let outs = concurrently(&args, payloads("s1"));
    all_ok(&outs);
    // 32 processes started at once on a small machine can starve a Redis
    // round trip past a hook's bound on its whole Redis conversation
    // (250 ms, `ledger::HOOK_REDIS_CONVERSATION`). Such a hook says so and
    // answers from the on-disk store, which the hooks that used Redis did
    // not write. On that disk the agent has two names: a hook that read the
    // fleet's digest key before falling back digests under it, one that
    // could not read it digests under the disk's own. So the disk can repeat
    // the advisory once per name (3 in all), never more; with no fallback,
    // exactly once.
    let fell_back = outs
        .iter()
        .filter(|o| o.stderr.contains("shared ledger unavailable"))
        .count();
    eprintln!("{fell_back} of 32 hooks fell back to the disk");
    match fell_back {
        0 => assert_eq!(advised(&outs), 1),
        _ => assert!((1..=3).contains(&advised(&outs)), "{}", advised(&outs)),
    }
    // Another machine's state directory, the same Redis: already told.
    let elsewhere = tempfile::tempdir().unwrap();
    let mut other = state(elsewhere.path());
    other.extend(["--ledger".to_owned(), url]);
    let other: Vec<&str> = other.iter().map(String::as_str).collect();
    assert_eq!(advised(&concurrently(&other, vec![failure("s1", "x1")])), 0);
    redis.kill();
    let outs = concurrently(&args, payloads("s2"));
    all_ok(&outs);
    assert_eq!(advised(&outs), 1, "the on-disk store stood in");
    assert!(
        outs.iter()
            .all(|o| o.stderr.contains("shared ledger unavailable")),
        "each process says so once: {}",
        outs[0].stderr
    );
}

/// A hook whose event matches nothing opens no store: nothing is written
/// under the state directory and no connection reaches Redis. A recognized
/// failure does both. (With the budget on, a `pre` or a success asks the
/// store too: the budget is in it. On a Windows host the temp-root pre-flight
/// runs on a session's calls and, when it has something to say or withhold,
/// claims its seat too: this runs on a Linux host, where it does not.)
#[test]
fn an_event_that_matches_nothing_touches_neither_disk_nor_network() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let url = format!("redis://{}/0", listener.local_addr().unwrap());
    let accepted = || {
        let mut n = 0;
        while listener.accept().is_ok() {
            n += 1;
        }
        n
    };
    let dir = tempfile::tempdir().unwrap();
    let state_dir = dir.path().join("state");
    let on_disk = vec!["--state-dir", state_dir.to_str().unwrap()];
    let mut with_redis = on_disk.clone();
    with_redis.extend(["--ledger", &url]);
    let unrelated = |call: &str| {
        let mut p = failure("s1", call);
        p["error"] = json!("npm ERR! missing script: test");
        p
    };
    for args in [&on_disk, &with_redis] {
        let outs = on_platform(
            "linux",
            args,
            vec![unrelated("n1"), success("s1", "n2"), pre("s3", "n3")],
        );
        all_ok(&outs);
        assert!(outs.iter().all(|o| o.stdout.is_empty()));
    }
    assert!(
        !state_dir.exists(),
        "the silent path created the state directory"
    );
    assert_eq!(accepted(), 0, "the silent path connected to Redis");
    // The listener never answers, so Redis times out and the disk stands in.
    let outs = concurrently(&with_redis, vec![failure("s1", "t1")]);
    all_ok(&outs);
    assert_eq!(advised(&outs), 1);
    assert!(state_dir.exists());
    assert!(accepted() >= 1, "the recognized failure asked Redis");
}

/// Where a hook keeps its ledger: `--ledger` and `--state-dir`, else the
/// config's `ledger` and `stateDir`, else the on-disk store in the per-user
/// state directory. Each case runs the same failure in two processes, one
/// after the other, and names the only directory that holds a store.
#[test]
fn the_flags_else_the_config_choose_where_a_hook_keeps_its_ledger() {
    struct Case {
        about: &'static str,
        config: Value,
        flags: &'static [&'static str],
        /// Advisories from the second process: 0 when the first one's claim is shared.
        second: usize,
        /// `home` (the per-user default), `config`, `flag`, or none.
        store_in: Option<&'static str>,
    }
    let cases = [
        Case {
            about: "nothing said: the on-disk store in the per-user directory",
            config: json!({}),
            flags: &[],
            second: 0,
            store_in: Some("home"),
        },
        Case {
            about: "the config's stateDir",
            config: json!({"stateDir": "{config}"}),
            flags: &[],
            second: 0,
            store_in: Some("config"),
        },
        Case {
            about: "--state-dir over the config's stateDir",
            config: json!({"stateDir": "{config}"}),
            flags: &["--state-dir", "{flag}"],
            second: 0,
            store_in: Some("flag"),
        },
        Case {
            about: "the config's ledger: memory shares nothing",
            config: json!({"ledger": "memory", "stateDir": "{config}"}),
            flags: &[],
            second: 1,
            store_in: None,
        },
        Case {
            about: "--ledger over the config's ledger",
            config: json!({"ledger": "memory"}),
            flags: &["--ledger", "file", "--state-dir", "{flag}"],
            second: 0,
            store_in: Some("flag"),
        },
        Case {
            about: "--ledger memory over the default",
            config: json!({"stateDir": "{config}"}),
            flags: &["--ledger", "memory"],
            second: 1,
            store_in: None,
        },
    ];
    for case in cases {
        let tmp = tempfile::tempdir().unwrap();
        let dirs = ["home", "config", "flag"].map(|name| (name, tmp.path().join(name)));
        // Each `{name}` becomes that directory: inside the config's JSON as a
        // JSON string's content (a Windows path's `\` escaped), on the command
        // line as it is.
        let fill = |text: &str, json: bool| {
            dirs.iter().fold(text.to_owned(), |text, (name, dir)| {
                let path = dir.to_str().unwrap();
                let path = match json {
                    true => serde_json::to_string(path)
                        .unwrap()
                        .trim_matches('"')
                        .to_owned(),
                    false => path.to_owned(),
                };
                text.replace(&format!("{{{name}}}"), &path)
            })
        };
        let config = tmp.path().join("advisor.json");
        std::fs::write(&config, fill(&case.config.to_string(), true)).unwrap();
        let mut args = vec!["--config".to_owned(), config.to_str().unwrap().to_owned()];
        args.extend(case.flags.iter().map(|flag| fill(flag, false)));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let home = &dirs[0].1;
        let mut heard = Vec::new();
        for call in ["t1", "t2"] {
            let outs = in_home(home, "win32", &args, vec![failure("s1", call)]);
            all_ok(&outs);
            heard.push(advised(&outs));
        }
        assert_eq!(heard, [1, case.second], "{}", case.about);
        for (name, dir) in &dirs {
            // The per-user directory holds the store in `sandbox-advisor/`.
            let root = match *name {
                "home" => dir.join("sandbox-advisor"),
                _ => dir.clone(),
            };
            assert_eq!(
                root.join("v1").exists(),
                case.store_in == Some(*name),
                "{}: {name}",
                case.about
            );
        }
    }
}

/// Without a flag, a key or `SANDBOX_ADVISOR_STATE_DIR`, a hook keeps its
/// store in the platform's per-user state directory: `$XDG_STATE_HOME` on
/// Linux. (Windows' `%LOCALAPPDATA%` is a known folder no test can move, so
/// every other test here moves the default with the variable.)
#[cfg(target_os = "linux")]
#[test]
fn without_the_variable_the_default_is_the_platforms_per_user_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let xdg = tmp.path().join("xdg");
    for call in ["t1", "t2"] {
        let outs = in_env(
            &[("XDG_STATE_HOME", xdg.clone())],
            "win32",
            &[],
            vec![failure("s1", call)],
        );
        all_ok(&outs);
        assert_eq!(advised(&outs), usize::from(call == "t1"), "{call}");
    }
    assert!(xdg.join("sandbox-advisor").join("v1").exists());
}

/// A hook never collects the on-disk store in its own time: after answering
/// it starts a detached `sandbox-advisor collect`, which renews the
/// collection stamp. `collect` itself collects only when one is due.
#[test]
fn the_collection_runs_after_the_answer_in_a_detached_process() {
    let dir = tempfile::tempdir().unwrap();
    let state_dir = dir.path().join("state");
    let args = vec!["--state-dir", state_dir.to_str().unwrap()];
    let outs = concurrently(&args, vec![failure("s1", "t1")]);
    all_ok(&outs);
    assert_eq!(advised(&outs), 1);
    let stamp = state_dir.join("v1").join("gc.stamp");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !stamp.exists() {
        assert!(std::time::Instant::now() < deadline, "no collector ran");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let collect = |dir: &Path| {
        let out = Command::new(BIN)
            .args(["collect", "--state-dir"])
            .arg(dir)
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    assert!(collect(&state_dir).starts_with("not due"));
    let fresh = dir.path().join("fresh");
    assert!(collect(&fresh).starts_with("collected 0 agents by age and 0 by count; 0 kept"));
}
