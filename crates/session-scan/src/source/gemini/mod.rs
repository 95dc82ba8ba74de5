//! Gemini CLI chats (`~/.gemini/tmp/<project>/chats/session-<date>-<id8>.jsonl`;
//! a subagent's in `chats/<parent id>/<id>.jsonl`).
//!
//! `docs/scan/transcripts.md` describes the records (Gemini CLI 0.61.0's
//! `ChatRecordingService`). The file is a log of updates, one JSON record a
//! line, told apart in Gemini's own order: `{"$rewindTo": id}`; a message
//! (a string `id`), which replaces an earlier line of the same `id`;
//! `{"$set": {…}}`, whose `messages`, when present, is the whole history
//! again; the session's metadata (`sessionId`, `projectHash`, `kind`), the
//! first line. A response (`type: "gemini"`) is written once when it
//! arrives and again each time its `toolCalls` or `tokens` change, so the
//! reader keeps which responses and calls it has counted: a response's
//! tokens count once, a call and its result once.
//!
//! Calls and results are handed on as Gemini's `AfterTool` hook hands them
//! to the families (`sandbox-advisor`'s `hook::gemini_cli`): the tool keeps
//! its name, `run_shell_command`'s `description` is left out, and its
//! result is read as the hook reads `tool_response` ([`result`]), the
//! `sandbox_expansion_required` mark included.
//!
//! A rewind is not undone: the calls it drops ran, and their tokens were
//! spent. The working directory and platform are those Gemini itself wrote
//! into the session's first user message (its `<session_context>`: `My
//! operating system is:` and the first of its `Workspace Directories`),
//! when it wrote them.
//!
//! Tokens: `input` counts the cached ones too, so [`Usage::input`] is
//! `input` less `cached` (the cache reads) plus `tool` (a tool use's prompt,
//! which Gemini counts beside the prompt); [`Usage::output`] is `output`
//! plus `thoughts`, so the four counts add up to Gemini's `total`.

use std::collections::HashMap;
use std::io::Read;
use std::path::Path;

use serde_json::Value;
use serde_json::value::RawValue;

use super::claude::{LineReader, drive, not_json};
use super::json::{each, first, or_default};
use super::platform;
use super::time::{self, Stamp};
use crate::budget::{Budget, Strings};
use crate::model::{Ending, Format, Millis, Problem, Record, SessionHeader, Sink, StepId, Usage};

mod context;
mod result;
mod shapes;

pub use result::MARKER;
use shapes::{FunctionResponse, Head, Message, Part, Response, Set, Tokens, ToolCall};

/// The shell tool, whose results are read as the hook reads them.
pub const SHELL_TOOL: &str = "run_shell_command";
/// The field of the shell tool's arguments the hook leaves out.
const NOTE: &str = "description";

/// The most responses remembered (their step, and whether their tokens were
/// counted); past it the map is cleared, and a later copy of a forgotten
/// response is a new step whose tokens count again.
pub const MESSAGES_MAX: usize = 16_384;

/// The most calls remembered (whether their result was read); past it the
/// map is cleared, and a later copy of a forgotten call is read again.
pub const CALLS_MAX: usize = 16_384;

/// Reads one chat from `input`, within `budget`.
pub fn read(path: &Path, input: &mut dyn Read, sink: &mut dyn Sink, budget: &Budget) {
    let mut reader = Reader {
        path,
        sink,
        budget,
        session: None,
        begun: false,
        next_step: 1,
        messages: HashMap::new(),
        calls: HashMap::new(),
    };
    drive(path, input, &mut reader, budget);
    reader.finish();
}

/// The metadata line's facts.
struct Session {
    id: String,
    subagent: bool,
}

struct Reader<'a> {
    path: &'a Path,
    sink: &'a mut dyn Sink,
    budget: &'a Budget,
    session: Option<Session>,
    begun: bool,
    next_step: u64,
    /// Responses by id: their step, and whether their tokens were counted
    /// (at most [`MESSAGES_MAX`]).
    messages: HashMap<String, (StepId, bool)>,
    /// Calls by id: whether their result was read (at most [`CALLS_MAX`]).
    calls: HashMap<String, bool>,
}

