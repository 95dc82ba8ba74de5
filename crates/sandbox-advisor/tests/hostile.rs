//! Text the CLI did not write — agent ids, resolver messages, bad values, file
//! names, a configured root — reaches the terminal only through
//! `advisor_core::quote::escaped` and the host log only as a field through
//! `advisor_core::quote::log_field` (one logfmt value): a newline cannot start
//! a forged line, a space cannot add a field, and an escape sequence cannot
//! reach the terminal.

// Helpers outside #[test] functions are test code too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg(feature = "all-families")]

mod common;

use common::*;

/// The forged log line every hostile value carries, after a newline, with an ESC.
const FORGED_LINE: &str = "2026-12-01T00:00:00Z  WARN sandbox_advisor::advisory: forged";
const HOSTILE: &str = "\n2026-12-01T00:00:00Z  WARN sandbox_advisor::advisory: forged\u{1b}[2J\r";
/// The same, as `escaped` shows it.
const SHOWN: &str = "\\n2026-12-01T00:00:00Z  WARN sandbox_advisor::advisory: forged\\u{1B}[2J\\r";
/// What a hostile file name carries: [`HOSTILE`] itself where the system
/// allows it in a name.
#[cfg(not(windows))]
const HOSTILE_NAME: &str = HOSTILE;
#[cfg(not(windows))]
const SHOWN_NAME: &str = SHOWN;
/// Windows refuses control characters below U+0020 and `:` in a name, so a
/// hostile name there forges its line with the breaks and controls Windows
/// allows: NEL, LINE SEPARATOR and a right-to-left override.
#[cfg(windows)]
const HOSTILE_NAME: &str =
    "\u{85}2026-12-01T00.00.00Z  WARN sandbox_advisor.advisory forged\u{2028}\u{202E}";
#[cfg(windows)]
const SHOWN_NAME: &str =
    "\\u{85}2026-12-01T00.00.00Z  WARN sandbox_advisor.advisory forged\\u{2028}\\u{202E}";
/// The agent id carrying it, as one logfmt field on the host log.
const LOGGED_AGENT: &str =
    "agent=\"a1\\n2026-12-01T00:00:00Z  WARN sandbox_advisor::advisory: forged\\u001b[2J\\r\"";

/// Escaped text inside a quoted logfmt value: each backslash doubled.
fn in_log(escaped: &str) -> String {
    escaped.replace('\\', "\\\\")
}

/// Nothing raw got through: no line starts with the forged text, no ESC, no CR.
fn assert_inert(what: &str, output: &str) {
    assert!(!output.contains('\u{1b}'), "{what}: a raw ESC\n{output}");
    assert!(!output.contains('\r'), "{what}: a raw CR\n{output}");
    for c in ['\u{85}', '\u{2028}', '\u{202E}'] {
        assert!(!output.contains(c), "{what}: a raw {c:?}\n{output}");
    }
    for line in output.lines() {
        assert!(
            !line.starts_with(FORGED_LINE),
            "{what}: a forged line\n{output}"
        );
    }
}

fn json_str(raw: &str) -> String {
    serde_json::to_string(raw).unwrap()
}

