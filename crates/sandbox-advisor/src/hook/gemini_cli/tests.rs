#![allow(clippy::unwrap_used, clippy::panic)]

use advisor_core::{
    Advisory, AgentId, CallId, FamilyId, Host, Outcome, Refusal, SessionId, ToolName,
};
use serde_json::{Value, json};

use super::response::sections;
use super::*;
use crate::engine::{Decision, Hook};
use crate::hook::dialect::ClientMarker;

const NOISE: &str =
    "/usr/bin/bash: line 1: /tmp/gemini-shell-DmoCw0/bgpids.tmp: No such file or directory";

fn after(response: Value) -> Vec<u8> {
    json!({
        "session_id": "s", "cwd": "/w", "hook_event_name": "AfterTool", "timestamp": "t",
        "transcript_path": "/t", "tool_name": "run_shell_command",
        "tool_input": {"command": "strace true", "description": "note"},
        "tool_response": response,
    })
    .to_string()
    .into_bytes()
}

fn parse(bytes: &[u8]) -> Result<Parsed, Malformed> {
    GeminiCli.parse(Host::GeminiCli, bytes)
}

/// One case: the `tool_response`, and what the families read of it.
fn check(response: Value, expect: Outcome, marker: Option<ClientMarker>) {
    let parsed = parse(&after(response.clone())).unwrap();
    assert_eq!(parsed.payload.outcome, Some(expect), "{response}");
    assert_eq!(parsed.call.marker, marker, "{response}");
    assert_eq!(parsed.payload.args, json!({"command": "strace true"}));
}

fn success(content: &str) -> Outcome {
    Outcome::Success(advisor_core::Success {
        value: Value::Null,
        content: content.into(),
    })
}

fn failure(message: &str, content: &str, code: Option<&str>) -> Outcome {
    Outcome::Failure(advisor_core::Failure {
        message: message.into(),
        members: Vec::new(),
        content: content.into(),
        code: code.map(str::to_owned),
    })
}

#[test]
fn results_are_read_as_gemini_renders_them() {
    let framed = |body: &str| format!("<untrusted_context>\n{body}\n</untrusted_context>");
    // A success carrying the wrapper's noise is a success with the output alone.
    check(
        json!({"llmContent": framed(&format!("Output: hello\n{NOISE}\nProcess Group PGID: 7")), "returnDisplay": "hello"}),
        success("hello"),
        None,
    );
    // A non-zero exit: the neutral failure form, Gemini's text without the noise as content.
    let ls = "ls: cannot access '/x': No such file or directory";
    check(
        json!({"llmContent": framed(&format!("Output: {ls}\n{NOISE}\nExit Code: 2\nProcess Group PGID: 7"))}),
        failure(
            &format!("Exit code 2\n{ls}"),
            &framed(&format!(
                "Output: {ls}\nExit Code: 2\nProcess Group PGID: 7"
            )),
            None,
        ),
        None,
    );
    // No output at all.
    check(
        json!({"llmContent": framed("Output: (empty)\nExit Code: 1\nProcess Group PGID: 7")}),
        failure(
            "Exit code 1",
            &framed("Output: (empty)\nExit Code: 1\nProcess Group PGID: 7"),
            None,
        ),
        None,
    );
    // Any other text (a cancelled or backgrounded command) is opaque.
    check(
        json!({"llmContent": "Command moved to background (PID: 9)."}),
        success("Command moved to background (PID: 9)."),
        None,
    );
}

#[test]
fn the_marker_is_read_from_its_own_field_and_the_output_from_the_display() {
    let error = json!({"type": "sandbox_expansion_required", "message": "{}"});
    let out = "touch: cannot touch '/var/tmp/x': Read-only file system";
    let marked = failure(out, out, Some("sandbox_expansion_required"));
    let marker = Some(ClientMarker::SandboxExpansionRequired);
    // Headless: a string.
    check(
        json!({"llmContent": "Sandbox expansion required", "returnDisplay": format!("{out}\n{NOISE}"), "error": error}),
        marked.clone(),
        marker,
    );
    // Interactive: terminal lines of spans, padded.
    let lines = json!([[{"text": format!("{out}   "), "bold": false}], [{"text": NOISE}], [{"text": " "}, {"text": "   "}]]);
    check(
        json!({"llmContent": "Sandbox expansion required", "returnDisplay": lines, "error": error}),
        marked,
        marker,
    );
    // Another error type is no mark; a program's output saying the words is none either.
    let text = "<untrusted_context>\nOutput: sandbox_expansion_required\nExit Code: 1\n</untrusted_context>";
    let parsed = parse(&after(
        json!({"llmContent": text, "error": {"type": "execution_failed"}}),
    ))
    .unwrap();
    assert_eq!(parsed.call.marker, None);
}

