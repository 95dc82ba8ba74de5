//! The Gemini CLI reader against chats the real client wrote
//! (`scan-fixtures/gemini-cli/`, recorded as its README says) and small
//! fixtures derived from them (`tests/fixtures/gemini/`).
//!
//! Every arm compares the whole record stream, rendered one line per event,
//! so any change in a call, a result, a step or a token figure fails it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fs;
use std::path::{Path, PathBuf};

use advisor_core::Outcome;
use session_scan::budget::Budget;
use session_scan::model::{Ending, Millis, Problem, Record, SessionHeader, Sink};
use session_scan::source::gemini;

/// The workspace root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Gemini's temporary folder in the recorded home: one folder per project.
const TMP: &str = "scan-fixtures/gemini-cli/home/.gemini/tmp/";
const CHATS: &str = "scan-fixtures/gemini-cli/home/.gemini/tmp/proj/chats/";
const FIXTURES: &str = "crates/session-scan/tests/fixtures/gemini/";

/// Records every event, rendered.
#[derive(Default)]
struct Recorder {
    events: Vec<String>,
    decoded: u64,
}

fn at(at: Option<Millis>) -> String {
    at.map_or("-".into(), |m| m.0.to_string())
}

impl Sink for Recorder {
    fn begin(&mut self, h: SessionHeader) {
        self.events.push(format!(
            "begin {} {} cwd={:?} platform={:?} subagent={}",
            h.format.as_str(),
            h.id,
            h.cwd,
            h.platform,
            h.subagent
        ));
    }

    fn record(&mut self, record: Record) {
        self.events.push(match &record {
            Record::Mode(mode) => format!("mode {}", mode.as_str()),
            Record::Usage {
                step, usage, at: t, ..
            } => format!(
                "usage step={} in={} cw={} cr={} out={} @{}",
                step.0,
                usage.input,
                usage.cache_creation,
                usage.cache_read,
                usage.output,
                at(*t)
            ),
            Record::Call {
                call,
                step,
                tool,
                arguments,
                at: t,
            } => format!("call {call} step={} {tool} {arguments} @{}", step.0, at(*t)),
            Record::Result {
                call,
                ending,
                outcome,
                at: t,
            } => {
                let ending = match ending {
                    Ending::Succeeded => "succeeded",
                    Ending::Failed => "failed",
                    Ending::StillRunning => "still-running",
                };
                let outcome = match outcome {
                    Outcome::Failure(f) => {
                        format!("failure {:?} {:?} code={:?}", f.message, f.content, f.code)
                    }
                    Outcome::Success(s) => format!("success {:?}", s.content),
                };
                format!("result {call} {ending} {outcome} @{}", at(*t))
            }
            Record::Spoken { .. } => "spoken".into(),
        });
    }

    fn end(&mut self) {
        self.events.push("end".into());
    }

    fn problem(&mut self, p: Problem) {
        let line = p.line.map_or("-".into(), |l| l.to_string());
        self.events.push(format!(
            "problem line={line} stopped={} {}",
            p.stopped, p.what
        ));
    }

    fn decoded(&mut self, bytes: u64) {
        self.decoded += bytes;
    }
}

