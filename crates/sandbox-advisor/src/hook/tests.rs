#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use advisor_core::{Failure, Host, Outcome, Success};
use serde_json::{Value, json};

use super::payload::{self, FAILURE_ENVELOPE, Malformed, Payload};
use super::reference::{CLAUDE_CODE, CODEX, EventKind, READ_ALWAYS, Reference};

fn parse(dialect: &'static Reference, payload: &Value) -> Result<Payload, Malformed> {
    payload::parse(dialect, Host::Dsh, payload.to_string().as_bytes())
}

fn post(response: Value) -> Value {
    json!({
        "session_id": "s1", "cwd": "D:\\ws", "hook_event_name": "PostToolUse",
        "tool_name": "pwsh", "tool_input": {"command": "Get-Date"}, "tool_use_id": "t1",
        "tool_response": response,
    })
}

/// The fields the parser reads are fields the reference documents for the
/// event it reads them on.
#[test]
fn reads_only_documented_fields() {
    for dialect in [&CLAUDE_CODE, &CODEX] {
        for event in dialect.events {
            let mut read = READ_ALWAYS.to_vec();
            match event.kind {
                EventKind::Pre => {}
                EventKind::Post => read.push("tool_response"),
                EventKind::PostFailure => read.push("error"),
            }
            for field in read {
                assert!(
                    event.input.contains(&field),
                    "{} {}: {field}",
                    dialect.dialect,
                    event.name
                );
            }
        }
    }
}

/// A `tool_response` is text at most, and never the producer's value.
#[test]
fn what_a_response_may_say() {
    let failure = |message: &str, content: &str| {
        Outcome::Failure(Failure {
            message: message.into(),
            content: content.into(),
            members: Vec::new(),
            code: None,
        })
    };
    let success = |content: &str| {
        Outcome::Success(Success {
            value: Value::Null,
            content: content.into(),
        })
    };
    let foreground = json!({
        "kind": "foreground", "exitCode": -1073741502,
        "stdout": {"text": "", "truncated": false}, "stderr": {"text": "", "truncated": false},
        "sandbox": {"mode": "workspace-write", "denied": true},
    });
    for (response, outcome) in [
        (
            json!("Error: PTY shell exited during startup"),
            failure(
                "PTY shell exited during startup",
                "Error: PTY shell exited during startup",
            ),
        ),
        (json!("Error: "), failure("", "Error: ")),
        (json!("error: x"), success("error: x")),
        (json!(" Error: x"), success(" Error: x")),
        (
            json!("(no output)\n[exit code: -1073741502]"),
            success("(no output)\n[exit code: -1073741502]"),
        ),
        (foreground, success("")),
        (
            json!({"stdout": "a", "stderr": "", "interrupted": false}),
            success(""),
        ),
        (json!([1, 2]), success("")),
        (json!(null), success("")),
        (json!(7), success("")),
    ] {
        for dialect in [&CLAUDE_CODE, &CODEX] {
            let read = parse(dialect, &post(response.clone())).unwrap();
            assert_eq!(read.outcome.as_ref(), Some(&outcome), "{response}");
        }
    }
    let mut failed = post(json!(null));
    failed["hook_event_name"] = json!("PostToolUseFailure");
    failed["error"] = json!("Command exited with non-zero status code 1");
    let read = parse(&CLAUDE_CODE, &failed).unwrap();
    assert_eq!(
        read.outcome,
        Some(failure(
            "Command exited with non-zero status code 1",
            &format!("{FAILURE_ENVELOPE}Command exited with non-zero status code 1")
        ))
    );
    assert!(parse(&CODEX, &failed).is_err());
}