#[test]
fn sections_are_read_from_the_end_in_geminis_order() {
    // The output's own "Exit Code:" line is output when Gemini's own follows.
    let r = sections(
        "<untrusted_context>\nOutput: Exit Code: 5\nExit Code: 1\nSignal: 9\nProcess Group PGID: 3\n</untrusted_context>",
    );
    assert_eq!((r.output.as_str(), r.exit), ("Exit Code: 5", Some(1)));
    let r =
        sections("<untrusted_context>\nOutput: ok\nProcess Group PGID: 3\n</untrusted_context>");
    assert_eq!((r.output.as_str(), r.exit), ("ok", None));
    // Not Gemini's frame: opaque.
    assert_eq!(sections("Output: x\nExit Code: 1").exit, None);
}

#[test]
fn bad_responses_are_refused_by_name() {
    for (response, field) in [
        (json!({"returnDisplay": "x"}), "tool_response.llmContent"),
        (json!({"llmContent": 5}), "tool_response.llmContent"),
        (
            json!({"llmContent": "x", "error": "boom"}),
            "tool_response.error",
        ),
        (
            json!({"llmContent": "Sandbox expansion required", "returnDisplay": [1], "error": {"type": "sandbox_expansion_required"}}),
            "tool_response.returnDisplay",
        ),
        (json!("plain"), "tool_response"),
    ] {
        let e = parse(&after(response.clone())).unwrap_err();
        assert!(e.0.contains(field), "{response}: {e}");
        assert!(!e.0.contains('\n'));
    }
}

fn decision(advisories: &[&str], refusal: Option<&str>) -> Decision {
    Decision {
        hook: Hook::Post,
        agent: Some(AgentId::new("s")),
        session: Some(SessionId::new("s")),
        call: Some((CallId::new("c"), ToolName::new("run_shell_command"))),
        advisories: advisories
            .iter()
            .map(|t| Advisory::new(FamilyId::new("ptrace-refused"), "summary", (*t).into()))
            .collect(),
        withheld: Vec::new(),
        refusal: refusal.map(|r| Refusal {
            family: FamilyId::new("ptrace-refused"),
            reason: r.into(),
        }),
    }
}

#[test]
fn answers_per_path() {
    let before = GEMINI_CLI.event("BeforeTool").unwrap();
    let after = GEMINI_CLI.event("AfterTool").unwrap();
    let plain = CallFacts {
        marker: None,
        output: Some("out".into()),
    };
    let marked = CallFacts {
        marker: Some(ClientMarker::SandboxExpansionRequired),
        output: Some("> line\n```".into()),
    };
    // A refusal before the call: Gemini's top-level deny.
    assert_eq!(
        GeminiCli.render(before, &decision(&[], Some("why")), &plain),
        Some(json!({"decision": "deny", "reason": "why"}))
    );
    // An advisory on an unmarked result: additionalContext.
    assert_eq!(
        GeminiCli.render(after, &decision(&["a", "b"], None), &plain),
        Some(json!({"hookSpecificOutput": {"additionalContext": "a\n\nb"}}))
    );
    // On a marked one: a deny whose reason is the advisory, then the output in a quote frame.
    let answer = GeminiCli
        .render(after, &decision(&["brief"], None), &marked)
        .unwrap();
    let reason = answer["reason"].as_str().unwrap();
    assert_eq!(answer["decision"], "deny");
    assert!(
        reason.starts_with("brief\n\nWhat the command printed"),
        "{reason}"
    );
    // Every line of the output is inside the quote frame: none stands bare.
    let quoted = reason.split_once("result):\n").unwrap().1;
    assert!(quoted.lines().all(|l| l.starts_with('>')), "{reason}");
    // Silence otherwise, marker or not; a post-call refusal is never written.
    for call in [&plain, &marked] {
        assert_eq!(
            GeminiCli.render(after, &decision(&[], Some("x")), call),
            None
        );
        assert_eq!(
            GeminiCli.render(before, &decision(&["a"], None), call),
            None
        );
    }
    // Every field written is one Gemini's reference documents.
    for answer in [
        GeminiCli
            .render(before, &decision(&[], Some("why")), &plain)
            .unwrap(),
        GeminiCli
            .render(after, &decision(&["a"], None), &plain)
            .unwrap(),
        GeminiCli
            .render(after, &decision(&["a"], None), &marked)
            .unwrap(),
    ] {
        for (key, value) in answer.as_object().unwrap() {
            assert!(GEMINI_CLI.output_top.contains(&key.as_str()), "{key}");
            if key == "decision" {
                assert!(reference::DECISIONS.contains(&value.as_str().unwrap()));
            }
            if let Some(specific) = value.as_object() {
                for k in specific.keys() {
                    assert!(after.output.contains(&k.as_str()), "{k}");
                }
            }
        }
    }
}
