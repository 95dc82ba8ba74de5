//! `hook` and `families --dialect` on the command line: the limits, the exit
//! codes, the family listing, and the README's mounts. The payload cases
//! themselves are data, in `tests/hooks/` (`tests/hook.rs`).

// Helpers outside #[test] functions are test code too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// The families listed are the shipped ones.
#![cfg(feature = "all-families")]

mod common;

use advisor_core::Anchors;
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

/// `families --dialect` is derived from the registry's anchors, in both formats.
#[test]
fn families_through_a_hook_follow_the_anchors() {
    let registry = registry();
    for dialect in ["claude-code", "codex"] {
        let run = run(&["families", "--dialect", dialect, "--format", "json"], "");
        assert_eq!(run.code, 0, "{}", run.stderr);
        let listing: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        assert_eq!(listing["dialect"], dialect);
        let listed = listing["families"].as_array().unwrap();
        assert_eq!(listed.len(), registry.families().count());
        for (family, row) in registry.families().zip(listed) {
            assert_eq!(row["id"], family.id().as_str());
            let expected = match family.anchors() {
                Anchors::FailureText { .. } => "works",
                Anchors::ForegroundRun { .. } => "silent",
                Anchors::ForegroundRunOrFailureText { .. } => "works",
                Anchors::Always => "unknown",
            };
            assert_eq!(row["textOnly"], expected, "{dialect}: {row}");
        }
        let text = run_text(&["families", "--dialect", dialect]);
        for (family, row) in registry.families().zip(listed) {
            let verdict = row["textOnly"].as_str().unwrap();
            assert!(
                text.contains(&format!("{}  {verdict}\n", family.id())),
                "{text}"
            );
        }
    }
    // Only Claude Code has a failure event to carry the text.
    let claude = run_text(&["families", "--dialect", "claude-code"]);
    let codex = run_text(&["families", "--dialect", "codex"]);
    assert!(claude.contains("PostToolUseFailure `error`"), "{claude}");
    assert!(!codex.contains("PostToolUseFailure"), "{codex}");
}

fn run_text(args: &[&str]) -> String {
    let run = run(args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    run.stdout
}

/// The README's mounts are valid JSON, name only events their dialect has,
/// and each command answers a payload of its event.
#[test]
fn the_readme_mounts_run() {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).unwrap();
    let section = readme
        .split("\n## Mounting as a hook\n")
        .nth(1)
        .expect("README.md has a `## Mounting as a hook` section");
    let section = section.split("\n## ").next().unwrap();
    let blocks: Vec<&str> = section
        .split("```json\n")
        .skip(1)
        .map(|b| b.split("```").next().unwrap())
        .collect();
    assert_eq!(blocks.len(), 2, "a Claude Code block and a Codex block");
    let mut dialects: Vec<String> = Vec::new();
    for block in blocks {
        let config: serde_json::Value = serde_json::from_str(block).unwrap();
        for (event, groups) in config["hooks"].as_object().unwrap() {
            for hook in groups[0]["hooks"].as_array().unwrap() {
                let words: Vec<&str> = hook["command"].as_str().unwrap().split(' ').collect();
                assert_eq!(words[..2], ["sandbox-advisor", "hook"]);
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
