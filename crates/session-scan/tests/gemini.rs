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
            Record::Usage { step, usage, at: t, .. } => format!(
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
                    Outcome::Failure(f) => format!(
                        "failure {:?} {:?} code={:?}",
                        f.message, f.content, f.code
                    ),
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
fn check(file: &str, expected: &[&str]) {
    let path = root().join(file);
    let bytes = fs::read(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
    let mut sink = Recorder::default();
    let budget = Budget::new(session_scan::Limits::default());
    gemini::read(&path, &mut &bytes[..], &mut sink, &budget);
    assert_eq!(sink.events, expected, "{file}");
    assert_eq!(sink.decoded, bytes.len() as u64, "{file}: decoded bytes");
}

#[test]
fn declined_expansion_success_and_ordinary_failure() {
    check(&format!("{CHATS}session-2026-12-07T06-19-24f8619f.jsonl"), &[]);
}

#[test]
fn allowed_once_the_same_lines_without_the_mark() {
    check(&format!("{CHATS}session-2026-12-07T06-17-783133fb.jsonl"), &[]);
}
