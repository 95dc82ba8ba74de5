//! The analysis against hand counts: small sessions of records (the producers'
//! own failure texts), each figure of the report worked out by hand beside it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use advisor_core::{Failure, Outcome, Platform, SandboxMode, Success};
use serde_json::{Value, json};
use session_scan::analyze::Scanner;
use session_scan::model::{Format, Millis, Record, SessionHeader, Sink, StepId, Usage};
use session_scan::{Assume, report::Report};

/// The ACL grant refusal, as the harness's failure message.
const ACL: &str = r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)";
/// Git refused by Codex's read-only `.git`, as Codex's hook hands it.
const GIT: &str = "fatal: Unable to create '/proj/.git/index.lock': Read-only file system\n";

fn header(format: Format, id: &str, cwd: Option<&str>) -> SessionHeader {
    SessionHeader {
        path: format!("/sessions/{id}.jsonl").into(),
        format,
        id: id.into(),
        parent: None,
        subagent: false,
        cwd: cwd.map(Into::into),
        platform: cwd.map(|c| {
            if c.starts_with('/') {
                Platform::Linux
            } else {
                Platform::Win32
            }
        }),
    }
}

fn usage(step: u64, input: u64, output: u64, at: i64) -> Record {
    Record::Usage {
        step: StepId(step),
        usage: Usage { input, output },
        at: Some(Millis(at)),
    }
}

fn call(id: &str, step: u64, tool: &str, arguments: Value, at: i64) -> Record {
    Record::Call {
        call: id.into(),
        step: StepId(step),
        tool: tool.into(),
        arguments,
        at: Some(Millis(at)),
    }
}

fn failure(id: &str, message: &str, at: i64) -> Record {
    Record::Result {
        call: id.into(),
        failed: true,
        outcome: Outcome::Failure(Failure {
            message: message.into(),
            content: format!("Error: {message}"),
            ..Failure::default()
        }),
        at: Some(Millis(at)),
    }
}

fn output(id: &str, failed: bool, text: &str, at: i64) -> Record {
    Record::Result {
        call: id.into(),
        failed,
        outcome: Outcome::Success(Success {
            value: Value::Null,
            content: text.into(),
        }),
        at: Some(Millis(at)),
    }
}

/// Runs the sessions through one scanner and compares the report's
/// projection (families and sessions, without paths) with `want`.
fn check(sessions: Vec<(SessionHeader, Vec<Record>)>, want: Value) -> Report {
    let mut scanner = Scanner::new(Assume::default()).expect("scanner");
    for (header, records) in sessions {
        scanner.begin(header);
        for record in records {
            scanner.record(record);
        }
        scanner.end();
    }
    let order: Vec<_> = scanner.families().collect();
    let report = scanner.totals.report(&order);
    let got = json!({
        "families": report.families,
        "sessions": report.sessions.iter().map(|s| json!({
            "id": s.id, "calls": s.calls, "families": s.families,
        })).collect::<Vec<_>>(),
        "timeline": report.timeline,
        "calls": report.input.calls,
        "failed_calls": report.input.failed_calls,
    });
    let mut got_subset = got.clone();
    retain_like(&mut got_subset, &want);
    assert_eq!(
        got_subset,
        want,
        "full report projection: {}",
        serde_json::to_string_pretty(&got).unwrap_or_default()
    );
    report
}

/// Keeps in `got` only the object keys `want` names, recursively, so each
/// case states the figures it counted by hand and nothing else.
fn retain_like(got: &mut Value, want: &Value) {
    match (got, want) {
        (Value::Object(g), Value::Object(w)) => {
            g.retain(|k, _| w.contains_key(k));
            for (k, v) in g.iter_mut() {
                if let Some(wv) = w.get(k) {
                    retain_like(v, wv);
                }
            }
        }
        (Value::Array(g), Value::Array(w)) if g.len() == w.len() => {
            for (gv, wv) in g.iter_mut().zip(w) {
                retain_like(gv, wv);
            }
        }
        _ => {}
    }
}

