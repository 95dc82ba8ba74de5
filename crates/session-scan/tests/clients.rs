//! The Claude Code and Codex readers against the clients' own session files
//! (`examples/transcripts/`, described in `docs/scan/transcripts.md`) and
//! small fixtures derived from them (`tests/fixtures/clients/README.md`).
//!
//! Every arm compares the whole record stream, rendered one line per event,
//! so any change in a call, a result, a step or a token figure fails it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fs;
use std::path::{Path, PathBuf};

use advisor_core::{Failure, Outcome, Success};
use serde_json::Value;
use session_scan::budget::Budget;
use session_scan::model::{Problem, Record, SessionHeader, Sink};
use session_scan::source::{claude, codex};

/// The workspace root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Records every event, rendered.
#[derive(Default)]
struct Recorder {
    path: PathBuf,
    events: Vec<String>,
    records: Vec<Record>,
    decoded: Option<u64>,
}

fn at(at: Option<session_scan::model::Millis>) -> String {
    at.map_or("-".into(), |m| m.0.to_string())
}

impl Sink for Recorder {
    fn begin(&mut self, h: SessionHeader) {
        assert_eq!(h.path, self.path);
        assert_eq!((h.parent, h.subagent), (None, false));
        self.events.push(format!(
            "begin {} {} cwd={:?} platform={:?}",
            h.format.as_str(),
            h.id,
            h.cwd,
            h.platform
        ));
    }

    fn record(&mut self, record: Record) {
        self.events.push(match &record {
            Record::Mode(mode) => format!("mode {}", mode.as_str()),
            Record::Usage { step, usage, at: t } => {
                format!(
                    "usage step={} {}/{} @{}",
                    step.0,
                    usage.input,
                    usage.output,
                    at(*t)
                )
            }
            Record::Call {
                call,
                step,
                tool,
                arguments,
                at: t,
            } => format!("call {call} step={} {tool} {arguments} @{}", step.0, at(*t)),
            Record::Result {
                call,
                failed,
                outcome,
                at: t,
            } => format!(
                "result {call} failed={failed} {} @{}",
                outcome_text(outcome),
                at(*t)
            ),
            Record::Spoken { .. } => "spoken".into(),
        });
        self.records.push(record);
    }

    fn end(&mut self) {
        self.events.push("end".into());
    }

    fn problem(&mut self, p: Problem) {
        assert_eq!(p.path, self.path);
        let line = p.line.map_or("-".into(), |l| l.to_string());
        self.events.push(format!(
            "problem line={line} stopped={} {}",
            p.stopped, p.what
        ));
    }

    fn decoded(&mut self, bytes: u64) {
        self.decoded = Some(self.decoded.unwrap_or(0) + bytes);
    }
}

fn outcome_text(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Failure(f) => {
            assert_eq!((f.members.len(), &f.code), (0, &None));
            format!("failure {:?} {:?}", f.message, f.content)
        }
        Outcome::Success(s) => {
            assert_eq!(s.value, Value::Null);
            format!("success {:?}", s.content)
        }
    }
}

#[derive(Clone, Copy)]
enum Client {
    Claude,
    Codex,
}