/// In the clients themselves a `tool_response` is a command's output, with
/// no mark of failure: Codex's bare string, Claude Code's `stdout`/`stderr`.
/// Nothing there reads as a failure, and `Error: ` is only output.
#[test]
fn what_a_clients_response_says() {
    let success = |content: &str| {
        Some(Outcome::Success(Success {
            value: Value::Null,
            content: content.into(),
        }))
    };
    let cases = [
        (Host::Codex, json!("Error: x"), success("Error: x")),
        (
            Host::Codex,
            json!(
                "fatal: Unable to create '/ws/.git/index.lock': Read-only file system
"
            ),
            success(
                "fatal: Unable to create '/ws/.git/index.lock': Read-only file system
",
            ),
        ),
        (
            Host::ClaudeCode,
            json!({"stdout": "out", "stderr": "err", "interrupted": false, "isImage": false}),
            success("out\nerr"),
        ),
        (
            Host::ClaudeCode,
            json!({"stdout": "", "stderr": "err"}),
            success("err"),
        ),
        (Host::ClaudeCode, json!({"stdout": "out"}), success("out")),
        (
            Host::ClaudeCode,
            json!({"file": {"content": "x"}}),
            success(""),
        ),
        (Host::ClaudeCode, json!("Error: y"), success("Error: y")),
    ];
    for (host, response, outcome) in cases {
        for dialect in [&CLAUDE_CODE, &CODEX] {
            let text = post(response.clone()).to_string();
            let read = payload::parse(dialect, host, text.as_bytes()).unwrap();
            assert_eq!(read.outcome, outcome, "{host} {response}");
        }
    }
    // Claude Code's own field: the length of a Bash success's `stderr`,
    // which ends the text; no other host, tool or carrier has one.
    let tail = |host, tool: &str, response: Value| {
        let mut payload = post(response);
        payload["tool_name"] = tool.into();
        let text = payload.to_string();
        payload::parse(&CLAUDE_CODE, host, text.as_bytes())
            .unwrap()
            .client_tail
    };
    let streams = json!({"stdout": "out", "stderr": "err!"});
    assert_eq!(tail(Host::ClaudeCode, "Bash", streams.clone()), Some(4));
    assert_eq!(
        tail(Host::ClaudeCode, "Bash", json!({"stdout": "out"})),
        Some(0)
    );
    assert_eq!(tail(Host::ClaudeCode, "mcp__x__run", streams.clone()), None);
    assert_eq!(tail(Host::Codex, "Bash", streams), None);
    assert_eq!(tail(Host::ClaudeCode, "Bash", json!("text")), None);
    let wrong = post(json!({"stdout": 7})).to_string();
    let e = payload::parse(&CLAUDE_CODE, Host::ClaudeCode, wrong.as_bytes()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "field `tool_response.stdout` must be a string, not a number"
    );
}

#[test]
fn identities() {
    let mut p = post(json!("ok"));
    let read = parse(&CODEX, &p).unwrap();
    assert_eq!((read.agent.as_str(), read.session.as_str()), ("s1", "s1"));
    assert_eq!(read.call.as_str(), "t1");
    assert_eq!(read.cwd.as_deref(), Some("D:\\ws"));
    p["agent_id"] = json!("sub");
    assert_eq!(parse(&CLAUDE_CODE, &p).unwrap().agent.as_str(), "s1/sub");
    p["agent_id"] = json!(null);
    p["tool_use_id"] = json!(null);
    p["tool_input"] = json!(null);
    let read = parse(&CLAUDE_CODE, &p).unwrap();
    assert_eq!(read.agent.as_str(), "s1");
    assert!(
        read.call.as_str().starts_with("hook-"),
        "{}",
        read.call.as_str()
    );
    assert_eq!(read.args, json!({}));
    // Long ids take the protocol's short form.
    p["session_id"] = json!("s".repeat(10_000));
    let read = parse(&CLAUDE_CODE, &p).unwrap();
    assert!(read.session.as_str().len() <= 256);
    assert!(read.agent.as_str().len() <= 256);
}

#[test]
fn each_refusal_names_its_field() {
    let base = post(json!("ok"));
    for (field, value, names) in [
        ("session_id", json!(""), "`session_id` must not be empty"),
        (
            "session_id",
            json!(null),
            "`session_id` must be a string, not null",
        ),
        ("agent_id", json!(""), "`agent_id` must not be empty"),
        (
            "agent_id",
            json!(["a"]),
            "`agent_id` must be a string, not an array",
        ),
        (
            "tool_name",
            json!(true),
            "`tool_name` must be a string, not a boolean",
        ),
        ("cwd", json!({}), "`cwd` must be a string, not an object"),
        ("hook_event_name", json!("Stop"), "`hook_event_name`"),
        ("tool_use_id", json!(""), "`tool_use_id` must not be empty"),
    ] {
        let mut p = base.clone();
        p[field] = value;
        let e = parse(&CODEX, &p).unwrap_err();
        assert!(e.0.contains(names), "{field}: {e}");
    }
    for (text, names) in [
        ("", "empty"),
        ("  \n", "empty"),
        ("[1,2]", "not a JSON object"),
        ("\"s\"", "not a JSON object"),
        ("[1,", "not valid JSON"),
        (
            "{\"session_id\":\"a\",\"session_id\":\"b\"}",
            "duplicate field `session_id`",
        ),
        (
            "{\"session_id\":\"\\ud800\",\"hook_event_name\":\"PreToolUse\"}",
            "`session_id` is not valid text",
        ),
    ] {
        let e = payload::parse(&CLAUDE_CODE, Host::Dsh, text.as_bytes()).unwrap_err();
        assert!(e.0.contains(names), "{text:?}: {e}");
        assert!(!e.0.contains('\n'));
    }
    let e = payload::parse(&CLAUDE_CODE, Host::Dsh, b"{\"session_id\":\"\xff\"}").unwrap_err();
    assert!(e.0.contains("UTF-8"), "{e}");
    let e = payload::parse(
        &CODEX,
        Host::Dsh,
        format!("{{\"hook_event_name\":\"{}\"}}", "x\n".repeat(1000)).as_bytes(),
    )
    .unwrap_err();
    assert!(e.0.chars().count() <= 301 && !e.0.contains('\n'), "{e}");
}

