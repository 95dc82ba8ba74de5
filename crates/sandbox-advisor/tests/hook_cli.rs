//! `hook` and `families --dialect` on the command line: the limits, the exit
//! codes, the family listing, and the mounts docs/hosts-and-families.md shows. The payload cases
//! themselves are data, in `tests/hooks/` (`tests/hook.rs`).

// Helpers outside #[test] functions are test code too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// The families listed are the shipped ones.
#![cfg(feature = "all-families")]

mod common;

use advisor_core::{Anchors, Host};
use common::*;
use sandbox_advisor::hook::reference::{CLAUDE_CODE, CODEX};

#[test]
fn a_payload_over_the_limit_is_malformed_and_unread() {
    let filler = "x".repeat(8 * 1024 * 1024);
    let payload =
        format!(r#"{{"session_id":"s1","hook_event_name":"PreToolUse","pad":"{filler}"}}"#);
    let run = run(&["hook", "--dialect", "codex"], payload);
    assert_eq!((run.code, run.stdout.as_str()), (1, ""));
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(run.stderr.contains("8 MiB"), "{}", run.stderr);
}

/// Exit 2 blocks the tool call in both dialects: no error of `hook` is 2.
#[test]
fn hook_never_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("advisor.json");
    std::fs::write(&bad, r#"{"maxDenial": 2}"#).unwrap();
    let bad = bad.to_str().unwrap();
    for args in [
        vec!["hook", "--dialect", "klingon"],
        vec!["hook"],
        vec![
            "--locale",
            "en",
            "hook",
            "--dialect",
            "codex",
            "--platform",
            "beos",
        ],
        vec!["hook", "--dialect", "codex", "--mode", "full-access"],
        vec!["hook", "--dialect", "codex", "--config", bad],
        vec![
            "hook",
            "--dialect",
            "codex",
            "--config",
            "/nonexistent/advisor.toml",
        ],
    ] {
        let run = run(&args, "{}");
        assert_eq!(run.code, 1, "{args:?}\n{}", run.stderr);
        assert_eq!(run.stdout, "", "{args:?}");
    }
    // Other commands keep their usage exit.
    assert_eq!(run(&["explain", "--platform", "beos", "x"], "").code, 2);
}

/// `families --dialect` is derived from the registry's anchors and the host,
/// in both formats: only the host's families are listed, and a failure's text
/// reaches a family only where the payload marks a failure.
#[test]
fn families_through_a_hook_follow_the_anchors_and_the_host() {
    let registry = registry();
    let cases = [
        ("claude-code", None, Host::ClaudeCode),
        ("codex", None, Host::Codex),
        ("claude-code", Some("dsh"), Host::Dsh),
        ("codex", Some("dsh"), Host::Dsh),
    ];
    for (dialect, host_flag, host) in cases {
        let mut args = vec!["families", "--dialect", dialect];
        if let Some(flag) = host_flag {
            args.extend(["--host", flag]);
        }
        let run = run(&[&args[..], &["--format", "json"]].concat(), "");
        assert_eq!(run.code, 0, "{}", run.stderr);
        let listing: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        assert_eq!(listing["dialect"], dialect);
        assert_eq!(listing["host"], host.as_str());
        let listed = listing["families"].as_array().unwrap();
        let of_host: Vec<_> = registry.families_on(host).collect();
        assert_eq!(listed.len(), of_host.len(), "{dialect} {host}");
        // A failure is marked by Claude Code's failure event, or by the bridges' envelope.
        let failure_text = if dialect == "claude-code" || host == Host::Dsh {
            "works"
        } else {
            "silent"
        };
        for (family, row) in of_host.iter().zip(listed) {
            assert_eq!(row["id"], family.id().as_str());
            let expected = match family.anchors() {
                Anchors::FailureText { .. } => failure_text,
                Anchors::OutputText { .. } => "works",
                Anchors::ForegroundRun { .. } => "silent",
                Anchors::ForegroundRunOrFailureText { .. } => failure_text,
                Anchors::Always => "unknown",
            };
            assert_eq!(row["textOnly"], expected, "{dialect} {host}: {row}");
        }
        let text = run_text(&args);
        for (family, row) in of_host.iter().zip(listed) {
            let verdict = row["textOnly"].as_str().unwrap();
            assert!(
                text.contains(&format!("{}  {verdict}\n", family.id())),
                "{text}"
            );
        }
    }
    // Only Claude Code has a failure event to carry the text; only the
    // bridges mark a failed call in `tool_response`.
    let claude = run_text(&["families", "--dialect", "claude-code"]);
    let codex = run_text(&["families", "--dialect", "codex", "--host", "dsh"]);
    assert!(claude.contains("PostToolUseFailure `error`"), "{claude}");
    assert!(!claude.contains("begins with `Error:`"), "{claude}");
    assert!(!codex.contains("PostToolUseFailure"), "{codex}");
    assert!(codex.contains("begins with `Error:`"), "{codex}");
}

/// `families --host` lists exactly the families that declare the host.
#[test]
fn families_by_host_are_the_families_that_declare_it() {
    let registry = registry();
    for host in Host::ALL {
        let run = run(
            &["families", "--host", host.as_str(), "--format", "json"],
            "",
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        let listed: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        let ids: Vec<&str> = listed
            .as_array()
            .unwrap()
            .iter()
            .map(|row| row["id"].as_str().unwrap())
            .collect();
        let expected: Vec<&str> = registry
            .families_on(host)
            .map(|f| f.id().as_str())
            .collect();
        assert_eq!(ids, expected, "{host}");
        for row in listed.as_array().unwrap() {
            assert!(
                row["hosts"]
                    .as_array()
                    .unwrap()
                    .contains(&host.as_str().into()),
                "{row}"
            );
        }
    }
    let dsh = run_text(&["families", "--host", "dsh"]);
    assert!(
        dsh.contains("know the DeepSeek harness's failures"),
        "{dsh}"
    );
}

fn run_text(args: &[&str]) -> String {
    let run = run(args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    run.stdout
}

/// The mounts docs/hosts-and-families.md shows are what `hook install` writes
/// (for the binary it names), name only events their dialect has, and each command
/// answers a payload of its event.
#[test]
fn the_documented_mounts_are_what_hook_install_writes_and_they_run() {
    const SHOWN_BIN: &str = "/home/you/.cargo/bin/sandbox-advisor";
    let doc = std::fs::read_to_string(repo_root().join("docs/hosts-and-families.md")).unwrap();
    let section = doc
        .split("\n## Claude Code and Codex: a hook\n")
        .nth(1)
        .expect("docs/hosts-and-families.md has a `## Claude Code and Codex: a hook` section");
    let section = section.split("\n## ").next().unwrap();
    let blocks: Vec<&str> = section
        .split("```json\n")
        .skip(1)
        .map(|b| b.split("```").next().unwrap())
        .collect();
    assert_eq!(blocks.len(), 2, "a Claude Code block and a Codex block");
    let mut dialects: Vec<String> = Vec::new();
    for (block, (client, written)) in blocks.into_iter().zip([
        ("claude-code", ".claude/settings.json"),
        ("codex", ".codex/hooks.json"),
    ]) {
        // The docs show a Unix install; on Windows the same path is written
        // as install writes it there (common::written_bin).
        let block = block.replace(SHOWN_BIN, &written_bin(SHOWN_BIN));
        let config: serde_json::Value = serde_json::from_str(&block).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().to_str().unwrap();
        let args = [
            "hook",
            "install",
            "--client",
            client,
            "--project",
            project,
            "--bin",
            SHOWN_BIN,
        ];
        let install = run(
            &[
                &args[..],
                &["--mode", "workspace-write", "--codex", "/nonexistent"],
            ]
            .concat(),
            "",
        );
        assert_eq!(install.code, 0, "{}", install.stderr);
        let file: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.path().join(written)).unwrap())
                .unwrap();
        assert_eq!(
            file, config,
            "docs/hosts-and-families.md's {client} block is not what hook install writes"
        );
        for (event, groups) in config["hooks"].as_object().unwrap() {
            for hook in groups[0]["hooks"].as_array().unwrap() {
                let words: Vec<&str> = hook["command"].as_str().unwrap().split(' ').collect();
                assert_eq!(words[..2], [written_bin(SHOWN_BIN).as_str(), "hook"]);
                let dialect = words[words.iter().position(|w| *w == "--dialect").unwrap() + 1];
                let reference = [&CLAUDE_CODE, &CODEX]
                    .into_iter()
                    .find(|r| r.dialect == dialect)
                    .unwrap();
                let kind = reference
                    .event(event)
                    .unwrap_or_else(|| panic!("{dialect}: {event}"));
                let mut payload = serde_json::json!({
                    "session_id": "s1", "cwd": "/ws", "hook_event_name": event,
                    "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "t1",
                });
                match kind.name {
                    "PostToolUse" => payload["tool_response"] = "a\nb".into(),
                    "PostToolUseFailure" => payload["error"] = "exit 1".into(),
                    _ => {}
                }
                let run = run(&words[1..], payload.to_string());
                assert_eq!(
                    (run.code, run.stdout.as_str()),
                    (0, ""),
                    "{words:?}: {}",
                    run.stderr
                );
                dialects.push(dialect.to_owned());
            }
        }
    }
    dialects.dedup();
    assert_eq!(dialects, ["claude-code", "codex"]);
}
