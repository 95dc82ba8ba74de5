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

use std::io::Read;
use std::path::Path;

use advisor_core::{Failure, Outcome, Success};
use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::json::{each, or_default, rendered_text};
use super::time::{self, Stamp};
use crate::budget::{Budget, Strings};
use crate::model::{Ending, Format, Millis, Problem, Record, SessionHeader, Sink, StepId, Usage};

mod copies;
mod drive;
mod notice;
mod shapes;
mod steps;

pub use copies::{COUNTED_KEYS_MAX, Counted, INHERITED_CALLS_MAX};
use copies::{Inherited, response_key};
use shapes::{Block, Head, Message, Streams, streams, usage};
pub use steps::STEP_IDS_KEPT;
use steps::Steps;

use super::platform;
pub(super) use drive::{LineReader, drive, not_json};

/// The field of a `Bash` call's input left out, as the hook leaves it out
/// (`hook::payload::BASH_NOTE`).
const BASH_NOTE: &str = "description";

/// How a failed result's text is rendered for the model, as the hook renders
/// a `PostToolUseFailure.error` (`hook::payload::FAILURE_ENVELOPE`).
const FAILURE_ENVELOPE: &str = "Error: ";

/// Reads one transcript from `input`, within `budget`, as the only one of
/// its directory.
pub fn read(path: &Path, input: &mut dyn Read, sink: &mut dyn Sink, budget: &Budget) {
    read_in(path, input, sink, budget, &mut Counted::default());
}

/// Reads one transcript of a directory whose files before it (by path)
/// counted the responses in `counted`.
pub fn read_in(
    path: &Path,
    input: &mut dyn Read,
    sink: &mut dyn Sink,
    budget: &Budget,
    counted: &mut Counted,
) {
    let mut reader = Reader {
        path,
        sink,
        budget,
        session: None,
        begun: false,
        steps: Steps::default(),
        pending: None,
        counted,
        inherited: Inherited::default(),
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
    /// [`response_key`], when the record names both ids.
    key: Option<u64>,
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
    counted: &'a mut Counted,
    inherited: Inherited,
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
        // A record another session's request wrote, copied here by a fork.
        let copied = matches!(
            (&head.requested_by, &self.session),
            (Some(by), Some(own)) if **by != **own
        );
        if assistant {
            self.assistant(number, message, head.request.as_deref(), copied, at);
        } else {
            self.user(message, head.tool_use_result, at);
        }
        Ok(())
    }

    fn assistant(
        &mut self,
        number: u64,
        message: &RawValue,
        request: Option<&str>,
        copied: bool,
        at: Option<Millis>,
    ) {
        let Ok(message) = serde_json::from_str::<Message<'_>>(message.get()) else {
            return;
        };
        let usage = message.usage.map(|u| usage(Some(u)));
        let key = match (&message.id, request) {
            (Some(id), Some(request)) => Some(response_key(id, request)),
            _ => None,
        };
        let id = message.id.map(|id| self.budget.text(id.into_owned()));
        let (step, new) = self.steps.of(id.as_deref());
        if new {
            self.flush();
            self.pending = Some(Pending {
                step,
                usage: usage.unwrap_or_default(),
                at,
                key,
            });
        } else if let (Some(pending), Some(usage)) = (&mut self.pending, usage) {
            // Another record of the response being read: its usage is the
            // same response's, perhaps later in the stream; the record with
            // the larger total counts (as ccusage keeps it).
            if pending.step == step && usage.total() > pending.usage.total() {
                pending.usage = usage;
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
            if copied {
                // The parent's call, counted in the parent's session.
                self.inherited.insert(call);
                return;
            }
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
        // A background task's end, told to the model as a notice.
        if let Some((call, ending)) = notice::TaskNotice::read(content) {
            let call = self.budget.text(call);
            if !self.inherited.calls.contains(&call) {
                self.sink.record(notice::result(call, ending, at));
            }
            return;
        }
        let is_result = |block: &RawValue| {
            or_default::<Block<'_>>(Some(block)).kind.as_deref() == Some("tool_result")
        };
        let mut results = 0usize;
        each(content, |block| results += usize::from(is_result(block)));
        // `toolUseResult` is the record's one result's; with several results
        // in one record it is not known whose, so each one's text is used.
        let (streams, background) = match tool_use_result {
            Some(result) if results == 1 && result.get().starts_with('{') => {
                let result: Streams<'_> = or_default(Some(result));
                (Some(streams(&result)), result.background_task.is_some())
            }
            _ => (None, false),
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
            let call = self.budget.text(call.into_owned());
            if self.inherited.calls.contains(&call) {
                return;
            }
            let failed = block.is_error == Some(true);
            let ending = match (failed, background) {
                (true, _) => Ending::Failed,
                // Started in the background: its end comes later, in a notice.
                (false, true) => Ending::StillRunning,
                (false, false) => Ending::Succeeded,
            };
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
                call,
                ending,
                outcome,
                at,
            });
        });
    }

    /// Counts the usage of the response last read: in the token totals only
    /// the first time the directory shows it.
    fn flush(&mut self) {
        if let Some(Pending {
            step,
            usage,
            at,
            key,
        }) = self.pending.take()
        {
            let copy = key.is_some_and(|key| !self.counted.first(key));
            self.sink.record(Record::Usage {
                step,
                usage,
                at,
                copy,
            });
        }
    }

    fn finish(&mut self) {
        self.begin(None);
        if self.begun {
            self.flush();
            if self.counted.full {
                self.counted.full = false;
                self.sink.problem(Problem {
                    path: self.path.to_owned(),
                    line: None,
                    what: format!(
                        "more than {COUNTED_KEYS_MAX} responses in this directory: a copy of one past them (a fork's) was counted again"
                    ),
                    stopped: false,
                });
            }
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