/// Whatever the bytes, the parser answers: every prefix of a valid payload,
/// deep nesting, and wrong types in every field.
#[test]
fn no_input_panics() {
    let mut failed = post(json!("Error: x"));
    failed["hook_event_name"] = json!("PostToolUseFailure");
    failed["error"] = json!("boom");
    failed["agent_id"] = json!("a");
    let text = failed.to_string();
    for cut in 0..=text.len() {
        if let Some(prefix) = text.get(..cut) {
            for dialect in [&CLAUDE_CODE, &CODEX] {
                let _ = payload::parse(dialect, Host::Dsh, prefix.as_bytes());
            }
        }
    }
    let deep = format!(
        "{{\"session_id\":\"s\",\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"t\",\"tool_input\":{}{}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    // Too deep a member of `tool_input` is left out; the rest is read.
    let read = payload::parse(&CODEX, Host::Dsh, deep.as_bytes()).unwrap();
    assert!(
        read.args
            .get(crate::protocol::value::DIGEST_MEMBER)
            .is_some()
    );
    // A byte-order mark is skipped, once and at the start only.
    for (text, ok) in [
        (format!("\u{feff}{}", failed), true),
        (format!("\u{feff}\u{feff}{}", failed), false),
        (format!(" \u{feff}{}", failed), false),
    ] {
        assert_eq!(
            payload::parse(&CLAUDE_CODE, Host::Dsh, text.as_bytes()).is_ok(),
            ok,
            "{text:.10}"
        );
    }
    for field in [
        "session_id",
        "agent_id",
        "cwd",
        "tool_name",
        "tool_use_id",
        "tool_input",
        "tool_response",
        "error",
        "hook_event_name",
    ] {
        for value in [
            json!(null),
            json!(1.5),
            json!(-1),
            json!([]),
            json!({"a": [1]}),
            json!(""),
            json!("x"),
        ] {
            let mut p = failed.clone();
            p[field] = value;
            for dialect in [&CLAUDE_CODE, &CODEX] {
                let _ = parse(dialect, &p);
            }
        }
    }
}

#[test]
fn a_payload_is_read_up_to_its_limit() {
    let exact = vec![b' '; payload::PAYLOAD_MAX_BYTES];
    assert_eq!(
        payload::read(&mut exact.as_slice()).unwrap().len(),
        exact.len()
    );
    let over = vec![b' '; payload::PAYLOAD_MAX_BYTES + 10];
    let e = payload::read(&mut over.as_slice()).unwrap_err();
    assert!(e.0.contains("8 MiB"), "{e}");
}

/// Claude Code's `Bash` note on a command is not part of the call: two
/// retries of one command with reworded notes are the same call to the
/// budget. Only there: another tool's `description`, or the bridges', stays.
#[test]
fn claude_codes_bash_note_is_not_part_of_the_call() {
    let pre = |tool: &str| {
        json!({
            "session_id": "s1", "cwd": "/ws", "hook_event_name": "PreToolUse",
            "tool_name": tool, "tool_use_id": "t1",
            "tool_input": {"command": "echo one", "description": "scripted turn 0"},
        })
        .to_string()
    };
    let args = |host, tool: &str| {
        payload::parse(&CLAUDE_CODE, host, pre(tool).as_bytes())
            .unwrap()
            .args
    };
    assert_eq!(
        args(Host::ClaudeCode, "Bash"),
        json!({"command": "echo one"})
    );
    let kept = json!({"command": "echo one", "description": "scripted turn 0"});
    assert_eq!(args(Host::Dsh, "Bash"), kept);
    assert_eq!(args(Host::ClaudeCode, "Task"), kept);
}