/// Reads `file` (relative to the workspace root) and compares every event.
fn check(file: &str, expected: &[String]) {
    let path = root().join(file);
    let bytes = fs::read(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
    let mut sink = Recorder::default();
    let budget = Budget::new(session_scan::Limits::default());
    gemini::read(&path, &mut &bytes[..], &mut sink, &budget);
    assert_eq!(sink.events, expected, "{file}");
    assert_eq!(sink.decoded, bytes.len() as u64, "{file}: decoded bytes");
}

const STRACE: &str = r#"{"command":"strace -f -o /dev/null true","additional_permissions":{"fileSystem":{"read":["/usr/bin","/tmp/gemini-shell-UvumLO"],"write":["/usr/bin","/tmp/gemini-shell-UvumLO"]}}}"#;
const LS_FAILED: &str = r#"failed failure "Exit code 2\nls: cannot access '/nonexistent': No such file or directory" "<untrusted_context>\nOutput: ls: cannot access '/nonexistent': No such file or directory\nExit Code: 2\nProcess Group PGID: {pgid}\n</untrusted_context>" code=None"#;

/// A response of the scripted model: 10 in, 5 out, nothing cached.
fn usage(step: u64, t: i64) -> String {
    format!("usage step={step} in=10 cw=0 cr=0 out=5 @{t}")
}

fn call(id: u64, step: u64, args: &str, t: i64) -> String {
    format!(
        "call run_shell_command__run_shell_command_{id}_0 step={step} run_shell_command {args} @{t}"
    )
}

fn result(id: u64, rest: &str, t: i64) -> String {
    format!("result run_shell_command__run_shell_command_{id}_0 {rest} @{t}")
}

#[test]
fn declined_expansion_success_and_ordinary_failure() {
    // Recorded with `.ci/clients.sh scenario gemini-cli … pty=decline`: the
    // user pressed Esc at the expansion dialog. The chat keeps Gemini's
    // request as the error, not strace's output: the mark, and no text.
    let begin = r#"begin gemini-cli 24f8619f-8b8e-4ef0-bc2c-f0499763ae7e cwd=Some("/home/dev/run/proj") platform=Some(Linux) subagent=false"#;
    let want = [
        begin.to_owned(),
        usage(1, 1_796_624_361_058),
        call(
            1_796_624_360_755,
            1,
            &STRACE.replace("UvumLO", "OW4O6e"),
            1_796_624_361_058,
        ),
        result(
            1_796_624_360_755,
            r#"failed failure "" "" code=Some("sandbox_expansion_required")"#,
            1_796_624_366_311,
        ),
        usage(2, 1_796_624_366_636),
        // `description` left out, as the hook leaves it out.
        call(
            1_796_624_366_547,
            2,
            r#"{"command":"echo hello"}"#,
            1_796_624_366_636,
        ),
        // The wrapper's noise line is gone: a plain success.
        result(
            1_796_624_366_547,
            r#"succeeded success "hello""#,
            1_796_624_368_717,
        ),
        usage(3, 1_796_624_368_942),
        call(
            1_796_624_368_938,
            3,
            r#"{"command":"ls /nonexistent"}"#,
            1_796_624_368_942,
        ),
        result(
            1_796_624_368_938,
            &LS_FAILED.replace("{pgid}", "31942"),
            1_796_624_369_707,
        ),
        usage(4, 1_796_624_369_735),
        "end".to_owned(),
    ];
    check(
        &format!("{CHATS}session-2026-12-07T06-19-24f8619f.jsonl"),
        &want,
    );
}

#[test]
fn allowed_once_the_same_lines_without_the_mark() {
    // `pty=1`: "Allow once" re-ran strace with the grants Gemini proposed;
    // it failed again and Gemini did not mark it: an ordinary failure.
    let strace = "Exit code 1\\nstrace: test_ptrace_get_syscall_info: PTRACE_TRACEME: Operation not permitted\\nstrace: ptrace(PTRACE_TRACEME, ...): Operation not permitted\\nstrace: PTRACE_SETOPTIONS: Operation not permitted\\nstrace: detach: waitpid(7): No child processes";
    let rendered = "<untrusted_context>\\nOutput: strace: test_ptrace_get_syscall_info: PTRACE_TRACEME: Operation not permitted\\nstrace: ptrace(PTRACE_TRACEME, ...): Operation not permitted\\nstrace: PTRACE_SETOPTIONS: Operation not permitted\\nstrace: detach: waitpid(7): No child processes\\nExit Code: 1\\nProcess Group PGID: 12064\\n</untrusted_context>";
    let want = [
        r#"begin gemini-cli 783133fb-d17a-4091-8d5f-f5284c74c044 cwd=Some("/home/dev/run/proj") platform=Some(Linux) subagent=false"#.to_owned(),
        usage(1, 1_796_624_279_856),
        call(1_796_624_279_531, 1, STRACE, 1_796_624_279_856),
        result(
            1_796_624_279_531,
            &format!(r#"failed failure "{strace}" "{rendered}" code=None"#),
            1_796_624_283_898,
        ),
        usage(2, 1_796_624_284_018),
        call(1_796_624_284_001, 2, r#"{"command":"echo hello"}"#, 1_796_624_284_018),
        result(1_796_624_284_001, r#"succeeded success "hello""#, 1_796_624_285_000),
        usage(3, 1_796_624_285_086),
        call(1_796_624_285_070, 3, r#"{"command":"ls /nonexistent"}"#, 1_796_624_285_086),
        result(1_796_624_285_070, &LS_FAILED.replace("{pgid}", "12159"), 1_796_624_285_984),
        usage(4, 1_796_624_286_110),
        "end".to_owned(),
    ];
    check(
        &format!("{CHATS}session-2026-12-07T06-17-783133fb.jsonl"),
        &want,
    );
}

#[test]
fn bwrap_missing_every_command_exits_127() {
    let failed = r#"failed failure "Exit code 127\n_: 1: exec: bwrap: not found" "<untrusted_context>\nOutput: _: 1: exec: bwrap: not found\nExit Code: 127\nProcess Group PGID: {pgid}\n</untrusted_context>" code=None"#;
    let echo = r#"{"command":"echo hello"}"#;
    let want = [
        r#"begin gemini-cli 46ceded4-70c5-4d5e-954b-77066bc444b2 cwd=Some("/home/dev/run/proj") platform=Some(Linux) subagent=false"#.to_owned(),
        usage(1, 1_796_624_610_420),
        call(1_796_624_610_087, 1, echo, 1_796_624_610_420),
        result(1_796_624_610_087, &failed.replace("{pgid}", "20932"), 1_796_624_611_299),
        usage(2, 1_796_624_611_415),
        call(1_796_624_611_401, 2, echo, 1_796_624_611_415),
        result(1_796_624_611_401, &failed.replace("{pgid}", "21010"), 1_796_624_612_188),
        usage(3, 1_796_624_612_210),
        "end".to_owned(),
    ];
    check(
        &format!("{TMP}nobwrap/chats/session-2026-12-07T06-23-46ceded4.jsonl"),
        &want,
    );
}

#[test]
fn updates_rewrites_and_rewinds_count_each_response_and_call_once() {
    // Gemini's request, as a refused call records it; here in other places.
    let req = r#"{\"type\":\"sandbox_expansion\",\"command\":\"x\",\"additionalPermissions\":{\"network\":true}}"#;
    let curl = r#"{"command":"curl -sS http://example.com"}"#;
    let t = |s: i64| 1_796_623_200_000 + s * 1000;
    let want = [
        // The platform and directory Gemini wrote in its own context message.
        r#"begin gemini-cli gem-updates cwd=Some("/Users/dev/proj") platform=Some(Macos) subagent=false"#.to_owned(),
        // Written while executing (no result yet), then again when done: one
        // call, one result; the tokens, null at first, counted once when set.
        format!(r#"call c1 step=1 run_shell_command {{"command":"echo a"}} @{}"#, t(1)),
        format!(r#"result c1 succeeded success "a" @{}"#, t(2)),
        // 100 in, 60 of them cached, 2 of a tool-use prompt; 7 out and 3 thoughts.
        format!("usage step=1 in=42 cw=0 cr=60 out=10 @{}", t(1)),
        // The same line again and the history rewritten by `$set`: nothing new.
        // Not the shell: `description` kept, and an error is only an error.
        format!(
            r#"call c2 step=2 read_file {{"file_path":"/x","description":"kept: not the shell"}} @{}"#,
            t(3)
        ),
        format!(r#"result c2 failed failure "{req}" "{req}" code=None @{}"#, t(4)),
        // A command that prints Gemini's request: a success, as its output.
        format!(r#"call c3 step=2 run_shell_command {{"command":"cat request.json"}} @{}"#, t(3)),
        format!(r#"result c3 succeeded success "{req}" @{}"#, t(4)),
        // The request on a call that is not `status: "error"`: no mark.
        format!("call c4 step=2 run_shell_command {curl} @{}", t(3)),
        format!(r#"result c4 failed failure "{req}" "{req}" code=None @{}"#, t(4)),
        format!("call c6 step=2 run_shell_command {curl} @{}", t(3)),
        format!(r#"result c6 failed failure "{req}" "{req}" code=None @{}"#, t(4)),
        format!("usage step=2 in=10 cw=0 cr=0 out=5 @{}", t(3)),
        // The rewind to m2 undoes nothing. m3's time is refused, not its calls.
        "problem line=12 stopped=false `timestamp` is not a time from 2000-01-01 to 2099-12-31 (UTC); the record is read without a time".to_owned(),
        r#"call c5 step=3 run_shell_command {"command":"touch /etc/x"} @-"#.to_owned(),
        // Marked, with a display that is the command's own text (the
        // headless form): that text, the wrapper's noise line removed.
        format!(
            r#"result c5 failed failure "{ro}" "{ro}" code=Some("sandbox_expansion_required") @{}"#,
            t(6),
            ro = "touch: cannot touch '/etc/x': Read-only file system"
        ),
        "usage step=3 in=5 cw=0 cr=0 out=1 @-".to_owned(),
        "end".to_owned(),
    ];
    check(&format!("{FIXTURES}updates.jsonl"), &want);
}

#[test]
fn malformed_lines_are_named_and_skipped() {
    let t = |s: i64| 1_796_623_200_000 + s * 1000;
    let want = [
        "problem line=1 stopped=false a message before the session's metadata line; skipped".to_owned(),
        "problem line=2 stopped=false a `$set` line before the session's metadata line; skipped".to_owned(),
        "problem line=4 stopped=false not valid JSON (column 2); skipped".to_owned(),
        // No context message: directory and platform unknown.
        "begin gemini-cli gem-sub cwd=None platform=None subagent=true".to_owned(),
        "problem line=5 stopped=false a tool call without `id` or `name`; skipped".to_owned(),
        format!(r#"call c1 step=1 run_shell_command {{"command":"ls"}} @{}"#, t(1)),
        // Its result names neither: the call stays unresolved.
        "problem line=5 stopped=false a completed tool call whose result has neither `output` nor `error`; its result is not read".to_owned(),
        // `7` is no tool call.
        "problem line=5 stopped=false a tool call without `id` or `name`; skipped".to_owned(),
        format!("usage step=1 in=3 cw=0 cr=0 out=2 @{}", t(1)),
        // A numeric `id` is no message; a second metadata line changes nothing.
        "problem line=8 stopped=false the last line is cut short (no newline, not whole JSON); skipped".to_owned(),
        "end".to_owned(),
    ];
    check(&format!("{FIXTURES}malformed.jsonl"), &want);
}

#[test]
fn a_chat_without_a_session_is_a_problem_not_a_panic() {
    let inputs: &[&[u8]] = &[
        b"",
        b"\n\n",
        b"\xff\xfe{",
        b"[1,2]\n",
        b"{\"sessionId\":\"no-hash\"}\n{\"id\":\"m\",\"type\":\"gemini\"}\n",
        &[b'['; 4096],
    ];
    for input in inputs {
        let mut sink = Recorder::default();
        let budget = Budget::new(session_scan::Limits::default());
        gemini::read(Path::new("odd.jsonl"), &mut &input[..], &mut sink, &budget);
        let last = sink.events.last().cloned().unwrap_or_default();
        assert_eq!(
            last,
            "problem line=- stopped=false no metadata line (`sessionId` and `projectHash`); no session read",
            "{input:?}"
        );
        assert!(
            !sink.events.iter().any(|e| e.starts_with("call")),
            "{input:?}"
        );
    }
}

#[test]
fn scan_counts_what_the_hook_would_advise() {
    let report = session_scan::scan(
        &[root().join(TMP)],
        session_scan::Options {
            assume: session_scan::Assume::default(),
            jobs: 1,
            progress: false,
            limits: session_scan::Limits::default(),
        },
    )
    .unwrap();
    let json = serde_json::to_value(&report).unwrap();
    let input = &json["input"];
    // 11 responses of 10 in and 5 out; 8 calls ended, 6 of them failed.
    assert_eq!(
        [
            &input["calls"],
            &input["failed_calls"],
            &input["unresolved_calls"]
        ],
        [8, 6, 0]
    );
    assert_eq!(
        [&input["tokens"]["input"], &input["tokens"]["output"]],
        [110, 55]
    );
    assert_eq!(
        input["formats"],
        serde_json::json!([{"format": "gemini-cli", "sessions": 3}])
    );
    // The declined expansion: marked, and no output for any family to read.
    assert_eq!(input["marked_results"], 1);
    let family = |id: &str| {
        json["families"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["family"] == id)
            .cloned()
            .unwrap_or_default()
    };
    // bwrap missing: both calls are the family's, and it speaks once.
    let bwrap = family("bwrap-not-found");
    assert_eq!(
        [
            &bwrap["failing_calls"],
            &bwrap["identical_repeats"],
            &bwrap["wasted_steps"],
            &bwrap["would_speak"]
        ],
        [2, 1, 2, 1],
        "{bwrap:#}"
    );
    // The tracer's lines without Gemini's mark: the gate declines them.
    let ptrace = family("ptrace-refused");
    assert_eq!(ptrace["failing_calls"], 0, "{ptrace:#}");
    assert_eq!(
        ptrace["declined"],
        serde_json::json!([{"reason": "not-marked", "calls": 1, "sessions": 1}])
    );
    // The successes and the ordinary failures (`ls`) are no family's.
    assert_eq!(
        json["families"].as_array().map(Vec::len),
        Some(2),
        "{:#}",
        json["families"]
    );
    let table = session_scan::report::table::render(&report);
    assert!(
        table.contains("1 result marked by the client as its sandbox's refusal (Gemini CLI's `sandbox_expansion_required`)."),
        "{table}"
    );
}

/// Counts of the records `text` (a chat) yields, by kind.
fn counts(text: &str) -> (usize, usize, usize) {
    let mut sink = Recorder::default();
    let budget = Budget::new(session_scan::Limits::default());
    gemini::read(
        Path::new("bound.jsonl"),
        &mut text.as_bytes(),
        &mut sink,
        &budget,
    );
    let n = |kind: &str| sink.events.iter().filter(|e| e.starts_with(kind)).count();
    (n("usage "), n("call "), n("result "))
}

#[test]
fn responses_and_calls_past_their_bounds_are_forgotten() {
    assert_eq!(gemini::MESSAGES_MAX, gemini::CALLS_MAX);
    let response = |n: usize| {
        format!(
            r#"{{"id":"m{n}","type":"gemini","tokens":{{"input":1,"output":1}},"toolCalls":[{{"id":"c{n}","name":"run_shell_command","args":{{"command":"true"}},"status":"success","result":[{{"functionResponse":{{"response":{{"output":"x"}}}}}}]}}]}}"#
        )
    };
    let mut text = String::from("{\"sessionId\":\"s\",\"projectHash\":\"h\"}\n");
    for n in 0..=gemini::MESSAGES_MAX {
        text.push_str(&response(n));
        text.push('\n');
    }
    let within = gemini::MESSAGES_MAX + 1;
    // Every response and call once; a copy of the last is still known.
    let last = response(gemini::MESSAGES_MAX);
    assert_eq!(counts(&format!("{text}{last}\n")), (within, within, within));
    // The first was forgotten when the maps were full: its copy counts again.
    let (usage, calls, results) = counts(&format!("{text}{}\n", response(0)));
    assert_eq!(
        usage,
        within + 1,
        "the response map kept more than its bound"
    );
    assert_eq!(
        (calls, results),
        (within + 1, within + 1),
        "the call map kept more than its bound"
    );
}

#[test]
fn a_gemini_working_directory_past_its_bound_is_unknown() {
    let file = root().join(format!("{CHATS}session-2026-12-07T06-19-24f8619f.jsonl"));
    let text = fs::read_to_string(file).unwrap();
    let long = format!("/{}", "d".repeat(5_000));
    let longer = text.replace("  - /home/dev/run/proj\\n", &format!("  - {long}\\n"));
    assert!(
        longer.contains(&long),
        "the chat names no workspace directory"
    );
    for (text, want) in [(&text, "Some(\"/home/dev/run/proj\")"), (&longer, "None")] {
        let mut sink = Recorder::default();
        let budget = Budget::new(session_scan::Limits::default());
        gemini::read(
            Path::new("x.jsonl"),
            &mut text.as_bytes(),
            &mut sink,
            &budget,
        );
        assert!(
            sink.events[0].contains(&format!("cwd={want} ")),
            "{}",
            sink.events[0]
        );
    }
}

#[test]
fn a_call_no_result_ended_is_unresolved() {
    // A chat whose client was stopped while the call ran: recorded, never completed.
    let dir = tempfile::tempdir().unwrap();
    let chat = dir.path().join("session-2026-12-07T06-00-00000000.jsonl");
    fs::write(
        &chat,
        concat!(
            r#"{"sessionId":"s","projectHash":"h","kind":"main"}"#,
            "\n",
            r#"{"id":"m","type":"gemini","tokens":{"input":4,"output":2},"toolCalls":[{"id":"c","name":"run_shell_command","args":{"command":"sleep 9"},"status":"executing"}]}"#,
            "\n",
        ),
    )
    .unwrap();
    let report = session_scan::scan(
        &[chat],
        session_scan::Options {
            assume: session_scan::Assume::default(),
            jobs: 1,
            progress: false,
            limits: session_scan::Limits::default(),
        },
    )
    .unwrap();
    assert_eq!(
        (
            report.input.calls,
            report.input.unresolved_calls,
            report.input.tokens.total
        ),
        (0, 1, 6)
    );
}