/// Reads `file` (relative to the workspace root) and compares every event.
fn check(client: Client, file: &str, expected: &[String]) -> Recorder {
    let path = root().join(file);
    let bytes = fs::read(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
    let mut sink = Recorder {
        path: path.clone(),
        ..Recorder::default()
    };
    let mut input = &bytes[..];
    let budget = Budget::new(session_scan::Limits::default());
    match client {
        Client::Claude => claude::read(&path, &mut input, &mut sink, &budget),
        Client::Codex => codex::read(&path, &mut input, &mut sink, &budget),
    }
    assert_eq!(sink.events, expected, "{file}");
    assert_eq!(
        sink.decoded,
        Some(bytes.len() as u64),
        "{file}: decoded bytes"
    );
    sink
}

fn call(id: &str, step: u64, tool: &str, args: &str, t: i64) -> String {
    format!("call {id} step={step} {tool} {args} @{t}")
}
fn usage(step: u64, input: u64, output: u64, t: i64) -> String {
    format!("usage step={step} {input}/{output} @{t}")
}
/// A result as Claude Code's `PostToolUseFailure` hands it: `error` is the text.
fn failure(id: &str, text: &str, t: i64) -> String {
    format!(
        "result {id} failed=true failure {text:?} {:?} @{t}",
        format!("Error: {text}")
    )
}
/// A result the hook hands as a success with `content`.
fn success(id: &str, failed: bool, content: &str, t: &str) -> String {
    format!("result {id} failed={failed} success {content:?} @{t}")
}
fn s(text: &str) -> String {
    text.to_owned()
}

const CC_NET: &str = "Exit code 56\ncurl: (56) CONNECT tunnel failed, response 403\n\n<sandbox_violations>\ndeny network-outbound example.com:443 (user denied)\n</sandbox_violations>";
const CC_BWRAP: &str = "Exit code 1\nbwrap: Creating new namespace failed: nesting depth or /proc/sys/user/max_*_namespaces exceeded (ENOSPC)";
const CX_GIT: &str =
    "fatal: Unable to create '/home/dev/run/proj/.git/index.lock': Read-only file system\n";
const CX_BWRAP: &str = "bwrap: Creating new namespace failed: nesting depth or /proc/sys/user/max_*_namespaces exceeded (ENOSPC)\n";
const CURL: &str = r#"{"command":"curl -sS https://example.com"}"#;
const ECHO: &str = r#"{"command":"echo hello"}"#;
const GIT: &str = r#"{"command":"git add -A && git commit -m x"}"#;
const FIXTURES: &str = "crates/session-scan/tests/fixtures/clients/";

/// The results of `sink` that failed, with their outcomes.
fn failed(sink: &Recorder) -> Vec<&Outcome> {
    sink.records
        .iter()
        .filter_map(|r| match r {
            Record::Result {
                failed: true,
                outcome,
                ..
            } => Some(outcome),
            _ => None,
        })
        .collect()
}

/// A field of a recorded hook payload in `docs/hooks/`, with the run's
/// directory put back as the transcripts spell it (`/home/dev/run`).
fn hook(file: &str, field: &str) -> Value {
    let text = fs::read_to_string(root().join("docs/hooks").join(file))
        .unwrap()
        .replace("<run>", "/home/dev/run");
    let payload: Value = serde_json::from_str(&text).unwrap();
    payload[field].clone()
}

/// What the hook makes of a Claude Code `PostToolUseFailure` (`hook::payload::failure`).
fn hook_failure(file: &str) -> Outcome {
    let error = hook(file, "error").as_str().unwrap().to_owned();
    Outcome::Failure(Failure {
        content: format!("Error: {error}"),
        message: error,
        members: vec![],
        code: None,
    })
}

/// What the hook makes of a Codex `PostToolUse` (a string `tool_response`).
fn hook_success(file: &str) -> Outcome {
    Outcome::Success(Success {
        value: Value::Null,
        content: hook(file, "tool_response").as_str().unwrap().to_owned(),
    })
}

#[test]
fn claude_network_denied() {
    let sink = check(
        Client::Claude,
        "examples/transcripts/claude-code/sandbox-network-denied.jsonl",
        &[
            s(
                r#"begin claude-code c72dcd73-8913-4917-a01b-e2de3e0093ec cwd=Some("/home/dev/run/proj") platform=Some(Linux)"#,
            ),
            call("toolu_scripted_0", 1, "Bash", CURL, 1_796_201_323_085),
            failure("toolu_scripted_0", CC_NET, 1_796_201_323_383),
            usage(1, 10, 5, 1_796_201_323_085),
            call("toolu_scripted_1", 2, "Bash", CURL, 1_796_201_323_408),
            failure("toolu_scripted_1", CC_NET, 1_796_201_323_659),
            usage(2, 10, 5, 1_796_201_323_408),
            call(
                "toolu_scripted_2",
                3,
                "Bash",
                r#"{"command":"echo ok"}"#,
                1_796_201_323_681,
            ),
            success("toolu_scripted_2", false, "ok", "1796201323916"),
            usage(3, 10, 5, 1_796_201_323_681),
            usage(4, 10, 5, 1_796_201_323_943),
            s("end"),
        ],
    );
    let hooked = hook_failure("claude-code/sandbox-curl-example.PostToolUseFailure.json");
    assert_eq!(failed(&sink), [&hooked, &hooked]);
    // The hook's tool_input, less the note the hook leaves out.
    let mut input = hook(
        "claude-code/sandbox-curl-example.PreToolUse.json",
        "tool_input",
    );
    input.as_object_mut().unwrap().remove("description");
    assert_eq!(input.to_string(), CURL);
}

#[test]
fn claude_no_userns() {
    let sink = check(
        Client::Claude,
        "examples/transcripts/claude-code/sandbox-no-userns.jsonl",
        &[
            s(
                r#"begin claude-code e314ff14-70ee-4346-8790-1149f6b61a22 cwd=Some("/home/dev/run/proj") platform=Some(Linux)"#,
            ),
            call("toolu_scripted_0", 1, "Bash", ECHO, 1_796_201_325_124),
            failure("toolu_scripted_0", CC_BWRAP, 1_796_201_325_308),
            usage(1, 10, 5, 1_796_201_325_124),
            call("toolu_scripted_1", 2, "Bash", ECHO, 1_796_201_325_340),
            failure("toolu_scripted_1", CC_BWRAP, 1_796_201_325_533),
            usage(2, 10, 5, 1_796_201_325_340),
            call("toolu_scripted_2", 3, "Bash", ECHO, 1_796_201_325_552),
            failure("toolu_scripted_2", CC_BWRAP, 1_796_201_325_760),
            usage(3, 10, 5, 1_796_201_325_552),
            usage(4, 10, 5, 1_796_201_325_780),
            s("end"),
        ],
    );
    let hooked = hook_failure("claude-code/sandbox-no-userns.PostToolUseFailure.json");
    assert_eq!(failed(&sink), [&hooked, &hooked, &hooked]);
}

#[test]
fn claude_clean() {
    let sink = check(
        Client::Claude,
        "examples/transcripts/claude-code/clean.jsonl",
        &[
            s(
                r#"begin claude-code e9841c9f-634c-42ab-997d-5fc674d8299e cwd=Some("/home/dev/run/proj") platform=Some(Linux)"#,
            ),
            call("toolu_scripted_0", 1, "Bash", ECHO, 1_796_201_326_947),
            success("toolu_scripted_0", false, "hello", "1796201327184"),
            usage(1, 10, 5, 1_796_201_326_947),
            call(
                "toolu_scripted_1",
                2,
                "Bash",
                r#"{"command":"ls"}"#,
                1_796_201_327_215,
            ),
            // The hook's text is the streams, not "(Bash completed with no output)".
            success("toolu_scripted_1", false, "", "1796201327433"),
            usage(2, 10, 5, 1_796_201_327_215),
            usage(3, 10, 5, 1_796_201_327_455),
            s("end"),
        ],
    );
    assert!(failed(&sink).is_empty());
    let stdout =
        hook("claude-code/echo-success.PostToolUse.json", "tool_response")["stdout"].clone();
    assert_eq!(stdout, "hello");
}

#[test]
fn codex_git_commit_protected() {
    let sink = check(
        Client::Codex,
        "examples/transcripts/codex/git-commit-protected.jsonl",
        &[
            s(
                r#"begin codex 01a235f1-2e7f-7372-8558-dd98f5bced07 cwd=Some("/home/dev/run/proj") platform=Some(Linux)"#,
            ),
            s("mode workspace-write"),
            call("call_scripted_0", 1, "Bash", GIT, 1_796_201_328_381),
            usage(1, 10, 5, 1_796_201_328_385),
            success("call_scripted_0", true, CX_GIT, "1796201328571"),
            call("call_scripted_1", 2, "Bash", GIT, 1_796_201_328_602),
            usage(2, 10, 5, 1_796_201_328_604),
            success("call_scripted_1", true, CX_GIT, "1796201328778"),
            usage(3, 10, 5, 1_796_201_328_806),
            s("end"),
        ],
    );
    let hooked = hook_success("codex/git-commit.PostToolUse.json");
    assert_eq!(failed(&sink), [&hooked, &hooked]);
    assert_eq!(
        hook("codex/git-commit.PreToolUse.json", "tool_input").to_string(),
        GIT
    );
    assert_eq!(
        hook("codex/git-commit.PreToolUse.json", "tool_name"),
        "Bash"
    );
}

#[test]
fn codex_no_userns() {
    let sink = check(
        Client::Codex,
        "examples/transcripts/codex/no-userns.jsonl",
        &[
            s(
                r#"begin codex 01a235f1-3346-7480-84f6-2d3d22f983ed cwd=Some("/home/dev/run/proj") platform=Some(Linux)"#,
            ),
            s("mode workspace-write"),
            call("call_scripted_0", 1, "Bash", ECHO, 1_796_201_329_595),
            usage(1, 10, 5, 1_796_201_329_599),
            success("call_scripted_0", true, CX_BWRAP, "1796201329772"),
            call("call_scripted_1", 2, "Bash", ECHO, 1_796_201_329_798),
            usage(2, 10, 5, 1_796_201_329_799),
            success("call_scripted_1", true, CX_BWRAP, "1796201329948"),
            call("call_scripted_2", 3, "Bash", ECHO, 1_796_201_329_969),
            usage(3, 10, 5, 1_796_201_329_970),
            success("call_scripted_2", true, CX_BWRAP, "1796201330124"),
            usage(4, 10, 5, 1_796_201_330_147),
            s("end"),
        ],
    );
    let hooked = hook_success("codex/no-userns.PostToolUse.json");
    assert_eq!(failed(&sink), [&hooked, &hooked, &hooked]);
}

#[test]
fn codex_clean() {
    let sink = check(
        Client::Codex,
        "examples/transcripts/codex/clean.jsonl",
        &[
            s(
                r#"begin codex 01a235f1-38e9-7643-a2df-d1a9a9b26990 cwd=Some("/home/dev/run/proj") platform=Some(Linux)"#,
            ),
            s("mode workspace-write"),
            call("call_scripted_0", 1, "Bash", ECHO, 1_796_201_331_031),
            usage(1, 10, 5, 1_796_201_331_036),
            success("call_scripted_0", false, "hello\n", "1796201331254"),
            call(
                "call_scripted_1",
                2,
                "Bash",
                r#"{"command":"ls"}"#,
                1_796_201_331_279,
            ),
            usage(2, 10, 5, 1_796_201_331_284),
            success("call_scripted_1", false, "", "1796201331462"),
            usage(3, 10, 5, 1_796_201_331_486),
            s("end"),
        ],
    );
    assert!(failed(&sink).is_empty());
    assert_eq!(
        hook("codex/echo-success.PostToolUse.json", "tool_response"),
        "hello\n"
    );
}

const BWRAP_NS: &str = "bwrap: Creating new namespace failed: nesting depth or /proc/sys/user/max_*_namespaces exceeded (ENOSPC)";

#[test]
fn claude_success_that_mentions_bwrap_stays_a_success() {
    check(
        Client::Claude,
        &format!("{FIXTURES}claude-success-mentions-bwrap.jsonl"),
        &[
            s(
                r#"begin claude-code c72dcd73-8913-4917-a01b-e2de3e0093ec cwd=Some("/home/dev/proj") platform=Some(Linux)"#,
            ),
            call(
                "toolu_scripted_0",
                1,
                "Bash",
                r#"{"command":"bwrap --version"}"#,
                1_796_201_323_085,
            ),
            // stdout and stderr of `toolUseResult`, joined as the hook joins them.
            success(
                "toolu_scripted_0",
                false,
                &format!("bubblewrap 0.8.0\n{BWRAP_NS}"),
                "1796201323916",
            ),
            usage(1, 10, 5, 1_796_201_323_085),
            // Not Bash: `description` is kept.
            call(
                "toolu_scripted_1",
                2,
                "Read",
                r#"{"file_path":"/home/dev/proj/bwrap.log","description":"kept: not Bash"}"#,
                1_796_201_323_681,
            ),
            // No `toolUseResult`: the text blocks of `content`, joined.
            success(
                "toolu_scripted_1",
                false,
                "bwrap: setting up uid map: Permission denied\nline 2",
                "1796201323916",
            ),
            usage(2, 10, 5, 1_796_201_323_681),
            s("end"),
        ],
    );
}

#[test]
fn claude_response_in_several_records_is_one_step() {
    check(
        Client::Claude,
        &format!("{FIXTURES}claude-one-response-several-records.jsonl"),
        &[
            s(
                r#"begin claude-code c72dcd73-8913-4917-a01b-e2de3e0093ec cwd=Some("/Users/dev/proj") platform=Some(Macos)"#,
            ),
            call("toolu_scripted_0", 1, "Bash", CURL, 1_796_201_323_085),
            call(
                "toolu_scripted_1",
                1,
                "Bash",
                r#"{"command":"curl -sS https://example.org"}"#,
                1_796_201_323_085,
            ),
            failure(
                "toolu_scripted_0",
                "Exit code 6\ncurl: (6) Could not resolve host: example.com",
                1_796_201_323_383,
            ),
            failure("toolu_scripted_1", CC_NET, 1_796_201_323_383),
            // 10 + 7 cache writes + 100 cache reads in; the largest output of the three records.
            usage(1, 117, 5, 1_796_201_323_085),
            usage(2, 10, 5, 1_796_201_323_943),
            s("end"),
        ],
    );
}

#[test]
fn claude_malformed_lines_are_named_and_skipped() {
    check(
        Client::Claude,
        &format!("{FIXTURES}claude-malformed.jsonl"),
        &[
            s("problem line=2 stopped=false JSON that ends early (column 120); skipped"),
            s(
                r#"begin claude-code c72dcd73-8913-4917-a01b-e2de3e0093ec cwd=Some("C:\\Users\\dev\\proj") platform=Some(Win32)"#,
            ),
            s("problem line=4 stopped=false not valid JSON (column 2); skipped"),
            s("problem line=5 stopped=false JSON of an unexpected shape (column 30); skipped"),
            // `is_error` that is not `true` is no failure; no content is no text.
            success("toolu_odd", false, "", "-"),
            call("toolu_scripted_0", 1, "Bash", CURL, 1_796_201_323_085),
            failure("toolu_scripted_0", CC_NET, 1_796_201_323_383),
            s(
                "problem line=9 stopped=false the last line is cut short (no newline, not whole JSON); skipped",
            ),
            usage(1, 10, 5, 1_796_201_323_085),
            s("end"),
        ],
    );
}

#[test]
fn codex_exit_zero_is_a_success_whatever_it_says() {
    let bad_workdir =
        fs::read_to_string(root().join("docs/hooks/codex/bad-workdir.model.json")).unwrap();
    let bad_workdir: Value = serde_json::from_str(&bad_workdir).unwrap();
    let launch = bad_workdir[0]["output"].as_str().unwrap();
    check(
        Client::Codex,
        &format!("{FIXTURES}codex-exit0-readonly.jsonl"),
        &[
            s(
                r#"begin codex 01a235f1-2e7f-7372-8558-dd98f5bced07 cwd=Some("/Users/dev/proj") platform=Some(Macos)"#,
            ),
            s("mode read-only"),
            // `workdir` and `yield_time_ms` are not in the hook's tool_input.
            call(
                "call_scripted_0",
                1,
                "Bash",
                r#"{"command":"grep -c \"Read-only file system\" build.log"}"#,
                1_796_201_328_381,
            ),
            usage(1, 10, 5, 1_796_201_328_385),
            success(
                "call_scripted_0",
                false,
                "build.log: touch: cannot touch 'x': Read-only file system\n",
                "1796201328571",
            ),
            // `external-sandbox` is no mode the advisor knows: no record.
            call("call_scripted_1", 2, "Bash", ECHO, 1_796_201_328_381),
            usage(2, 12, 4, 1_796_201_328_385),
            // Could not launch: no header, a failure; the whole output is the text.
            success("call_scripted_1", true, launch, "1796201328571"),
            s("mode danger-full-access"),
            // Another function: its name, its arguments (not JSON: the text).
            call(
                "call_scripted_2",
                3,
                "update_plan",
                r#""plan: not json""#,
                1_796_201_328_381,
            ),
            // Its output has no exit header, as no tool's but exec_command's does: a success.
            success("call_scripted_2", false, "Plan updated", "1796201328571"),
            // The token_count after token_usage_records is a repeat: not counted.
            s("end"),
        ],
    );
}

#[test]
fn codex_token_count_only_counts_last_usage() {
    check(
        Client::Codex,
        &format!("{FIXTURES}codex-token-count-only.jsonl"),
        &[
            s(
                r#"begin codex 01a235f1-2e7f-7372-8558-dd98f5bced07 cwd=Some("/home/dev/proj") platform=Some(Linux)"#,
            ),
            s("mode workspace-write"),
            // The first token_count has no `info`: nothing counted.
            call("call_scripted_0", 1, "Bash", GIT, 1_796_201_328_381),
            success("call_scripted_0", true, CX_GIT, "1796201328571"),
            usage(1, 10, 5, 1_796_201_328_572),
            // The same total again (a rate-limit update): not counted.
            call("call_scripted_1", 2, "Bash", GIT, 1_796_201_328_381),
            usage(2, 7, 3, 1_796_201_328_572),
            s("end"),
        ],
    );
}

#[test]
fn codex_gaps_and_broken_lines_are_named_and_skipped() {
    check(
        Client::Codex,
        &format!("{FIXTURES}codex-ordinal-gap.jsonl"),
        &[
            s("problem line=1 stopped=false a `turn_context` line before `session_meta`; skipped"),
            s(
                r#"begin codex 01a235f1-2e7f-7372-8558-dd98f5bced07 cwd=Some("D:/work/proj") platform=Some(Win32)"#,
            ),
            call("call_scripted_0", 1, "Bash", GIT, 1_796_201_328_381),
            // Ordinal 3 is missing: the usage is still counted.
            usage(1, 10, 5, 1_796_201_328_385),
            s("problem line=4 stopped=false a line is missing before this one (`ordinal` skips)"),
            // Ordinal 5 is a broken line, not a gap.
            s("problem line=5 stopped=false JSON that ends early (column 153); skipped"),
            success("call_scripted_0", true, CX_GIT, "1796201328571"),
            // A time that is not one is named with its field; the line is still read.
            s(
                "problem line=7 stopped=false `timestamp` is not a time from 2000-01-01 to 2099-12-31 (UTC); the record is read without a time",
            ),
            s(
                "problem line=7 stopped=false a `function_call` without `call_id` or `name`; skipped",
            ),
            s("problem line=8 stopped=false a line is missing before this one (`ordinal` skips)"),
            s(
                "problem line=9 stopped=false the last line is cut short (no newline, not whole JSON); skipped",
            ),
            s("end"),
        ],
    );
}

#[test]
fn input_without_a_session_is_a_problem_not_a_panic() {
    let inputs: &[&[u8]] = &[
        b"",
        b"\n\n",
        b"\xff\xfe{",
        b"[1,2]\n",
        b"{\"type\":7}\n",
        &[b'['; 4096],
    ];
    for input in inputs {
        for client in [Client::Claude, Client::Codex] {
            let path = PathBuf::from("odd.jsonl");
            let mut sink = Recorder {
                path: path.clone(),
                ..Recorder::default()
            };
            let mut reader = *input;
            let budget = Budget::new(session_scan::Limits::default());
            match client {
                Client::Claude => claude::read(&path, &mut reader, &mut sink, &budget),
                Client::Codex => codex::read(&path, &mut reader, &mut sink, &budget),
            }
            let last = sink.events.last().cloned().unwrap_or_default();
            let want = match client {
                Client::Claude => {
                    "problem line=- stopped=false no record names a `sessionId`; no session read"
                }
                Client::Codex => {
                    "problem line=- stopped=false no `session_meta` line; no session read"
                }
            };
            assert_eq!(last, want, "{input:?}");
            assert!(sink.records.is_empty());
        }
    }
}
