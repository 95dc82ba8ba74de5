//! Claude Code transcripts (`~/.claude/projects/<project>/<session>.jsonl`).
//!
//! `docs/scan/transcripts.md` describes the records. Every line is read for
//! its `type` (and `sessionId`, `cwd`) only; `user` and `assistant` lines,
//! the conversation, are read in full. Results are handed on as Claude Code's
//! hook hands them to the families (`sandbox-advisor`'s `hook::payload`), so
//! the scan recognizes what the live hook would.
//!
//! The line loop and problem wording ([`drive`]) are shared with the Codex
//! reader.

use std::collections::{HashMap, VecDeque};
use std::io::BufRead;
use std::path::Path;

use advisor_core::{Failure, Outcome, Success};
use serde::Deserialize;
use serde_json::Value;

use super::time;
use crate::model::{Format, Millis, Problem, Record, SessionHeader, Sink, StepId, Usage};

mod drive;

use super::platform;
pub(super) use drive::{LineReader, drive, not_json};

/// The message ids remembered for grouping assistant records into steps. A
/// record whose `message.id` was seen among the last this many distinct ids
/// belongs to that step; an older one starts a new step (and its usage is
/// counted again). The records of one response are written together, so this
/// bound only matters for a file that interleaves thousands of responses.
pub const STEP_IDS_KEPT: usize = 4_096;

/// The field of a `Bash` call's input left out, as the hook leaves it out
/// (`hook::payload::BASH_NOTE`).
const BASH_NOTE: &str = "description";

/// How a failed result's text is rendered for the model, as the hook renders
/// a `PostToolUseFailure.error` (`hook::payload::FAILURE_ENVELOPE`).
const FAILURE_ENVELOPE: &str = "Error: ";

/// Reads one transcript.
pub fn read(path: &Path, input: &mut dyn BufRead, sink: &mut dyn Sink) {
    let mut reader = Reader {
        path,
        sink,
        session: None,
        begun: false,
        steps: Steps::default(),
        pending: None,
    };
    drive(path, input, &mut reader);
    reader.finish();
}

/// What every line is read for first: its kind, and the session's facts.
#[derive(Deserialize)]
struct Head<'a> {
    #[serde(rename = "type", borrow)]
    kind: std::borrow::Cow<'a, str>,
    #[serde(rename = "sessionId", default)]
    session: Option<String>,
    #[serde(default)]
    cwd: Option<String>,
}

/// A `user` or `assistant` line, read in full.
#[derive(Deserialize)]
struct Entry {
    #[serde(default)]
    timestamp: Option<String>,
    #[serde(default)]
    message: Option<Value>,
    #[serde(rename = "toolUseResult", default)]
    tool_use_result: Option<Value>,
}

/// The usage of the response whose records are being read, counted once
/// the next response starts (or the file ends).
struct Pending {
    step: StepId,
    usage: Usage,
    at: Option<Millis>,
}

/// Distinct `message.id`s to step numbers, the last [`STEP_IDS_KEPT`] kept.
#[derive(Default)]
struct Steps {
    ids: HashMap<String, StepId>,
    order: VecDeque<String>,
    last: u64,
}

impl Steps {
    /// The step of `id`, and whether it is new.
    fn of(&mut self, id: Option<&str>) -> (StepId, bool) {
        if let Some(step) = id.and_then(|id| self.ids.get(id)) {
            return (*step, false);
        }
        self.last += 1;
        let step = StepId(self.last);
        if let Some(id) = id {
            if self.order.len() >= STEP_IDS_KEPT {
                if let Some(old) = self.order.pop_front() {
                    self.ids.remove(&old);
                }
            }
            self.order.push_back(id.to_owned());
            self.ids.insert(id.to_owned(), step);
        }
        (step, true)
    }
}

struct Reader<'a> {
    path: &'a Path,
    sink: &'a mut dyn Sink,
    /// The session's id, once a line named it.
    session: Option<String>,
    begun: bool,
    steps: Steps,
    pending: Option<Pending>,
}

impl LineReader for Reader<'_> {
    fn sink(&mut self) -> &mut dyn Sink {
        self.sink
    }

    fn line(&mut self, text: &[u8]) -> Result<(), String> {
        self.read_line(text)
    }
}

