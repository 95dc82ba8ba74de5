//! Payload leniency (issue 23, item 6): a member nested past the depth limit
//! is left out, not fatal, in `hook` (both dialects) and in `serve`, with a
//! note on the host log; a hook payload's leading byte-order mark is skipped.
//! What still refuses: the member that carries the failure text itself, and
//! text that is not JSON. One helper, [`check`], runs every case.

// Helpers outside #[test] functions are test code too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg(feature = "all-families")]

mod common;

use std::time::{Duration, Instant};

use common::*;

const ACL: &str = r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\\ws)";
const HOOK: [&str; 7] = [
    "--log",
    "info",
    "hook",
    "--platform",
    "win32",
    "--mode",
    "workspace-write",
];

/// `tool_input` / `args` of `levels` levels: an object whose `data` holds the rest.
fn deep(levels: usize) -> String {
    let n = levels - 1;
    format!(
        r#"{{"command":"Get-Date","data":{}0{}}}"#,
        "[".repeat(n),
        "]".repeat(n)
    )
}

/// `n` arrays in one another around a string.
fn nested(n: usize, inner: &str) -> String {
    format!("{}\"{inner}\"{}", "[".repeat(n), "]".repeat(n))
}

/// Claude Code's PostToolUseFailure for the ACL failure, with `tool_input` and `error` given.
fn claude_failure(input: &str, error: &str) -> String {
    format!(
        r#"{{"session_id":"s1","cwd":"D:\\ws","hook_event_name":"PostToolUseFailure","tool_name":"pwsh","tool_input":{input},"tool_use_id":"toolu_01","error":{error}}}"#
    )
}

/// Codex's PostToolUse with the harness's rendering of the ACL failure.
fn codex_post(input: &str, response: &str) -> String {
    format!(
        r#"{{"session_id":"s1","cwd":"D:\\ws","hook_event_name":"PostToolUse","tool_name":"pwsh","tool_input":{input},"tool_use_id":"call_01","tool_response":{response}}}"#
    )
}

/// A `serve` stream ending in a `post` line with `args` and `error` given.
fn serve_post(args: &str, error: &str) -> String {
    lines(&[
        HOST,
        SESSION,
        MODE,
        &format!(
            r#"{{"type":"post","agent":"a1","session":"s1","call":"c1","tool":"pwsh","args":{args},"error":{error}}}"#
        ),
    ])
}

fn bom(text: &str) -> Vec<u8> {
    [b"\xEF\xBB\xBF".as_slice(), text.as_bytes()].concat()
}

struct Case {
    about: &'static str,
    args: Vec<&'static str>,
    stdin: Vec<u8>,
    exit: i32,
    /// The families advised (from the host log).
    advised: &'static [&'static str],
    /// What the host log's note on the member left out says, if one is due.
    note: Option<&'static str>,
    /// What the one error (a stderr line, or an output line's `error`) names.
    error: Option<&'static str>,
}

/// The value of `key=` on a host-log line.
fn field<'l>(line: &'l str, key: &str) -> Option<&'l str> {
    line.split_whitespace()
        .find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
        .map(|v| v.trim_matches('"'))
}