/// Three steps of one pwsh call each, all refused by the ACL grant; a fourth
/// step answers. The advisor's own notice sits after the second failure.
///
/// By hand: 3 failing calls, 2 repeats, both identical (same command); 3
/// wasted steps, output 41+42+43 = 126, input 2400+2700+3000 = 8100; wall
/// 1_000 → 5_000 = 4_000 ms; would speak at call 1; the notice splits the
/// failures 2 before, 1 after. The answering step (17 output) is not waste.
#[test]
fn acl_refusals_on_windows() {
    let pwsh = || json!({"command": "npm test"});
    let records = vec![
        Record::Mode(SandboxMode::WorkspaceWrite),
        usage(1, 2400, 41, 500),
        call("c1", 1, "pwsh", pwsh(), 600),
        failure("c1", ACL, 1_000),
        usage(2, 2700, 42, 2_000),
        call("c2", 2, "pwsh", pwsh(), 2_100),
        failure("c2", ACL, 3_000),
        Record::Spoken {
            summary: Some("earlier advisory".into()),
            at: Some(Millis(3_500)),
        },
        usage(3, 3000, 43, 4_000),
        call("c3", 3, "pwsh", pwsh(), 4_100),
        failure("c3", ACL, 5_000),
        usage(4, 3420, 17, 6_000),
    ];
    let report = check(
        vec![(header(Format::DshV0, "win", Some(r"D:\ws")), records)],
        json!({
            "calls": 3, "failed_calls": 3,
            "families": [{
                "family": "acl-provisioning", "sessions": 1, "failing_calls": 3,
                "repeats": 2, "identical_repeats": 2, "wasted_steps": 3,
                "wasted_output_tokens": 126, "wasted_input_tokens": 8100,
                "wall_ms": 4000, "would_speak": 1, "withheld": [],
                "spoken": {"sessions": 1, "calls_before": 2, "calls_after": 1},
            }],
            "sessions": [{"id": "win", "calls": 3, "families": [{
                "family": "acl-provisioning", "first_at": 1000, "last_at": 5000,
                "would_speak": {"call_index": 1, "call": "c1", "at": 1000},
            }]}],
            "timeline": [{"day": "1970-01-01", "family": "acl-provisioning",
                          "failing_calls": 3, "wasted_output_tokens": 126}],
        }),
    );
    let summary = &report.sessions[0].families[0]
        .would_speak
        .as_ref()
        .expect("spoke")
        .summary;
    assert!(summary.contains("ACL"), "summary: {summary}");
}

/// A step whose two calls are one ACL refusal and one success is not wasted;
/// a different command repeated is a repeat but not an identical one; a call
/// whose result never came is not counted as failing, and its step is not
/// wasted either.
#[test]
fn mixed_steps_and_different_commands() {
    let records = vec![
        usage(1, 100, 10, 0),
        call("a", 1, "pwsh", json!({"command": "dir"}), 0),
        call("b", 1, "pwsh", json!({"command": "echo ok"}), 0),
        failure("a", ACL, 10),
        output("b", false, "ok", 20),
        usage(2, 200, 20, 30),
        call("c", 2, "pwsh", json!({"command": "npm ci"}), 30),
        failure("c", ACL, 40),
        usage(3, 300, 30, 50),
        call("d", 3, "pwsh", json!({"command": "npm ci"}), 50),
        failure("orphan", ACL, 55),
    ];
    check(
        vec![(header(Format::DshV0, "mixed", Some(r"D:\ws")), records)],
        json!({
            "calls": 4, "failed_calls": 3,
            "families": [{
                "family": "acl-provisioning", "sessions": 1, "failing_calls": 2,
                "repeats": 1, "identical_repeats": 0, "wasted_steps": 1,
                "wasted_output_tokens": 20, "wasted_input_tokens": 200, "wall_ms": 30,
            }],
        }),
    );
}

/// Codex's read-only `.git`: under `workspace-write` (its turn context) the
/// advisor speaks once; the same failure in a session that never states a
/// mode is withheld, with the reason, and counted all the same. A success
/// whose text only mentions the words is nobody's failure.
#[test]
fn codex_protected_git_spoken_and_withheld() {
    let commit = || json!({"command": "git add -A && git commit -m x"});
    let stated = vec![
        Record::Mode(SandboxMode::WorkspaceWrite),
        call("1", 1, "Bash", commit(), 0),
        usage(1, 10, 5, 1),
        output("1", true, GIT, 190),
        call("2", 2, "Bash", commit(), 200),
        usage(2, 10, 5, 201),
        output("2", true, GIT, 390),
        call("3", 3, "Bash", json!({"command": "cat notes.txt"}), 400),
        usage(3, 10, 5, 401),
        output(
            "3",
            false,
            "Read-only file system is what the doc says\n",
            500,
        ),
    ];
    let silent = vec![
        call("1", 1, "Bash", commit(), 0),
        usage(1, 10, 5, 1),
        output("1", true, GIT, 100),
    ];
    check(
        vec![
            (header(Format::Codex, "stated", Some("/proj")), stated),
            (header(Format::Codex, "silent", Some("/proj")), silent),
        ],
        json!({
            "calls": 4, "failed_calls": 3,
            "families": [{
                "family": "codex-protected-path", "sessions": 2, "failing_calls": 3,
                "repeats": 1, "identical_repeats": 1, "wasted_steps": 3,
                "wasted_output_tokens": 15, "wasted_input_tokens": 30,
                "wall_ms": 200, "would_speak": 1,
                "withheld": [{"reason": "no-mode-stated", "sessions": 1}],
            }],
            "sessions": [
                {"id": "silent", "calls": 1, "families": [{"would_speak": null,
                  "withheld": [{"call_index": 1, "reason": "no-mode-stated"}]}]},
                {"id": "stated", "calls": 3, "families": [{"withheld": [],
                  "would_speak": {"call_index": 1, "call": "1", "at": 190}}]},
            ],
        }),
    );
}