impl LineReader for Reader<'_> {
    fn sink(&mut self) -> &mut dyn Sink {
        self.sink
    }

    fn line(&mut self, number: u64, text: &[u8]) -> Result<(), String> {
        let head: Head<'_> = serde_json::from_slice(text).map_err(|e| not_json(&e))?;
        if head.rewind.is_some() {
            // What a rewind drops ran, and cost: nothing is undone.
            return Ok(());
        }
        if head.id.is_some() {
            let raw: &RawValue = serde_json::from_slice(text).map_err(|e| not_json(&e))?;
            return self.message(number, raw);
        }
        if let Some(set) = head.set {
            if self.session.is_none() {
                return Err("a `$set` line before the session's metadata line; skipped".into());
            }
            let Some(messages) = or_default::<Set<'_>>(Some(set)).messages else {
                return Ok(());
            };
            // The whole history again, one message at a time.
            let mut failed = None;
            each(messages, |message| {
                if let Err(what) = self.message(number, message) {
                    failed.get_or_insert(what);
                }
            });
            return failed.map_or(Ok(()), Err);
        }
        if let (Some(id), Some(_)) = (head.session_id, head.project_hash) {
            // A resumed legacy chat repeats it; the first one's session is read.
            if self.session.is_none() {
                self.session = Some(Session {
                    id: self.budget.text(id.into_owned()),
                    subagent: head.kind.as_deref() == Some("subagent"),
                });
            }
        }
        Ok(())
    }
}