fn check(case: &Case) {
    let at = case.about;
    let started = Instant::now();
    let run = run(&case.args, case.stdin.clone());
    let took = started.elapsed();
    assert_eq!(run.code, case.exit, "{at}: exit\n{:.2000}", run.stderr);
    assert!(took < Duration::from_secs(10), "{at}: {took:?}");
    let (log, plain): (Vec<&str>, Vec<&str>) = run
        .stderr
        .lines()
        .partition(|l| l.contains(" sandbox_advisor::"));
    let advised: Vec<&str> = log
        .iter()
        .filter(|l| l.contains("sandbox_advisor::advisory"))
        .filter_map(|l| field(l, "family"))
        .collect();
    assert_eq!(advised, case.advised, "{at}: advised\n{:.2000}", run.stderr);
    let notes: Vec<&&str> = log
        .iter()
        .filter(|l| l.contains("sandbox_advisor::protocol") && l.contains("left out"))
        .collect();
    match case.note {
        Some(says) => {
            assert_eq!(notes.len(), 1, "{at}: one note\n{:.2000}", run.stderr);
            assert!(notes[0].contains(says), "{at}: {}", notes[0]);
            assert!(notes[0].len() < 1000, "{at}: the note is bounded");
        }
        None => assert!(notes.is_empty(), "{at}: {notes:?}"),
    }
    let mut errors: Vec<String> = plain.iter().map(|l| (*l).to_owned()).collect();
    if case.args.contains(&"serve") {
        errors.extend(
            run.json()
                .iter()
                .filter_map(|l| l.get("error").map(|e| e.as_str().unwrap().to_owned())),
        );
    }
    match case.error {
        Some(names) => {
            assert_eq!(errors.len(), 1, "{at}: one error: {errors:?}");
            assert!(errors[0].contains(names), "{at}: {}", errors[0]);
            assert!(!errors[0].contains('\n') && errors[0].chars().count() <= 301);
        }
        None => assert!(errors.is_empty(), "{at}: {errors:?}"),
    }
}

