//! Exactly once across a Redis outage, through the real binary and a real
//! `redis-server`: a hook's on-disk store stands in while Redis is down, and
//! it knows what Redis claimed because the claims are mirrored into it
//! (`ledger::mirror`). Skipped with a note when `redis-server` is not
//! installed, unless `SANDBOX_ADVISOR_REQUIRE_REDIS` is set (as in CI).

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

/// One `hook` process (a Windows host, workspace-write) on `url`, with its
/// per-user state (the on-disk store) under `home`: (advised, stderr).
fn hook(home: &Path, url: &str, payload: &Value) -> (bool, String) {
    let mut child = Command::new(BIN)
        .args(["--log", "info", "hook", "--dialect", "claude-code"])
        .args(["--host", "dsh", "--platform", "win32"])
        .args(["--mode", "workspace-write", "--ledger", url])
        .env("XDG_STATE_HOME", home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(payload.to_string().as_bytes()).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    (stdout.contains("additionalContext"), stderr)
}

/// Issue 36 item 9: an agent advised while Redis was up was advised again by
/// the same machine once Redis froze or died. Now it hears the advisory once
/// on this state directory whatever Redis does: frozen, killed, or
/// restarted empty. An agent first seen during the outage is advised from
/// the disk, and not again once Redis is back.
#[cfg(unix)]
#[test]
fn an_agent_is_advised_once_on_one_machine_across_a_redis_outage() {
    let Some(mut redis) = RedisServer::start() else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let url = redis.url();
    let run = |payload: &Value| hook(home.path(), &url, payload);
    let (advised, said) = run(&failure("s1", "t1"));
    assert!(advised, "Redis up: advised once: {said}");
    let (advised, said) = run(&failure("s1", "t2"));
    assert!(!advised, "Redis up: Redis knows: {said}");

    redis.pause();
    let (advised, said) = run(&failure("s1", "t3"));
    redis.resume();
    assert!(said.contains("shared ledger unavailable"), "{said}");
    assert!(!advised, "Redis frozen: the disk knows: {said}");

    redis.kill();
    let (advised, said) = run(&failure("s1", "t4"));
    assert!(said.contains("shared ledger unavailable"), "{said}");
    assert!(!advised, "Redis killed: the disk knows: {said}");
    let (advised, said) = run(&failure("s2", "t1"));
    assert!(advised, "an agent first seen in the outage: {said}");

    redis.restart();
    for (session, call) in [("s1", "t5"), ("s2", "t2")] {
        let (advised, said) = run(&failure(session, call));
        assert!(!said.contains("shared ledger unavailable"), "{said}");
        assert!(
            !advised,
            "Redis restarted empty: the disk knows {session}: {said}"
        );
    }
    let (advised, said) = run(&failure("s3", "t1"));
    assert!(advised, "a new agent, with Redis back: {said}");
}
