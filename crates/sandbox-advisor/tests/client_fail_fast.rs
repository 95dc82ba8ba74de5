//! The fail-fast budget inside the real clients, from their recorded
//! payloads (`docs/hooks/`): once bubblewrap has failed to start the
//! sandbox `enforceAfter` times for one identical command, the hook answers
//! that command's next `PreToolUse` with a deny, in each client's dialect;
//! a different command still runs. One process per event, as the clients
//! run hooks, sharing the on-disk ledger.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg(feature = "all-families")]

mod common;

use std::path::{Path, PathBuf};

use common::*;
use serde_json::Value;

fn recorded(client: &str, file: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/hooks")
        .join(client)
        .join(file);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn hook(client: &str, state: &Path, config: &Path, payload: &Value) -> Run {
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
    run(&args, payload.to_string().into_bytes())
}

/// One client: its recorded `pre` and failing `post` of `echo hello` with
/// no user namespaces, `enforceAfter` 2.
fn check(client: &str, pre: &str, post: &str, deny: &str) {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let config = dir.path().join("config.json");
    std::fs::write(&config, r#"{"enforceAfter": 2, "maxDenials": 3}"#).unwrap();
    let (pre, post) = (recorded(client, pre), recorded(client, post));

    let first = hook(client, &state, &config, &pre);
    assert_eq!(
        (first.code, first.stdout.as_str()),
        (0, ""),
        "{client}: {}",
        first.stderr
    );
    let advised = hook(client, &state, &config, &post);
    assert!(
        advised.stdout.contains("bubblewrap"),
        "{client}: {}",
        advised.stderr
    );
    // The model retries the same command: a new call, the same failure.
    let mut retried = post.clone();
    retried["tool_use_id"] = "retry-1".into();
    let again = hook(client, &state, &config, &retried);
    assert_eq!(again.stdout, "", "{client}: once per agent");

    let mut third = pre.clone();
    third["tool_use_id"] = "retry-2".into();
    let refused = hook(client, &state, &config, &third);
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
    let runs = hook(client, &state, &config, &other);
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
