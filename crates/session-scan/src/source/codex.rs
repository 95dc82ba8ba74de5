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

use super::claude::{LineReader, drive, not_json, platform};
use super::time;
use crate::model::{Format, Millis, Problem, Record, SessionHeader, Sink, StepId, Usage};

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
}

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
                let (failed, content) = match Header::read(&output) {
                    Some(header) => (header.failed, header.body.to_owned()),
                    // No header: Codex could not launch the command.
                    None => (true, output),
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

/// A call's tool and arguments as Codex's hooks name them: `exec_command`
/// is `Bash` with `{"command": <cmd>}` and nothing else (the recorded
/// `PreToolUse` payloads in `docs/hooks/codex/` send no other key); any other
/// function keeps its name and its arguments, parsed (text that is not JSON
/// stays text).
fn call_as_hooked(name: String, arguments: Option<Value>) -> (String, Value) {
    let arguments = match arguments {
        Some(Value::String(text)) => serde_json::from_str(&text).unwrap_or(Value::String(text)),
        Some(value) => value,
        None => Value::Object(Default::default()),
    };
    if name != "exec_command" {
        return (name, arguments);
    }
    let arguments = match arguments {
        Value::Object(mut fields) => match fields.remove("cmd") {
            Some(cmd) => {
                let mut hooked = serde_json::Map::new();
                hooked.insert("command".into(), cmd);
                Value::Object(hooked)
            }
            None => Value::Object(fields),
        },
        other => other,
    };
    ("Bash".into(), arguments)
}

/// The fixed header Codex writes before a command's output.
#[derive(Debug, PartialEq)]
struct Header<'a> {
    /// The exit code was not 0.
    failed: bool,
    /// What follows the `Output:` line.
    body: &'a str,
}

/// The most lines read as a header before `Output:`.
const HEADER_LINES_MAX: usize = 8;

impl<'a> Header<'a> {
    /// The header of `output`: lines of `Name: value` (or `Process …`) up to
    /// an `Output:` line, the first of them `Chunk ID:`, `Exit code:`,
    /// `Wall time:` or `Process …`. `None` when `output` does not start so.
    fn read(output: &'a str) -> Option<Self> {
        let mut rest = output;
        let mut failed = false;
        for index in 0..=HEADER_LINES_MAX {
            let (line, after) = match rest.split_once('\n') {
                Some((line, after)) => (line, after),
                None => (rest, ""),
            };
            let line = line.strip_suffix('\r').unwrap_or(line);
            if line == "Output:" && index > 0 {
                return Some(Header {
                    failed,
                    body: after,
                });
            }
            let known = ["Chunk ID:", "Exit code:", "Wall time:", "Process "]
                .iter()
                .any(|p| line.starts_with(p));
            let field = line.starts_with(|c: char| c.is_ascii_uppercase())
                && (line.contains(": ") || line.starts_with("Process "));
            if (index == 0 && !known) || !field || after.is_empty() {
                return None;
            }
            let code = line
                .strip_prefix("Process exited with code ")
                .or_else(|| line.strip_prefix("Exit code: "));
            if let Some(code) = code {
                failed = code.trim() != "0";
            }
            rest = after;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_read_or_refused() {
        let git = "Chunk ID: 671d09\nWall time: 0.0000 seconds\nProcess exited with code 128\nOriginal token count: 36\nOutput:\nfatal: x\n";
        let cases: &[(&str, Option<(bool, &str)>)] = &[
            (git, Some((true, "fatal: x\n"))),
            (
                "Chunk ID: a\nWall time: 0 seconds\nProcess exited with code 0\nOriginal token count: 1\nOutput:\n",
                Some((false, "")),
            ),
            (
                "Chunk ID: a\nProcess exited with code 0\nOutput:",
                Some((false, "")),
            ),
            (
                "Exit code: 2\nWall time: 1 seconds\nOutput:\nno\n",
                Some((true, "no\n")),
            ),
            (
                "Chunk ID: a\nWall time: 0 seconds\nProcess running with session ID 3\nOutput:\npartial",
                Some((false, "partial")),
            ),
            ("exec_command failed: CreateProcess { message: \"x\" }", None),
            ("Output:\nhello\n", None),
            ("Chunk ID: a\nhello\nOutput:\n", None),
            ("Chunk ID: a\nProcess exited with code 1\n", None),
            ("", None),
        ];
        for (output, want) in cases {
            let got = Header::read(output).map(|h| (h.failed, h.body));
            assert_eq!(got, *want, "{output:?}");
        }
    }

    #[test]
    fn exec_command_is_hooked_as_bash() {
        let hooked = |name: &str, args: Value| call_as_hooked(name.into(), Some(args));
        assert_eq!(
            hooked("exec_command", Value::String(r#"{"cmd":"ls","workdir":"/x"}"#.into())),
            ("Bash".into(), serde_json::json!({"command": "ls"}))
        );
        assert_eq!(
            hooked("update_plan", Value::String(r#"{"plan":[]}"#.into())),
            ("update_plan".into(), serde_json::json!({"plan": []}))
        );
        assert_eq!(
            hooked("exec_command", Value::String("not json".into())),
            ("Bash".into(), Value::String("not json".into()))
        );
        assert_eq!(
            call_as_hooked("apply_patch".into(), None),
            ("apply_patch".into(), serde_json::json!({}))
        );
    }
}
