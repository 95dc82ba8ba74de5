//! `explain` and `families`.

// Helpers outside #[test] functions are test code too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// The decisions asserted here are the shipped families'.
#![cfg(feature = "all-families")]

mod common;

use common::*;

#[test]
fn a_recognized_message_prints_the_advisory_and_exits_0() {
    let out = run(
        &[
            "explain",
            r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)",
        ],
        "",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    let first = out.stdout.lines().next().unwrap();
    assert_eq!(
        first,
        "acl-provisioning recognizes this and speaks (host win32, mode unknown (no --mode), root none (no --root), tool pwsh)."
    );
    assert!(out.stdout.contains(r#"icacls "D:\ws""#));
    assert!(
        !out.stdout.contains("Also matched:"),
        "no other family matched"
    );
}

#[test]
fn without_a_mode_a_family_that_needs_it_withholds_and_says_how_to_resolve_it() {
    let out = run(&["explain", "PTY shell exited during startup"], "");
    assert_eq!(out.code, 0);
    assert!(
        out.stdout
            .starts_with("pty-startup recognizes this but withholds its advisory")
    );
    assert!(out.stdout.contains(
        "no-policy-service — the sandbox mode is unknown; pass --mode (and --root) to resolve it"
    ));
    let out = run(
        &[
            "explain",
            "--mode",
            "workspace-write",
            "--electron",
            "PTY shell exited during startup",
        ],
        "",
    );
    assert_eq!(out.code, 0);
    assert!(out.stdout.starts_with(
        "pty-startup recognizes this and speaks (host win32, Electron host, mode workspace-write"
    ));
}

#[test]
fn a_success_value_is_explained_with_value() {
    let value = r#"{"kind":"foreground","exitCode":-1073741502,"signal":null,"timedOut":false,"aborted":false,"timeoutMs":120000,"stdout":{"text":"","truncated":false},"stderr":{"text":"","truncated":false},"sandbox":{"mode":"workspace-write","denied":false,"enforcement":"partial"}}"#;
    let out = run(
        &[
            "explain",
            "--mode",
            "workspace-write",
            "--root",
            r"D:\ws",
            "--value",
            value,
        ],
        "",
    );
    assert_eq!(out.code, 0, "{}", out.stdout);
    assert!(
        out.stdout
            .starts_with("native-init recognizes this and speaks")
    );
}

#[test]
fn nothing_recognized_lists_every_family_and_why_then_exits_1() {
    let out = run(
        &[
            "explain",
            "--mode",
            "workspace-write",
            "npm ERR! code ELIFECYCLE",
        ],
        "",
    );
    assert_eq!(out.code, 1);
    let mut lines = out.stdout.lines();
    assert_eq!(
        lines.next().unwrap(),
        "Nothing recognized this (host win32, mode workspace-write, root none (no --root), tool pwsh). The families that looked:"
    );
    let looked: Vec<&str> = lines
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(
        looked,
        [
            "acl-provisioning",
            "acl-aggregate-failure",
            "temp-root-inside-workspace",
            "pty-startup",
            "native-init",
            "cim-wmi-denial",
            "workspace-denial"
        ]
    );
    assert!(
        out.stdout
            .contains("  pty-startup                 not its shape — it looks for ")
    );
}

#[test]
fn an_outranked_family_is_named_with_its_owner() {
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/sessions/cim-wmi.jsonl"
    );
    let post = std::fs::read_to_string(fixture).unwrap();
    let line: serde_json::Value = serde_json::from_str(post.lines().nth(5).unwrap()).unwrap();
    let value = line["result"]["value"].to_string();
    let out = run(
        &[
            "explain",
            "--mode",
            "workspace-write",
            "--root",
            r"D:\ws",
            "--value",
            &value,
        ],
        "",
    );
    assert_eq!(out.code, 0);
    assert!(
        out.stdout
            .starts_with("cim-wmi-denial recognizes this and speaks")
    );
    assert!(out.stdout.ends_with(
        "\nAlso matched:\n  workspace-denial            matches too, but cim-wmi-denial comes first and owns it\n"
    ));
}

#[test]
fn aggregate_members_are_passed_with_member() {
    let out = run(
        &[
            "explain",
            "--member",
            r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)",
            "sandbox-local windows-acl workspace grant failed and its cleanup also failed",
        ],
        "",
    );
    assert_eq!(out.code, 0);
    assert!(
        out.stdout
            .starts_with("acl-aggregate-failure recognizes this and speaks")
    );
}

#[test]
fn explain_usage_errors_exit_2() {
    assert_eq!(run(&["explain"], "").code, 2, "no subject");
    assert_eq!(run(&["explain", "--value", "{not json"], "").code, 2);
    assert_eq!(run(&["explain", "--mode", "full", "x"], "").code, 2);
    assert_eq!(run(&["explain", "--platform", "dos", "x"], "").code, 2);
    assert_eq!(
        run(&["explain", "x", "--value", "{}"], "").code,
        2,
        "both subjects"
    );
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("c.json");
    std::fs::write(&config, r#"{"hreff": "https://example.org"}"#).unwrap();
    let out = run(&["explain", "--config", config.to_str().unwrap(), "x"], "");
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("config key `hreff`"));
}

#[test]
fn families_lists_ids_descriptions_refusals_and_the_fail_fast_family() {
    let out = run(&["families", "--format", "json"], "");
    assert_eq!(out.code, 0);
    let listed: Vec<serde_json::Value> = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(listed.len(), 7);
    let fail_fast: Vec<&str> = listed
        .iter()
        .filter(|f| f["failFast"] == true)
        .map(|f| f["id"].as_str().unwrap())
        .collect();
    assert_eq!(fail_fast, ["acl-provisioning"]);
    for f in &listed {
        assert!(!f["recognizes"].as_str().unwrap().is_empty());
        assert!(!f["refuses"].as_str().unwrap().is_empty());
    }
    let text = run(&["families"], "");
    assert!(
        text.stdout
            .starts_with("7 families compiled in, in precedence order")
    );
    assert!(
        text.stdout
            .contains("\n1. acl-provisioning  [fail-fast]\n   recognizes: ")
    );
    assert!(
        text.stdout
            .contains("3. temp-root-inside-workspace  [pre-flight on win32]\n")
    );
}
