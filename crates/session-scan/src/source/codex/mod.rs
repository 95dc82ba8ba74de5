//! Codex rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`).
//!
//! `docs/scan/transcripts.md` describes the records. Every line is read for
//! its envelope (`timestamp`, `ordinal`, `type`) first; only the kinds a scan
//! uses are read further. Calls and results are handed on as Codex's hooks
//! hand them to the families: an `exec_command` is `Bash` with
//! `{command: <cmd>}`, and its result is the command's output after the
//! `Output:` line, a success (`sandbox-advisor`'s `hook::payload`).
//!
//! Steps: a step is one model response. Its calls are the `function_call`s
//! since the previous response's usage; its usage is the
//! `token_usage_record` that follows them, after which the next step begins.
//! `event_msg`/`token_count` repeats the same usage and is not counted, unless
//! no `token_usage_record` came before it in the file (an older Codex): then
//! its `last_token_usage` is the response's usage and the step advances there.
//! A `token_count` whose `total_token_usage` equals the last counted one's
//! is a repeat (Codex sends one on rate-limit updates too) and is not counted.

use std::borrow::Cow;
use std::io::Read;
use std::path::Path;

use advisor_core::{Outcome, SandboxMode, Success};
use serde_json::Value;
use serde_json::value::RawValue;

use super::claude::{LineReader, drive, not_json};
use super::json::{each, or_default};
use super::platform;
use super::time::{self, Stamp};
use crate::budget::Budget;
use crate::model::{Format, Millis, Problem, Record, SessionHeader, Sink, StepId, Usage};

mod output;
mod shapes;
use output::{Header, call_as_hooked};
use shapes::{
    Envelope, EventMsg, Info, Item, Line, Policy, ResponseItem, SessionMeta, Tokens, TurnContext,
    UsageRecord,
};

/// Reads one rollout from `input`, within `budget`.
pub fn read(path: &Path, input: &mut dyn Read, sink: &mut dyn Sink, budget: &Budget) {
    let mut reader = Reader {
        path,
        sink,
        budget,
        begun: false,
        ordinal: None,
        step: 1,
        records_usage: false,
        last_total: None,
        exec_pending: std::collections::HashSet::new(),
    };
    drive(path, input, &mut reader, budget);
    if reader.begun {
        reader.sink.end();
    } else {
        reader.sink.problem(Problem {
            path: path.to_owned(),
            line: None,
            what: "no `session_meta` line; no session read".into(),
            stopped: false,
        });
    }
}

struct Reader<'a> {
    path: &'a Path,
    sink: &'a mut dyn Sink,
    budget: &'a Budget,
    begun: bool,
    /// The ordinal the next line should carry, once a line carried one.
    ordinal: Option<u64>,
    /// The current step (response).
    step: u64,
    /// True once a `token_usage_record` was read: `token_count`s are repeats.
    records_usage: bool,
    /// The `total_token_usage` of the last `token_count` counted (built only
    /// within the budget's value bound).
    last_total: Option<Value>,
    /// `exec_command` calls awaiting their output (at most
    /// [`EXEC_PENDING_MAX`]): only theirs carries the exit header, so only a
    /// headerless output of one of them is a launch failure.
    exec_pending: std::collections::HashSet<String>,
}

/// The most `exec_command` calls remembered while awaiting their output; past
/// it the set is cleared, and a headerless output is then read as a success.
const EXEC_PENDING_MAX: usize = 4_096;

impl LineReader for Reader<'_> {
    fn sink(&mut self) -> &mut dyn Sink {
        self.sink
    }

    fn skipped(&mut self) {
        // An unreadable line held one ordinal: do not name a gap for it again.
        self.ordinal = self.ordinal.map(|o| o.saturating_add(1));
    }

    fn line(&mut self, number: u64, text: &[u8]) -> Result<(), String> {
        let envelope: Envelope<'_> = serde_json::from_slice(text).map_err(|e| not_json(&e))?;
        let gap = match (envelope.ordinal, self.ordinal) {
            (Some(got), Some(want)) => got != want,
            _ => false,
        };
        if let Some(got) = envelope.ordinal {
            self.ordinal = Some(got.saturating_add(1));
        }
        let at = match Stamp::of_text(envelope.timestamp.as_deref()) {
            Stamp::Refused => {
                self.sink.problem(Problem {
                    path: self.path.to_owned(),
                    line: Some(number),
                    what: time::refused("timestamp"),
                    stopped: false,
                });
                None
            }
            stamp => stamp.at(),
        };
        let read = self.read(number, &envelope.kind, text, at);
        if gap {
            // The line itself is read; the problem is the one before it.
            let what = "a line is missing before this one (`ordinal` skips)".to_owned();
            return match read {
                Ok(()) => Err(what),
                Err(also) => Err(format!("{what}; and this one: {also}")),
            };
        }
        read
    }
}

