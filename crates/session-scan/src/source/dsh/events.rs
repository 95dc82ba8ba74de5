//! The events after the header, turned into records in file order.

use std::collections::HashMap;
use std::path::PathBuf;

use advisor_core::{Failure, Outcome, SandboxMode, Success, ToolClass, ToolName};
use serde::de::IgnoredAny;
use serde_json::Value;
use serde_json::value::RawValue;

use super::header::Seed;
use super::rebuild;
use super::shapes::{
    self, CallData, Data, Event, MessageSource, PLUGIN_NEEDLE, ResultFacts, USAGE_NEEDLE, contains,
    width,
};
use super::usage::{self, Chunk, Pending};
use crate::budget::{Budget, Strings};
use crate::model::{Format, Millis, Problem, Record, Sink, StepId, Usage};
use crate::source::json::or_default;
use crate::source::time::{self, Stamp};

/// The most calls remembered (by id, for their tool name) while they await
/// their result; a call past it gets its result without a rebuilt value.
/// Ids and names are cut to [`crate::budget::Limits::text_bytes`], so the
/// map holds at most 4,096 × 512 bytes of them.
const OPEN_CALLS_MAX: usize = 4_096;

/// The plugin whose notices are advisories already spoken.
const ADVISOR_PLUGIN: &str = "sandbox-grant-advisor";

/// The reader of one session's events.
pub(crate) struct Events<'s> {
    sink: &'s mut dyn Sink,
    path: PathBuf,
    /// v0/v1: usage chunks at the top level, messages citing them.
    chunked: bool,
    seed: Seed,
    /// v2/v3 forks: the seq of the last inherited `session/end-seed`.
    cut: Option<u64>,
    next_seq: u64,
    tools: HashMap<String, String>,
    pending: Pending,
    budget: &'s Budget,
}

impl<'s> Events<'s> {
    pub(crate) fn new(
        sink: &'s mut dyn Sink,
        path: PathBuf,
        format: Format,
        seed: Seed,
        cut: Option<u64>,
        budget: &'s Budget,
    ) -> Self {
        Self {
            sink,
            path,
            chunked: matches!(format, Format::DshV0 | Format::DshV1),
            seed,
            cut,
            next_seq: 0,
            tools: HashMap::new(),
            pending: Pending::default(),
            budget,
        }
    }

    /// A problem on line `line` (1-based); the reader goes on.
    pub(crate) fn problem(&mut self, line: Option<u64>, what: impl Into<String>) {
        self.sink.problem(Problem {
            path: self.path.clone(),
            line,
            what: what.into(),
            stopped: false,
        });
    }

    /// A problem that stopped the file.
    pub(crate) fn stop(&mut self, what: String) {
        self.sink.problem(Problem {
            path: self.path.clone(),
            line: None,
            what,
            stopped: true,
        });
    }

    /// True once the budget stopped the read.
    pub(crate) fn spent(&self) -> bool {
        self.budget.exhausted()
    }

    /// Bytes decoded since the last report.
    pub(crate) fn decoded(&mut self, bytes: u64) {
        self.sink.decoded(bytes);
    }

    /// The session ends.
    pub(crate) fn end(&mut self) {
        self.sink.end();
    }

    fn inherited(&self, seq: u64) -> bool {
        match self.seed {
            Seed::None => false,
            Seed::Length(n) => seq < n,
            Seed::Marker => self.cut.is_some_and(|cut| seq < cut),
        }
    }

    fn usage(&mut self, step: StepId, usage: Usage, at: Option<Millis>) {
        self.sink.record(Record::Usage { step, usage, at });
    }

    fn settle(&mut self, chunks: Vec<Chunk>) {
        for c in chunks {
            self.usage(c.step, c.usage, c.at);
        }
    }

    /// Whether a line of this type (with these bytes, `data` or the whole
    /// line: a needle found in either) gives no record; `None` for a packed
    /// row, which counts several seqs.
    fn passes(&self, kind: &str, bytes: &[u8]) -> Option<bool> {
        Some(match kind {
            "assistant/chunk" => !self.chunked || !contains(bytes, USAGE_NEEDLE),
            "user/message" => !contains(bytes, PLUGIN_NEEDLE),
            "step/end" | "turn/end" => !self.chunked,
            "sandbox/mode" | "tool/call" | "tool/result" | "assistant/message"
            | "assistant/attempt" => false,
            kind if kind.ends_with("-chunks") => return None,
            _ => true,
        })
    }