impl Reader<'_> {
    /// Begins the session, if one was named and it has not begun.
    fn begin(&mut self, cwd: Option<String>) {
        let Some(id) = self.session.clone().filter(|_| !self.begun) else {
            return;
        };
        self.begun = true;
        self.sink.begin(SessionHeader {
            path: self.path.to_owned(),
            format: Format::ClaudeCode,
            id,
            parent: None,
            subagent: false,
            platform: cwd.as_deref().and_then(platform),
            cwd,
        });
    }

    fn read_line(&mut self, text: &[u8]) -> Result<(), String> {
        let head: Head<'_> = serde_json::from_slice(text).map_err(|e| not_json(&e))?;
        if self.session.is_none() {
            self.session = head.session;
        }
        // The session begins with the first line that names its directory
        // (queue operations before the prompt name none), or before its
        // first record, or at the end.
        if head.cwd.is_some() {
            self.begin(head.cwd);
        }
        let assistant = match &*head.kind {
            "assistant" => true,
            "user" => false,
            _ => return Ok(()),
        };
        if self.session.is_none() {
            return Err(format!(
                "a `{}` record before any `sessionId`; skipped",
                head.kind
            ));
        }
        self.begin(None);
        let entry: Entry = serde_json::from_slice(text).map_err(|e| not_json(&e))?;
        let at = entry.timestamp.as_deref().and_then(time::parse);
        let Some(message) = entry.message else {
            return Ok(());
        };
        if assistant {
            self.assistant(message, at);
        } else {
            self.user(message, entry.tool_use_result, at);
        }
        Ok(())
    }

    fn assistant(&mut self, message: Value, at: Option<Millis>) {
        let Value::Object(mut message) = message else {
            return;
        };
        let usage = message.get("usage").map(usage);
        let (step, new) = self.steps.of(message.get("id").and_then(Value::as_str));
        if new {
            self.flush();
            self.pending = Some(Pending {
                step,
                usage: usage.unwrap_or_default(),
                at,
            });
        } else if let (Some(pending), Some(usage)) = (&mut self.pending, usage) {
            // Another record of the response being read: its usage is the
            // same response's, perhaps later in the stream; keep the larger.
            if pending.step == step {
                pending.usage.input = pending.usage.input.max(usage.input);
                pending.usage.output = pending.usage.output.max(usage.output);
            }
        }
        let Some(Value::Array(blocks)) = message.remove("content") else {
            return;
        };
        for block in blocks {
            let Value::Object(mut block) = block else {
                continue;
            };
            if block.get("type").and_then(Value::as_str) != Some("tool_use") {
                continue;
            }
            let (Some(Value::String(call)), Some(Value::String(tool))) =
                (block.remove("id"), block.remove("name"))
            else {
                continue;
            };
            let mut arguments = match block.remove("input") {
                None | Some(Value::Null) => Value::Object(Default::default()),
                Some(input) => input,
            };
            if tool == "Bash" {
                if let Value::Object(fields) = &mut arguments {
                    fields.remove(BASH_NOTE);
                }
            }
            self.sink.record(Record::Call {
                call,
                step,
                tool,
                arguments,
                at,
            });
        }
    }

    fn user(&mut self, message: Value, tool_use_result: Option<Value>, at: Option<Millis>) {
        let Some(Value::Array(blocks)) = message.get("content") else {
            return;
        };
        let results: Vec<_> = blocks
            .iter()
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_result"))
            .collect();
        // `toolUseResult` is the record's one result's; with several results
        // in one record it is not known whose, so each one's text is used.
        let streams = match (&tool_use_result, results.len()) {
            (Some(Value::Object(result)), 1) => Some(streams(result)),
            _ => None,
        };
        for block in results {
            let Some(call) = block.get("tool_use_id").and_then(Value::as_str) else {
                continue;
            };
            let failed = block.get("is_error").and_then(Value::as_bool) == Some(true);
            let text = text(block.get("content"));
            let outcome = if failed {
                Outcome::Failure(Failure {
                    content: format!("{FAILURE_ENVELOPE}{text}"),
                    message: text,
                    members: Vec::new(),
                    code: None,
                })
            } else {
                Outcome::Success(Success {
                    value: Value::Null,
                    content: streams.clone().unwrap_or(text),
                })
            };
            self.sink.record(Record::Result {
                call: call.to_owned(),
                failed,
                outcome,
                at,
            });
        }
    }

    /// Counts the usage of the response last read.
    fn flush(&mut self) {
        if let Some(Pending { step, usage, at }) = self.pending.take() {
            self.sink.record(Record::Usage { step, usage, at });
        }
    }

    fn finish(&mut self) {
        self.begin(None);
        if self.begun {
            self.flush();
            self.sink.end();
        } else {
            self.sink.problem(Problem {
                path: self.path.to_owned(),
                line: None,
                what: "no record names a `sessionId`; no session read".into(),
                stopped: false,
            });
        }
    }
}

/// A response's tokens: every input token (cache reads and writes too) and
/// the output.
fn usage(usage: &Value) -> Usage {
    let n = |name: &str| usage.get(name).and_then(Value::as_u64).unwrap_or(0);
    Usage {
        input: n("input_tokens")
            .saturating_add(n("cache_creation_input_tokens"))
            .saturating_add(n("cache_read_input_tokens")),
        output: n("output_tokens"),
    }
}

/// A `tool_result`'s `content`: a string, or the `text` of its text blocks
/// joined by newlines (anything else is no text).
fn text(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(blocks)) => blocks
            .iter()
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// A result object's `stdout` and `stderr`, joined as the hook joins them
/// (`hook::payload::streams`); a stream that is not a string is no text.
fn streams(result: &serde_json::Map<String, Value>) -> String {
    let stream = |name: &str| result.get(name).and_then(Value::as_str).unwrap_or("");
    let (stdout, stderr) = (stream("stdout"), stream("stderr"));
    match (stdout.is_empty(), stderr.is_empty()) {
        (_, true) => stdout.to_owned(),
        (true, false) => stderr.to_owned(),
        (false, false) => format!("{stdout}\n{stderr}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_keep_the_last_ids_only() {
        let mut steps = Steps::default();
        assert_eq!(steps.of(Some("a")), (StepId(1), true));
        assert_eq!(steps.of(Some("a")), (StepId(1), false));
        assert_eq!(steps.of(None), (StepId(2), true));
        assert_eq!(steps.of(None), (StepId(3), true));
        for i in 0..STEP_IDS_KEPT - 1 {
            steps.of(Some(&i.to_string()));
        }
        assert_eq!(steps.of(Some("a")), (StepId(1), false));
        steps.of(Some("one more"));
        assert_eq!(steps.ids.len(), STEP_IDS_KEPT);
        // `a` was the oldest: forgotten, so a new step.
        assert_eq!(
            steps.of(Some("a")),
            (StepId(4 + STEP_IDS_KEPT as u64), true)
        );
    }
}