impl Reader<'_> {
    fn problem(&mut self, number: u64, what: String) {
        self.sink.problem(Problem {
            path: self.path.to_owned(),
            line: Some(number),
            what,
            stopped: false,
        });
    }

    fn stamp(&mut self, number: u64, text: Option<&str>) -> Option<Millis> {
        match Stamp::of_text(text) {
            Stamp::Refused => {
                self.problem(number, time::refused("timestamp"));
                None
            }
            stamp => stamp.at(),
        }
    }

    /// Begins the session, with what `first` (its first message) says of
    /// the working directory and platform.
    fn begin(&mut self, first: &Message<'_>) {
        let Some(session) = &self.session else {
            return;
        };
        self.begun = true;
        let (os, cwd) = context::read(first);
        let cwd = cwd.filter(|c| c.len() <= self.budget.limits().cwd_bytes);
        self.sink.begin(SessionHeader {
            path: self.path.to_owned(),
            format: Format::GeminiCli,
            id: session.id.clone(),
            parent: None,
            subagent: session.subagent,
            platform: os.or_else(|| cwd.as_deref().and_then(platform)),
            cwd,
        });
    }

    fn message(&mut self, number: u64, raw: &RawValue) -> Result<(), String> {
        let message: Message<'_> = serde_json::from_str(raw.get()).map_err(|e| not_json(&e))?;
        if self.session.is_none() {
            return Err("a message before the session's metadata line; skipped".into());
        }
        if !self.begun {
            self.begin(&message);
        }
        if message.kind.as_deref() != Some("gemini") {
            return Ok(());
        }
        let Some(id) = message.id.as_deref() else {
            return Err("a message without `id`; skipped".into());
        };
        let id = self.budget.text(id.to_owned());
        let at = self.stamp(number, message.timestamp.as_deref());
        let (step, counted) = match self.messages.get(&id) {
            Some(known) => *known,
            None => {
                if self.messages.len() >= MESSAGES_MAX {
                    self.messages.clear();
                }
                let step = StepId(self.next_step);
                self.next_step = self.next_step.saturating_add(1);
                self.messages.insert(id.clone(), (step, false));
                (step, false)
            }
        };
        if let Some(calls) = message.tool_calls {
            each(calls, |call| self.tool_call(number, step, call, at));
        }
        let tokens = message.tokens.filter(|t| t.get().starts_with('{'));
        if let (false, Some(tokens)) = (counted, tokens) {
            self.count(step, &or_default(Some(tokens)), at);
            self.messages.insert(id, (step, true));
        }
        Ok(())
    }

    /// Counts one response's usage.
    fn count(&mut self, step: StepId, tokens: &Tokens, at: Option<Millis>) {
        let n = |v: Option<u64>| v.unwrap_or(0);
        let cache_read = n(tokens.cached);
        self.sink.record(Record::Usage {
            step,
            usage: Usage {
                input: n(tokens.input)
                    .saturating_sub(cache_read)
                    .saturating_add(n(tokens.tool)),
                output: n(tokens.output).saturating_add(n(tokens.thoughts)),
                cache_creation: 0,
                cache_read,
            },
            at,
            copy: false,
        });
    }

    /// One entry of a response's `toolCalls`: the call the first time it is
    /// seen, its result the first time one is recorded.
    fn tool_call(&mut self, number: u64, step: StepId, raw: &RawValue, at: Option<Millis>) {
        let call: ToolCall<'_> = or_default(Some(raw));
        let (Some(id), Some(name)) = (call.id.as_deref(), call.name.as_deref()) else {
            self.problem(number, "a tool call without `id` or `name`; skipped".into());
            return;
        };
        let id = self.budget.text(id.to_owned());
        let name = self.budget.text(name.to_owned());
        match self.calls.get(&id) {
            Some(true) => return,
            Some(false) => {}
            None => {
                if self.calls.len() >= CALLS_MAX {
                    self.calls.clear();
                }
                self.calls.insert(id.clone(), false);
                let arguments = self.arguments(number, &name, call.args);
                self.sink.record(Record::Call {
                    call: id.clone(),
                    step,
                    tool: name.clone(),
                    arguments,
                    at,
                });
            }
        }
        // Only a completed call has a result: `success`, `error`, `cancelled`.
        let status = call.status.as_deref().unwrap_or_default();
        if !matches!(status, "success" | "error" | "cancelled") {
            return;
        }
        let response: Response<'_> = call
            .result
            .and_then(first)
            .map(|part| or_default::<Part<'_>>(Some(part)).function_response)
            .map(|fr| or_default::<FunctionResponse<'_>>(fr).response)
            .map(or_default)
            .unwrap_or_default();
        let shell = name == SHELL_TOOL;
        let (ending, outcome) = match (response.output, response.error) {
            (Some(output), _) if shell => result::output(&output),
            (Some(output), _) => {
                let ending = if status == "success" {
                    Ending::Succeeded
                } else {
                    Ending::Failed
                };
                let success = advisor_core::Success {
                    value: Value::Null,
                    content: output.into_owned(),
                };
                (ending, advisor_core::Outcome::Success(success))
            }
            (None, Some(error)) if shell && status == "error" && result::is_marked(&error) => {
                (Ending::Failed, result::marked(&error, call.result_display))
            }
            (None, Some(error)) => (Ending::Failed, result::error(&error)),
            (None, None) => {
                self.problem(
                    number,
                    "a completed tool call whose result has neither `output` nor `error`; its result is not read".into(),
                );
                return;
            }
        };
        self.calls.insert(id.clone(), true);
        let done = self.stamp(number, call.timestamp.as_deref());
        self.sink.record(Record::Result {
            call: id,
            ending,
            outcome,
            at: done,
        });
    }

    /// A call's arguments as the hook's `tool_input`: the shell tool's
    /// without its `description`; built within the budget's bounds.
    fn arguments(&mut self, number: u64, name: &str, args: Option<&RawValue>) -> Value {
        let built = match args {
            None => Ok(Value::Object(serde_json::Map::new())),
            Some(raw) => self.budget.arguments(raw, Strings::Kept),
        };
        match built {
            Ok(mut value) => {
                if name == SHELL_TOOL {
                    if let Value::Object(fields) = &mut value {
                        fields.remove(NOTE);
                    }
                }
                value
            }
            Err(why) => {
                let what = self.budget.not_built("a tool call's arguments", why);
                self.problem(number, what);
                Value::Null
            }
        }
    }

    fn finish(&mut self) {
        if !self.begun && self.session.is_some() {
            self.begin(&Message::default());
        }
        if self.begun {
            self.sink.end();
        } else {
            self.sink.problem(Problem {
                path: self.path.to_owned(),
                line: None,
                what: "no metadata line (`sessionId` and `projectHash`); no session read".into(),
                stopped: false,
            });
        }
    }
}