fn hook(dialect: &'static str) -> Vec<&'static str> {
    let mut args = HOOK.to_vec();
    args.extend(["--dialect", dialect, "--host", "dsh", "--ledger", "memory"]);
    args
}

const SERVE: [&str; 3] = ["--log", "info", "serve"];
const ACL_ADVISED: &[&str] = &["acl-provisioning"];
const NOTE_129: &str = "1 member of `tool_input` nested deeper than 128 levels left out; the first, at level 129: tool_input.data";

#[test]
fn a_member_too_deep_is_left_out_and_the_event_is_decided() {
    let acl = format!("\"{ACL}\"");
    let cases = [
        Case {
            about: "claude-code: tool_input 128 levels deep is read whole",
            args: hook("claude-code"),
            stdin: claude_failure(&deep(127), &acl).into_bytes(),
            exit: 0,
            advised: ACL_ADVISED,
            note: None,
            error: None,
        },
        Case {
            about: "claude-code: tool_input 129 levels deep",
            args: hook("claude-code"),
            stdin: claude_failure(&deep(128), &acl).into_bytes(),
            exit: 0,
            advised: ACL_ADVISED,
            note: Some(NOTE_129),
            error: None,
        },
        Case {
            about: "claude-code: tool_input 100,000 levels deep",
            args: hook("claude-code"),
            stdin: claude_failure(&deep(100_000), &acl).into_bytes(),
            exit: 0,
            advised: ACL_ADVISED,
            note: Some(NOTE_129),
            error: None,
        },
        Case {
            about: "claude-code: a leading byte-order mark",
            args: hook("claude-code"),
            stdin: bom(&claude_failure(r#"{"command":"Get-Date"}"#, &acl)),
            exit: 0,
            advised: ACL_ADVISED,
            note: None,
            error: None,
        },
        Case {
            about: "claude-code: a byte-order mark and 100,000 levels",
            args: hook("claude-code"),
            stdin: bom(&claude_failure(&deep(100_000), &acl)),
            exit: 0,
            advised: ACL_ADVISED,
            note: Some(NOTE_129),
            error: None,
        },
        Case {
            about: "codex: tool_input 129 levels deep",
            args: hook("codex"),
            stdin: codex_post(&deep(128), &format!("\"Error: {ACL}\"")).into_bytes(),
            exit: 0,
            advised: ACL_ADVISED,
            note: Some(NOTE_129),
            error: None,
        },
        Case {
            about: "codex: a byte-order mark and 100,000 levels",
            args: hook("codex"),
            stdin: bom(&codex_post(&deep(100_000), &format!("\"Error: {ACL}\""))),
            exit: 0,
            advised: ACL_ADVISED,
            note: Some(NOTE_129),
            error: None,
        },
        Case {
            about: "serve: args 129 levels deep",
            args: SERVE.to_vec(),
            stdin: serve_post(&deep(128), &format!(r#"{{"message":"{ACL}"}}"#)).into_bytes(),
            exit: 0,
            advised: ACL_ADVISED,
            note: Some(
                "1 member of `args` nested deeper than 128 levels left out; the first, at level 129: args.data",
            ),
            error: None,
        },
        Case {
            about: "serve: args 100,000 levels deep, twice over",
            args: SERVE.to_vec(),
            stdin: serve_post(
                &format!(
                    r#"{{"command":"Get-Date","a":{},"b":{}}}"#,
                    nested(100_000, "x"),
                    nested(200, "y")
                ),
                &format!(r#"{{"message":"{ACL}"}}"#),
            )
            .into_bytes(),
            exit: 0,
            advised: ACL_ADVISED,
            note: Some(
                "2 members of `args` nested deeper than 128 levels left out; the first, at level 129: args.a[0]",
            ),
            error: None,
        },
    ];
    for case in &cases {
        check(case);
    }
}

/// The member that carries the failure text is not an `args`: too deep a
/// value there is the wrong type, refused (or, for a response, not a
/// failure), as any other non-string is. Text that is not JSON is refused.
#[test]
fn the_failure_text_too_deep_and_broken_json_still_refuse() {
    let input = r#"{"command":"Get-Date"}"#;
    let cases = [
        Case {
            about: "claude-code: error nested 100,000 deep",
            args: hook("claude-code"),
            stdin: claude_failure(input, &nested(100_000, ACL)).into_bytes(),
            exit: 1,
            advised: &[],
            note: None,
            error: Some("field `error` must be a string, not an array"),
        },
        Case {
            about: "codex: tool_response nested 100,000 deep is a success, and says nothing",
            args: hook("codex"),
            stdin: codex_post(input, &nested(100_000, &format!("Error: {ACL}"))).into_bytes(),
            exit: 0,
            advised: &[],
            note: None,
            error: None,
        },
        Case {
            about: "serve: error.message nested 100,000 deep",
            args: SERVE.to_vec(),
            stdin: serve_post(input, &format!(r#"{{"message":{}}}"#, nested(100_000, ACL)))
                .into_bytes(),
            exit: 0,
            advised: &[],
            note: None,
            error: Some("`post` line: field `error.message`"),
        },
        Case {
            about: "serve: error nested 100,000 deep",
            args: SERVE.to_vec(),
            stdin: serve_post(input, &nested(100_000, ACL)).into_bytes(),
            exit: 0,
            advised: &[],
            note: None,
            error: Some("`post` line: field `error[0]`: invalid type: sequence"),
        },
        Case {
            about: "claude-code: not JSON",
            args: hook("claude-code"),
            stdin: bom(&claude_failure(&deep(100_000), &format!("\"{ACL}\""))
                .replace("\"error\":", "\"error\"")),
            exit: 1,
            advised: &[],
            note: None,
            error: Some("not valid JSON: expected `:` at line 1 column"),
        },
        Case {
            about: "claude-code: cut short inside the deep member",
            args: hook("claude-code"),
            stdin: claude_failure(&deep(100_000), "").as_bytes()[..150_000].to_vec(),
            exit: 1,
            advised: &[],
            note: None,
            error: Some("not valid JSON: "),
        },
        Case {
            about: "serve: not JSON",
            args: SERVE.to_vec(),
            stdin: serve_post(&deep(100_000), "{").into_bytes(),
            exit: 0,
            advised: &[],
            note: None,
            error: Some("the line is not valid JSON: "),
        },
        Case {
            about: "claude-code: UTF-16 is named",
            args: hook("claude-code"),
            stdin: claude_failure(input, &format!("\"{ACL}\""))
                .encode_utf16()
                .flat_map(u16::to_le_bytes)
                .collect(),
            exit: 1,
            advised: &[],
            note: None,
            error: Some("UTF-16 (little-endian, no byte-order mark); a hook payload is UTF-8"),
        },
    ];
    for case in &cases {
        check(case);
    }
}
