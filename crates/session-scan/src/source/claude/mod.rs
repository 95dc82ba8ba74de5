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
use std::io::Read;
use std::path::Path;

use advisor_core::{Failure, Outcome, Success};
use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::json::{each, or_default, rendered_text};
use super::time::{self, Stamp};
use crate::budget::{Budget, Strings};
use crate::model::{Format, Millis, Problem, Record, SessionHeader, Sink, StepId, Usage};

mod drive;
mod shapes;

use shapes::{Block, Head, Message, Streams, Tokens};

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

/// Reads one transcript from `input`, within `budget`.
pub fn read(path: &Path, input: &mut dyn Read, sink: &mut dyn Sink, budget: &Budget) {
    let mut reader = Reader {
        path,
        sink,
        budget,
        session: None,
        begun: false,
        steps: Steps::default(),
        pending: None,
    };
    drive(path, input, &mut reader, budget);
    reader.finish();
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
    budget: &'a Budget,
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

    fn line(&mut self, number: u64, text: &[u8]) -> Result<(), String> {
        self.read_line(number, text)
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

    /// A problem on line `number` that does not stop the line being read.
    fn note(&mut self, number: u64, what: String) {
        self.sink.problem(Problem {
            path: self.path.to_owned(),
            line: Some(number),
            what,
            stopped: false,
        });
    }

    fn read_line(&mut self, number: u64, text: &[u8]) -> Result<(), String> {
        let head: Head<'_> = serde_json::from_slice(text).map_err(|e| not_json(&e))?;
        if self.session.is_none() {
            self.session = head.session.map(|s| self.budget.text(s.into_owned()));
        }
        // The session begins with the first line that names its directory
        // (queue operations before the prompt name none), or before its
        // first record, or at the end. A directory longer than the bound
        // is unknown.
        if let Some(cwd) = head.cwd {
            let cwd = Some(cwd.into_owned()).filter(|c| c.len() <= self.budget.limits().cwd_bytes);
            self.begin(cwd);
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
        let stamp = match &head.timestamp {
            None => Stamp::Absent,
            Some(text) => Stamp::of_text(Some(text.as_deref().unwrap_or(""))),
        };
        let at = match stamp {
            Stamp::Refused => {
                self.note(number, time::refused("timestamp"));
                None
            }
            stamp => stamp.at(),
        };
        let Some(message) = head.message else {
            return Ok(());
        };
        if assistant {
            self.assistant(number, message, at);
        } else {
            self.user(message, head.tool_use_result, at);
        }
        Ok(())
    }

    fn assistant(&mut self, number: u64, message: &RawValue, at: Option<Millis>) {
        let Ok(message) = serde_json::from_str::<Message<'_>>(message.get()) else {
            return;
        };
        let usage = message.usage.map(|u| usage(Some(u)));
        let id = message.id.map(|id| self.budget.text(id.into_owned()));
        let (step, new) = self.steps.of(id.as_deref());
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
        let Some(content) = message.content else {
            return;
        };
        each(content, |block| {
            let block: Block<'_> = or_default(Some(block));
            if block.kind.as_deref() != Some("tool_use") {
                return;
            }
            let (Some(call), Some(tool)) = (block.id, block.name) else {
                return;
            };
            let call = self.budget.text(call.into_owned());
            let tool = self.budget.text(tool.into_owned());
            // Absent or `null` input is `{}`, as the hook hands it on.
            let built = block
                .input
                .map(|raw| self.budget.arguments(raw, Strings::Kept));
            let mut arguments = match built {
                None | Some(Ok(Value::Null)) => Value::Object(Default::default()),
                Some(Ok(arguments)) => arguments,
                Some(Err(why)) => {
                    self.note(number, self.budget.not_built("a `tool_use` input", why));
                    Value::Null
                }
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
        });
    }

    fn user(&mut self, message: &RawValue, tool_use_result: Option<&RawValue>, at: Option<Millis>) {
        #[derive(Deserialize, Default)]
        struct Content<'a> {
            #[serde(borrow)]
            content: Option<&'a RawValue>,
        }
        let Some(content) = or_default::<Content<'_>>(Some(message)).content else {
            return;
        };
        let is_result = |block: &RawValue| {
            or_default::<Block<'_>>(Some(block)).kind.as_deref() == Some("tool_result")
        };
        let mut results = 0usize;
        each(content, |block| results += usize::from(is_result(block)));
        // `toolUseResult` is the record's one result's; with several results
        // in one record it is not known whose, so each one's text is used.
        let streams = match tool_use_result {
            Some(result) if results == 1 && result.get().starts_with('{') => {
                Some(streams(&or_default(Some(result))))
            }
            _ => None,
        };
        let mut streams = streams;
        each(content, |block| {
            let block: Block<'_> = or_default(Some(block));
            if block.kind.as_deref() != Some("tool_result") {
                return;
            }
            let Some(call) = block.tool_use_id else {
                return;
            };
            let failed = block.is_error == Some(true);
            let text = rendered_text(block.content);
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
                    // The one result's streams are its text.
                    content: streams.take().unwrap_or(text),
                })
            };
            self.sink.record(Record::Result {
                call: self.budget.text(call.into_owned()),
                failed,
                outcome,
                at,
            });
        });
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
fn usage(usage: Option<&RawValue>) -> Usage {
    let t: Tokens = or_default(usage);
    let n = |v: Option<u64>| v.unwrap_or(0);
    Usage {
        input: n(t.input_tokens)
            .saturating_add(n(t.cache_creation_input_tokens))
            .saturating_add(n(t.cache_read_input_tokens)),
        output: n(t.output_tokens),
    }
}

/// A result object's `stdout` and `stderr`, joined as the hook joins them
/// (`hook::payload::streams`); a stream that is not a string is no text.
fn streams(result: &Streams<'_>) -> String {
    let (stdout, stderr) = (
        result.stdout.as_deref().unwrap_or(""),
        result.stderr.as_deref().unwrap_or(""),
    );
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