/// A harness failure text inside a Codex session is never read: the
/// harness's families are the harness's only.
#[test]
fn another_hosts_failure_is_not_read() {
    let records = vec![
        call("1", 1, "Bash", json!({"command": "x"}), 0),
        failure("1", ACL, 10),
    ];
    check(
        vec![(header(Format::Codex, "c", Some("/proj")), records)],
        json!({"calls": 1, "failed_calls": 1, "families": [], "sessions": []}),
    );
}

/// The published writer's sessions (`scan-fixtures/dsh-writer/README.md`),
/// read by the real reader, against the README's hand count:
/// `fixture-win-acl` has three ACL refusals (steps of 2400/41, 2700/42,
/// 3000/43 tokens, results at 09:00:16, :26 and :36) and one success;
/// its subagent one refusal (1200/30); the POSIX control one success.
/// So: 6 results, 4 failed; 2 sessions; 2 repeats, both identical; 4 wasted
/// steps of 156 output and 9,300 input tokens; 20 s of wall time; one
/// advisory per session (a subagent is its own agent).
#[test]
fn the_writer_sessions_cost_what_the_hand_count_says() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scan-fixtures/dsh-writer/out/zstd");
    let report = session_scan::scan(
        &[root],
        session_scan::Options {
            assume: Assume::default(),
            jobs: 1,
            progress: false,
            limits: session_scan::Limits::default(),
        },
    )
    .expect("scan");
    let got = json!({
        "input": report.input,
        "families": report.families,
        "timeline": report.timeline,
        "left_out": report.sessions_left_out,
        "sessions": report.sessions.iter().map(|s| (&s.id, s.calls, s.subagent)).collect::<Vec<_>>(),
    });
    let mut subset = got.clone();
    let want = json!({
        "input": {"files": 3, "sessions": 3, "formats": [{"format": "dsh-v0", "sessions": 3}],
                  "calls": 6, "failed_calls": 4, "problems_total": 0, "unjudged_results": 0},
        "families": [{
            "family": "acl-provisioning", "sessions": 2, "failing_calls": 4, "repeats": 2,
            "identical_repeats": 2, "wasted_steps": 4, "wasted_output_tokens": 156,
            "wasted_input_tokens": 9300, "wall_ms": 20000, "would_speak": 2, "withheld": [],
        }],
        "timeline": [{"day": "2026-01-15", "family": "acl-provisioning",
                      "failing_calls": 4, "wasted_output_tokens": 156}],
        "left_out": 0,
        // By path: `fixture-win-acl-sub/` sorts before `fixture-win-acl/`.
        "sessions": [["fixture-win-acl-sub", 1, true], ["fixture-win-acl", 4, false]],
    });
    retain_like(&mut subset, &want);
    assert_eq!(
        subset,
        want,
        "{}",
        serde_json::to_string_pretty(&got).unwrap_or_default()
    );
}

/// A recording cannot grow the timeline past its bound: 20,050 failures on
/// as many days keep 20,000 timeline entries, and every failure still counts.
#[test]
fn the_timeline_is_bounded_whatever_the_recorded_times() {
    const DAY: i64 = 86_400_000;
    let mut records = vec![Record::Mode(SandboxMode::WorkspaceWrite)];
    for n in 0..20_050_i64 {
        let id = format!("c{n}");
        records.push(call(
            &id,
            n as u64,
            "pwsh",
            json!({"command": "dir"}),
            n * DAY,
        ));
        records.push(failure(&id, ACL, n * DAY));
    }
    let report = check(
        vec![(header(Format::DshV0, "long", Some(r"D:\ws")), records)],
        json!({"calls": 20_050, "families": [{"family": "acl-provisioning", "failing_calls": 20_050}]}),
    );
    assert_eq!(report.timeline.len(), session_scan::analyze::TIMELINE_MAX);
}
