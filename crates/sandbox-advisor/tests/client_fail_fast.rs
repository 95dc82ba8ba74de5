//! The fail-fast budget inside the real clients, from their recorded
//! payloads (`docs/hooks/`): once bubblewrap has failed to start the
//! sandbox `enforceAfter` times for one identical command, the hook answers
//! that command's next `PreToolUse` with a deny, in each client's dialect;
//! a different command still runs. One process per event, as the clients
//! run hooks, sharing the on-disk ledger.
//!
//! Fail-fast denial requires provenance. The hook proves bubblewrap's line by
//! checking the host from outside the sandbox (can a user namespace be
//! made?), so each case runs the hook on the host the recording had: user
//! namespaces unavailable (a user namespace whose `max_user_namespaces` is 0,
//! as `.ci/clients.sh` runs the clients), or an ordinary host, where a
//! command that printed the line (recorded: `control-prints-bwrap-line`,
//! `control-cat-bwrap-line`) is neither advised nor ever refused.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg(feature = "all-families")]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;
use serde_json::Value;

fn recorded(client: &str, file: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/hooks")
        .join(client)
        .join(file);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The host a hook runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum HostLike {
    /// This machine, as it is (it can create user namespaces: see `needs`).
    Ordinary,
    /// A user namespace whose `max_user_namespaces` is 0, as the recordings
    /// of bubblewrap's failure had.
    NoUserNamespaces,
}

/// The precondition of every case: this machine creates user namespaces (CI
/// does, as root, and so does `.ci/clients.sh`'s recording of the clients).
fn needs_user_namespaces() {
    let made = Command::new("unshare")
        .args(["--user", "--map-root-user", "true"])
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        made,
        "these tests need a host where `unshare --user --map-root-user true` succeeds (CI's)"
    );
}

fn hook(on: HostLike, client: &str, state: &Path, config: &Path, payload: &Value) -> Run {
    let args = [
        "hook",
        "--dialect",
        client,
        "--platform",
        "linux",
        "--config",
        config.to_str().unwrap(),
        "--state-dir",
        state.to_str().unwrap(),
    ];
    let mut command = match on {
        HostLike::Ordinary => Command::new(BIN),
        HostLike::NoUserNamespaces => {
            let mut c = Command::new("unshare");
            c.args(["--user", "--map-root-user", "--", "sh", "-c"])
                .arg("echo 0 > /proc/sys/user/max_user_namespaces && exec \"$0\" \"$@\"")
                .arg(BIN);
            c
        }
    };
    command.args(args);
    run_command(&mut command, payload.to_string().into_bytes())
}

/// A fresh ledger and a config with `enforce_after`.
fn setup(enforce_after: u32) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let config = dir.path().join("config.json");
    std::fs::write(
        &config,
        format!(r#"{{"enforceAfter": {enforce_after}, "maxDenials": 3}}"#),
    )
    .unwrap();
    (dir, state, config)
}

/// One client: its recorded `pre` and failing `post` of `echo hello` with
/// no user namespaces, `enforceAfter` 2.
fn check(client: &str, pre: &str, post: &str, deny: &str) {
    needs_user_namespaces();
    let on = HostLike::NoUserNamespaces;
    let (_dir, state, config) = setup(2);
    let (pre, post) = (recorded(client, pre), recorded(client, post));

    let first = hook(on, client, &state, &config, &pre);
    assert_eq!(
        (first.code, first.stdout.as_str()),
        (0, ""),
        "{client}: {}",
        first.stderr
    );
    let advised = hook(on, client, &state, &config, &post);
    assert!(
        advised.stdout.contains("bubblewrap"),
        "{client}: {}",
        advised.stderr
    );
    // The model retries the same command: a new call, the same failure.
    let mut retried = post.clone();
    retried["tool_use_id"] = "retry-1".into();
    let again = hook(on, client, &state, &config, &retried);
    assert_eq!(again.stdout, "", "{client}: once per agent");

    let mut third = pre.clone();
    third["tool_use_id"] = "retry-2".into();
    let refused = hook(on, client, &state, &config, &third);
    assert_eq!(refused.code, 0, "{client}: {}", refused.stderr);
    let answer: Value = serde_json::from_str(&refused.stdout).unwrap_or_else(|e| {
        panic!(
            "{client}: no deny after two failures ({e}): {}",
            refused.stderr
        )
    });
    let out = &answer["hookSpecificOutput"];
    assert_eq!(out["permissionDecision"], deny, "{client}: {answer}");
    let reason = out["permissionDecisionReason"].as_str().unwrap();
    assert!(
        reason.contains("refused this call before it ran"),
        "{reason}"
    );
    assert!(
        refused.stderr.contains("family=bwrap-cannot-start"),
        "{}",
        refused.stderr
    );

    // Another command is not the identical call: it runs.
    let mut other = pre.clone();
    other["tool_input"]["command"] = "ls".into();
    other["tool_use_id"] = "another-call".into();
    let runs = hook(on, client, &state, &config, &other);
    assert_eq!(
        (runs.code, runs.stdout.as_str()),
        (0, ""),
        "{client}: {}",
        runs.stderr
    );
}

#[test]
fn claude_code_denies_the_identical_call_after_bwrap_failed_twice() {
    check(
        "claude-code",
        "sandbox-no-userns.PreToolUse.json",
        "sandbox-no-userns.PostToolUseFailure.json",
        "deny",
    );
}

#[test]
fn codex_denies_the_identical_call_after_bwrap_failed_twice() {
    check(
        "codex",
        "no-userns.PreToolUse.json",
        "no-userns.PostToolUse.json",
        "deny",
    );
}

/// A command that printed bubblewrap's line, on a host that can create user
/// namespaces, with `enforceAfter` 1: it fails, is retried and fails again;
/// nothing is advised and the identical call is never refused (issue 36: on
/// the old main it was advised, told to stop, and then denied twice).
fn printed_line_never_denies(client: &str, pre: &str, post: &str) {
    needs_user_namespaces();
    let on = HostLike::Ordinary;
    let (_dir, state, config) = setup(1);
    let (pre, post) = (recorded(client, pre), recorded(client, post));
    for attempt in 0..3 {
        let mut pre = pre.clone();
        pre["tool_use_id"] = format!("call-{attempt}").into();
        let before = hook(on, client, &state, &config, &pre);
        assert_eq!(
            (before.code, before.stdout.as_str()),
            (0, ""),
            "{client}, attempt {attempt}: refused a call whose failure was never proven: {}",
            before.stderr
        );
        let mut post = post.clone();
        post["tool_use_id"] = format!("call-{attempt}").into();
        let after = hook(on, client, &state, &config, &post);
        assert_eq!(
            (after.code, after.stdout.as_str()),
            (0, ""),
            "{client}, attempt {attempt}: advised a line the command printed: {}",
            after.stderr
        );
    }
}

#[test]
fn claude_code_never_denies_a_test_that_printed_the_line() {
    printed_line_never_denies(
        "claude-code",
        "control-prints-bwrap-line.PreToolUse.json",
        "control-prints-bwrap-line.PostToolUseFailure.json",
    );
}

#[test]
fn codex_never_denies_a_cat_of_the_line() {
    printed_line_never_denies(
        "codex",
        "control-cat-bwrap-line.PreToolUse.json",
        "control-cat-bwrap-line.PostToolUse.json",
    );
}

#[test]
fn codex_never_denies_a_test_that_printed_the_line() {
    printed_line_never_denies(
        "codex",
        "control-prints-bwrap-line.PreToolUse.json",
        "control-prints-bwrap-line.PostToolUse.json",
    );
}