impl Reader<'_> {
    fn read(
        &mut self,
        number: u64,
        kind: &str,
        text: &[u8],
        at: Option<Millis>,
    ) -> Result<(), String> {
        let parse_error = |e: serde_json::Error| not_json(&e);
        match kind {
            "session_meta" => {
                let meta: Line<SessionMeta> = serde_json::from_slice(text).map_err(parse_error)?;
                if self.begun {
                    // A resumed or forked rollout may repeat it; the first one's session is read.
                    return Ok(());
                }
                self.begun = true;
                let cwd = meta
                    .payload
                    .cwd
                    .map(Cow::into_owned)
                    .filter(|c| c.len() <= self.budget.limits().cwd_bytes);
                self.sink.begin(SessionHeader {
                    path: self.path.to_owned(),
                    format: Format::Codex,
                    id: self.budget.text(meta.payload.id.into_owned()),
                    parent: None,
                    subagent: false,
                    platform: cwd.as_deref().and_then(platform),
                    cwd,
                });
                Ok(())
            }
            "turn_context" | "response_item" | "token_usage_record" | "event_msg"
                if !self.begun =>
            {
                Err(format!("a `{kind}` line before `session_meta`; skipped"))
            }
            "turn_context" => {
                let context: Line<TurnContext> =
                    serde_json::from_slice(text).map_err(parse_error)?;
                let policy: Policy<'_> = or_default(context.payload.sandbox_policy);
                let mode = policy.kind.and_then(|t| t.parse::<SandboxMode>().ok());
                if let Some(mode) = mode {
                    self.sink.record(Record::Mode(mode));
                }
                Ok(())
            }
            "response_item" => {
                let item: Line<ResponseItem<'_>> =
                    serde_json::from_slice(text).map_err(parse_error)?;
                self.response_item(number, item.payload, at)
            }
            "token_usage_record" => {
                let record: Line<UsageRecord> =
                    serde_json::from_slice(text).map_err(parse_error)?;
                self.records_usage = true;
                self.count(record.payload.usage, at);
                Ok(())
            }
            "event_msg" => {
                let event: Line<EventMsg> = serde_json::from_slice(text).map_err(parse_error)?;
                if event.payload.kind != "token_count" || self.records_usage {
                    return Ok(());
                }
                let Some(info) = event.payload.info.filter(|i| i.get().starts_with('{')) else {
                    return Ok(());
                };
                let info: Info<'_> = or_default(Some(info));
                // A total too large to build is never a repeat.
                let total = info
                    .total_token_usage
                    .and_then(|t| self.budget.value(t.get()).ok());
                if total.is_some() && total == self.last_total {
                    return Ok(());
                }
                self.last_total = total;
                self.count(info.last_token_usage, at);
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// Counts one response's usage; the next step begins.
    fn count(&mut self, usage: Option<&RawValue>, at: Option<Millis>) {
        let tokens: Tokens = or_default(usage);
        self.sink.record(Record::Usage {
            step: StepId(self.step),
            usage: Usage {
                input: tokens.input_tokens.unwrap_or(0),
                output: tokens.output_tokens.unwrap_or(0),
            },
            at,
        });
        self.step = self.step.saturating_add(1);
    }

    fn response_item(
        &mut self,
        number: u64,
        item: ResponseItem<'_>,
        at: Option<Millis>,
    ) -> Result<(), String> {
        match &*item.kind {
            "function_call" => {
                let (Some(call), Some(name)) = (item.call_id, item.name) else {
                    return Err("a `function_call` without `call_id` or `name`; skipped".into());
                };
                let call = self.budget.text(call.into_owned());
                let name = self.budget.text(name.into_owned());
                if name == "exec_command" {
                    if self.exec_pending.len() >= EXEC_PENDING_MAX {
                        self.exec_pending.clear();
                    }
                    self.exec_pending.insert(call.clone());
                }
                let (tool, arguments) = call_as_hooked(name, item.arguments, self.budget);
                let arguments = arguments.unwrap_or_else(|what| {
                    self.sink.problem(Problem {
                        path: self.path.to_owned(),
                        line: Some(number),
                        what,
                        stopped: false,
                    });
                    Value::Null
                });
                self.sink.record(Record::Call {
                    call,
                    step: StepId(self.step),
                    tool,
                    arguments,
                    at,
                });
                Ok(())
            }
            "function_call_output" => {
                let Some(call) = item.call_id else {
                    return Err("a `function_call_output` without `call_id`; skipped".into());
                };
                let call = self.budget.text(call.into_owned());
                let output = match item.output {
                    Some(raw) if raw.get().starts_with('"') => {
                        serde_json::from_str::<String>(raw.get()).unwrap_or_default()
                    }
                    // Content items: their text, as one output, read one item at a time.
                    Some(raw) if raw.get().starts_with('[') => {
                        let mut joined = String::new();
                        let mut any = false;
                        each(raw, |item| {
                            if let Some(text) = or_default::<Item<'_>>(Some(item)).text {
                                if any {
                                    joined.push('\n');
                                }
                                joined.push_str(&text);
                                any = true;
                            }
                        });
                        joined
                    }
                    _ => {
                        return Err(
                            "a `function_call_output` whose `output` is not text; skipped".into(),
                        );
                    }
                };
                let exec = self.exec_pending.remove(&call);
                let (failed, content) = match Header::read(&output) {
                    Some(header) => (header.failed, header.body.to_owned()),
                    // No header on a command's output: Codex could not launch it.
                    // Other tools (apply_patch, MCP) never write one.
                    None => (exec, output),
                };
                self.sink.record(Record::Result {
                    call,
                    failed,
                    outcome: Outcome::Success(Success {
                        value: Value::Null,
                        content,
                    }),
                    at,
                });
                Ok(())
            }
            _ => Ok(()),
        }
    }
}
