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
use std::io::BufRead;
use std::path::Path;

use advisor_core::{Outcome, SandboxMode, Success};
use serde::Deserialize;
use serde_json::Value;

use super::claude::{LineReader, drive, not_json};
use super::platform;
use super::time;
use crate::model::{Format, Millis, Problem, Record, SessionHeader, Sink, StepId, Usage};

mod output;
use output::{Header, call_as_hooked};

/// Reads one rollout.
pub fn read(path: &Path, input: &mut dyn BufRead, sink: &mut dyn Sink) {
    let mut reader = Reader {
        path,
        sink,
        begun: false,
        ordinal: None,
        step: 1,
        records_usage: false,
        last_total: None,
        exec_pending: std::collections::HashSet::new(),
    };
    drive(path, input, &mut reader);
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

#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(default)]
    timestamp: Option<String>,
    #[serde(default)]
    ordinal: Option<u64>,
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
}

#[derive(Deserialize)]
struct Line<P> {
    payload: P,
}

#[derive(Deserialize)]
struct SessionMeta {
    id: String,
    #[serde(default)]
    cwd: Option<String>,
}

#[derive(Deserialize)]
struct TurnContext {
    #[serde(default)]
    sandbox_policy: Option<Value>,
}

#[derive(Deserialize)]
struct ResponseItem {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    arguments: Option<Value>,
    #[serde(default)]
    call_id: Option<String>,
    #[serde(default)]
    output: Option<Value>,
}

#[derive(Deserialize)]
struct UsageRecord {
    #[serde(default)]
    usage: Option<Value>,
}

#[derive(Deserialize)]
struct EventMsg {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    info: Option<Value>,
}

struct Reader<'a> {
    path: &'a Path,
    sink: &'a mut dyn Sink,
    begun: bool,
    /// The ordinal the next line should carry, once a line carried one.
    ordinal: Option<u64>,
    /// The current step (response).
    step: u64,
    /// True once a `token_usage_record` was read: `token_count`s are repeats.
    records_usage: bool,
    /// The `total_token_usage` of the last `token_count` counted.
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

    fn line(&mut self, text: &[u8]) -> Result<(), String> {
        let envelope: Envelope<'_> = serde_json::from_slice(text).map_err(|e| not_json(&e))?;
        let gap = match (envelope.ordinal, self.ordinal) {
            (Some(got), Some(want)) => got != want,
            _ => false,
        };
        if let Some(got) = envelope.ordinal {
            self.ordinal = Some(got.saturating_add(1));
        }
        let at = envelope.timestamp.as_deref().and_then(time::parse);
        let read = self.read(&envelope.kind, text, at);
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
    fn read(&mut self, kind: &str, text: &[u8], at: Option<Millis>) -> Result<(), String> {
        let parse_error = |e: serde_json::Error| not_json(&e);
        match kind {
            "session_meta" => {
                let meta: Line<SessionMeta> = serde_json::from_slice(text).map_err(parse_error)?;
                if self.begun {
                    // A resumed or forked rollout may repeat it; the first one's session is read.
                    return Ok(());
                }
                self.begun = true;
                let cwd = meta.payload.cwd;
                self.sink.begin(SessionHeader {
                    path: self.path.to_owned(),
                    format: Format::Codex,
                    id: meta.payload.id,
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
                let mode = context
                    .payload
                    .sandbox_policy
                    .as_ref()
                    .and_then(|p| p.get("type"))
                    .and_then(Value::as_str)
                    .and_then(|t| t.parse::<SandboxMode>().ok());
                if let Some(mode) = mode {
                    self.sink.record(Record::Mode(mode));
                }
                Ok(())
            }
            "response_item" => {
                let item: Line<ResponseItem> = serde_json::from_slice(text).map_err(parse_error)?;
                self.response_item(item.payload, at)
            }
            "token_usage_record" => {
                let record: Line<UsageRecord> =
                    serde_json::from_slice(text).map_err(parse_error)?;
                self.records_usage = true;
                self.count(record.payload.usage.as_ref(), at);
                Ok(())
            }
            "event_msg" => {
                let event: Line<EventMsg> = serde_json::from_slice(text).map_err(parse_error)?;
                if event.payload.kind != "token_count" || self.records_usage {
                    return Ok(());
                }
                let Some(info) = event.payload.info.filter(|i| i.is_object()) else {
                    return Ok(());
                };
                let total = info.get("total_token_usage").filter(|t| !t.is_null());
                if total.is_some() && total == self.last_total.as_ref() {
                    return Ok(());
                }
                self.last_total = total.cloned();
                self.count(info.get("last_token_usage"), at);
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// Counts one response's usage; the next step begins.
    fn count(&mut self, usage: Option<&Value>, at: Option<Millis>) {
        let n = |name: &str| {
            usage
                .and_then(|u| u.get(name))
                .and_then(Value::as_u64)
                .unwrap_or(0)
        };
        self.sink.record(Record::Usage {
            step: StepId(self.step),
            usage: Usage {
                input: n("input_tokens"),
                output: n("output_tokens"),
            },
            at,
        });
        self.step = self.step.saturating_add(1);
    }

    fn response_item(&mut self, item: ResponseItem, at: Option<Millis>) -> Result<(), String> {
        match &*item.kind {
            "function_call" => {
                let (Some(call), Some(name)) = (item.call_id, item.name) else {
                    return Err("a `function_call` without `call_id` or `name`; skipped".into());
                };
                if name == "exec_command" {
                    if self.exec_pending.len() >= EXEC_PENDING_MAX {
                        self.exec_pending.clear();
                    }
                    self.exec_pending.insert(call.clone());
                }
                let (tool, arguments) = call_as_hooked(name, item.arguments);
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
                let output = match item.output {
                    Some(Value::String(output)) => output,
                    // Content items: their text, as one output.
                    Some(Value::Array(items)) => items
                        .iter()
                        .filter_map(|i| i.get("text").and_then(Value::as_str))
                        .collect::<Vec<_>>()
                        .join("\n"),
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