/// A session where the hostile text arrives as an agent id (advised and
/// withheld), a resolver's message, and a bad value.
fn hostile_session() -> String {
    let agent = json_str(&format!("a1{HOSTILE}"));
    let message = json_str(&format!("store down{HOSTILE}"));
    let mode = json_str(&format!("full{HOSTILE}"));
    lines(&[
        HOST,
        SESSION,
        MODE,
        &format!(
            r#"{{"type":"post","agent":{agent},"session":"s1","call":"c1","tool":"pwsh","error":{{"message":"PTY shell exited during startup"}}}}"#
        ),
        &format!(
            r#"{{"type":"policy-unavailable","reason":"resolver-error","session":"s2","message":{message}}}"#
        ),
        &format!(r#"{{"type":"session-start","agent":{agent},"session":"s2"}}"#),
        &format!(r#"{{"type":"sandbox-mode","session":"s1","mode":{mode}}}"#),
    ])
}

#[test]
fn hostile_values_in_the_stream_are_escaped_in_text_and_on_the_host_log() {
    let input = hostile_session();
    // (arguments, the stream that is for people, text that must be shown escaped)
    let cases: [(&[&str], &str, &[&str]); 3] = [
        (
            &["replay", "-", "--format", "text"],
            "stdout",
            &[
                &format!("━━ #4 a1{SHOWN} · call c1 (pwsh) → pty-startup"),
                &format!(
                    "#6 withheld temp-root-inside-workspace for a1{SHOWN} (pre-flight): resolver-error — the policy resolver failed: store down{SHOWN}"
                ),
                "#7 invalid line: `sandbox-mode` line: field `mode`: unknown variant `full\\n2026",
            ],
        ),
        (
            &["--log", "debug", "serve"],
            "stderr",
            &[
                LOGGED_AGENT,
                &format!("the policy resolver failed: store down{}", in_log(SHOWN)),
                "invalid line seq=7 error=\"`sandbox-mode` line: field `mode`: unknown variant `full\\n2026",
            ],
        ),
        (
            &["--log", "debug", "replay", "-", "--format", "text"],
            "stderr",
            &[LOGGED_AGENT],
        ),
    ];
    for (args, stream, shown) in cases {
        let out = run(args, input.clone());
        assert_eq!(
            out.code,
            if args[0] == "replay" || args[2] == "replay" {
                1
            } else {
                0
            }
        );
        assert_inert(&format!("{args:?} stdout"), &out.stdout);
        assert_inert(&format!("{args:?} stderr"), &out.stderr);
        let text = if stream == "stdout" {
            &out.stdout
        } else {
            &out.stderr
        };
        for expected in shown {
            assert!(
                text.contains(expected),
                "{args:?}: no {expected:?} in\n{text}"
            );
        }
    }
}

#[test]
fn hostile_file_names_and_fallback_roots_are_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let stem = format!("s{HOSTILE_NAME}");
    let session = dir.path().join(format!("{stem}.jsonl"));
    std::fs::write(&session, lines(&[HOST, SESSION, MODE, PTY_A2])).unwrap();
    let beside = dir.path().join(format!("{stem}.config.json"));
    let root = json_str(&format!("D:\\ws{HOSTILE}"));
    std::fs::write(&beside, format!(r#"{{"fallbackRoot": {root}}}"#)).unwrap();
    let missing = dir.path().join(format!("missing{HOSTILE_NAME}.jsonl"));
    let shown = |p: &std::path::Path| p.to_str().unwrap().replace(HOSTILE_NAME, SHOWN_NAME);

    let text = run(
        &["replay", session.to_str().unwrap(), "--format", "text"],
        "",
    );
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert_inert("header", &text.stdout);
    assert_eq!(
        text.stdout.lines().next().unwrap(),
        format!(
            "replaying {} — config {} (JSON); defaultMode read-only, fail-fast off, fallbackRoot D:\\ws{SHOWN}",
            shown(&session),
            shown(&beside)
        )
    );

    let served = run(
        &[
            "--log",
            "info",
            "serve",
            "--config",
            beside.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(served.code, 0);
    assert_inert("serve's log", &served.stderr);
    assert!(
        served.stderr.contains(&format!(
            "fallbackRoot {}",
            in_log(&format!("D:\\ws{SHOWN}"))
        )),
        "{}",
        served.stderr
    );

    for args in [
        vec!["replay", missing.to_str().unwrap()],
        vec!["replay", "-", "--config", missing.to_str().unwrap()],
        vec!["serve", "--config", missing.to_str().unwrap()],
    ] {
        let out = run(&args, "");
        assert_eq!(out.code, 2);
        assert_inert("usage error", &out.stderr);
        assert!(out.stderr.contains(&shown(&missing)), "{}", out.stderr);
        assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    }
}