    /// One line after the header.
    pub(crate) fn line(&mut self, number: u64, line: &[u8]) {
        // The writer's own layout (`{"type":"…","seq":N,…`) lets most lines
        // be passed over without a parse; anything else takes the full one.
        if let Some((kind, seq)) = shapes::writer_prefix(line) {
            if self.passes(kind, line) == Some(true) {
                self.next_seq = seq.saturating_add(1);
                return;
            }
        }
        // UTF-8 is checked once for the whole line; the parse then borrows.
        let parsed = std::str::from_utf8(line)
            .ok()
            .and_then(|text| serde_json::from_str::<Event<'_>>(text).ok());
        let Some(event) = parsed else {
            let what = if serde_json::from_slice::<IgnoredAny>(line).is_ok() {
                "an event without a string \"type\"; skipped"
            } else {
                "not a JSON event; skipped"
            };
            return self.problem(Some(number), what);
        };
        let raw = event.data.map_or("null", RawValue::get);
        // Lines no record comes from: their seq is counted, nothing is built.
        let skip = match self.passes(&event.kind, raw.as_bytes()) {
            Some(skip) => skip,
            // A packed row counts several seqs and holds no record.
            None => {
                let seq = event.seq0.or(event.seq).unwrap_or(self.next_seq);
                self.next_seq = seq.saturating_add(width(event.data));
                return;
            }
        };
        // A line without a seq takes the next one.
        let seq = event.seq.unwrap_or(self.next_seq);
        self.next_seq = seq.saturating_add(1);
        if skip {
            return;
        }
        let inherited = self.inherited(seq);
        let at = match Stamp::of_millis(event.time) {
            Stamp::Refused => {
                self.problem(Some(number), time::refused("time"));
                None
            }
            stamp => stamp.at(),
        };
        if event.kind == "tool/result" {
            let facts = ResultFacts::read(raw);
            return self.result(number, facts, inherited, at);
        }
        if event.kind == "tool/call" {
            let Ok(data) = serde_json::from_str::<CallData<'_>>(raw) else {
                return self.problem(
                    Some(number),
                    "a tool/call without a string callId and name; skipped",
                );
            };
            return self.call(number, data, inherited, at);
        }
        if event.kind == "turn/end" {
            // v0/v1: a turn's end settles every usage chunk still waiting.
            let done = self.pending.take(|_| true);
            return self.settle(done);
        }
        let Ok(data) = serde_json::from_str::<Data<'_>>(raw) else {
            let what = match &*event.kind {
                "step/end" => "a step/end whose data is not an object; skipped",
                "assistant/message" => "an assistant/message whose data is not an object; skipped",
                "sandbox/mode" => "a sandbox/mode without a known mode; skipped",
                // The other kinds read nothing from data that is not an object.
                _ => return,
            };
            return self.problem(Some(number), what);
        };
        match &*event.kind {
            // v0/v1: a step's or turn's end settles the usage chunks still waiting.
            "step/end" => {
                let step = data.step();
                let done = self.pending.take(|c| c.step == step);
                self.settle(done);
            }
            "assistant/message" => self.message(&data, event.cites, seq, inherited, at),
            "sandbox/mode" => match data.mode.as_deref().map(str::parse::<SandboxMode>) {
                Some(Ok(mode)) => self.sink.record(Record::Mode(mode)),
                _ => self.problem(Some(number), "a sandbox/mode without a known mode; skipped"),
            },
            "assistant/chunk" if self.chunked && !inherited => {
                if let Some(usage) = usage::of_chunk(data.chunk) {
                    let chunk = Chunk {
                        seq,
                        step: data.step(),
                        usage,
                        at,
                    };
                    if let Some(old) = self.pending.push(chunk) {
                        self.settle(vec![old]);
                    }
                }
            }
            "assistant/attempt" if !inherited => {
                if let Some(usage) = usage::of_stream(data.stream) {
                    self.usage(data.step(), usage, at);
                }
            }
            "user/message" if !inherited => {
                let source: MessageSource<'_> = or_default(data.source);
                if source.kind.as_deref() == Some("plugin")
                    && source.plugin.as_deref() == Some(ADVISOR_PLUGIN)
                {
                    let summary = source.summary.map(|s| self.budget.text(s.into_owned()));
                    self.sink.record(Record::Spoken { summary, at });
                }
            }
            _ => {}
        }
    }

    fn call(&mut self, number: u64, data: CallData<'_>, inherited: bool, at: Option<Millis>) {
        let step = StepId(
            (data.turn.unwrap_or(0) & 0xffff_ffff) << 32 | (data.step.unwrap_or(0) & 0xffff_ffff),
        );
        let (Some(call), Some(tool)) = (data.call_id, data.name) else {
            return self.problem(
                Some(number),
                "a tool/call without a string callId and name; skipped",
            );
        };
        if inherited {
            return;
        }
        let (call, tool) = (
            self.budget.text(call.into_owned()),
            self.budget.text(tool.into_owned()),
        );
        // Absent arguments are `null`, as the harness hands them on.
        let arguments = match data
            .arguments
            .map(|raw| self.budget.arguments(raw, Strings::Parsed))
        {
            None => Value::Null,
            Some(Ok(arguments)) => arguments,
            Some(Err(why)) => {
                let what = self.budget.not_built("a tool/call's arguments", why);
                self.problem(Some(number), what);
                Value::Null
            }
        };
        if self.tools.len() < OPEN_CALLS_MAX {
            self.tools.insert(call.clone(), tool.clone());
        }
        self.sink.record(Record::Call {
            call,
            step,
            tool,
            arguments,
            at,
        });
    }

    fn result(&mut self, number: u64, facts: ResultFacts, inherited: bool, at: Option<Millis>) {
        let Some(call) = facts.call else {
            return self.problem(Some(number), "a tool/result without a call id; skipped");
        };
        let call = self.budget.text(call);
        let tool = self.tools.remove(&call);
        if inherited {
            return;
        }
        let text = facts.text;
        let outcome = if facts.failed {
            let message = text.strip_prefix("Error: ").unwrap_or(&text).to_owned();
            Outcome::Failure(Failure {
                message,
                members: Vec::new(),
                content: text,
                code: facts.code,
            })
        } else {
            let process =
                tool.is_some_and(|t| ToolClass::of(&ToolName::new(t)) == ToolClass::Process);
            let value = if process {
                rebuild::shell_value(&text)
            } else {
                Value::Null
            };
            Outcome::Success(Success {
                value,
                content: text,
            })
        };
        self.sink.record(Record::Result {
            call,
            failed: facts.failed,
            outcome,
            at,
        });
    }

    fn message(
        &mut self,
        data: &Data<'_>,
        cites: Option<&RawValue>,
        seq: u64,
        inherited: bool,
        at: Option<Millis>,
    ) {
        let step = data.step();
        let own = usage::tokens(data.usage);
        if !self.chunked {
            if let (Some(usage), false) = (own, inherited) {
                self.usage(step, usage, at);
            }
            return;
        }
        let cites = usage::cites(cites, self.budget);
        let cited = self.pending.take_cited(&cites);
        // The step's earlier chunks that this message does not cite belong
        // to attempts that ended without one.
        let earlier = self.pending.take(|c| c.step == step && c.seq < seq);
        self.settle(earlier);
        if inherited {
            return;
        }
        if let Some(usage) = own.or(cited.map(|c| c.usage)) {
            self.usage(step, usage, at);
        }
    }

    /// The end of the events: every usage chunk still waiting is an attempt
    /// without a message.
    pub(crate) fn finish(&mut self) {
        let rest = self.pending.take(|_| true);
        self.settle(rest);
        if self.pending.overflowed {
            self.problem(
                None,
                format!(
                    "more than {} usage chunks awaited a message at once; the oldest were counted as attempts without one",
                    usage::PENDING_MAX
                ),
            );
        }
        if self.seed == Seed::Marker && self.cut.is_none() {
            self.problem(
                None,
                "a seeded session without an inherited session/end-seed marker; every event was counted",
            );
        }
    }
}
