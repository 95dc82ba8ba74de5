//! The report: what the analysis found, in one serde shape. `--format json`
//! writes it as is (schema [`SCHEMA`], documented in `docs/scan/report.md`);
//! the table and the HTML page are renderings of the same value, so the three
//! never disagree.

use serde::Serialize;

use crate::model::{Format, Millis, Problem};

pub mod html;
pub mod table;

/// The version of the JSON shape; a field's meaning never changes within one.
pub const SCHEMA: u32 = 1;

/// The most sessions listed one by one (the totals count every session).
pub const SESSIONS_LISTED_MAX: usize = 2_000;

/// The most problems listed one by one (the total counts every problem).
pub const PROBLEMS_LISTED_MAX: usize = 200;

/// The whole report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// [`SCHEMA`].
    pub schema: u32,
    /// What was read.
    pub input: InputSummary,
    /// One row per family with at least one failure, in registry order.
    pub families: Vec<FamilyCost>,
    /// Sessions with at least one family failure, by path; at most
    /// [`SESSIONS_LISTED_MAX`].
    pub sessions: Vec<SessionCost>,
    /// Sessions with a failure that were left out of `sessions`.
    pub sessions_left_out: u64,
    /// Failing calls and wasted tokens per UTC day and family, oldest first.
    pub timeline: Vec<DayCost>,
}

/// What was read.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InputSummary {
    /// Files read (an archive counts once).
    pub files: u64,
    /// Sessions read, subagents included.
    pub sessions: u64,
    /// Sessions per format.
    pub formats: Vec<FormatCount>,
    /// Tool calls with a result (inherited ones excluded).
    pub calls: u64,
    /// Calls that failed by the recording's own mark, for any reason.
    pub failed_calls: u64,
    /// Decoded bytes read.
    pub decoded_bytes: u64,
    /// Problems: files or lines that could not be read.
    pub problems: Vec<Problem>,
    /// All problems, listed or not.
    pub problems_total: u64,
    /// DeepSeek harness shell results whose value could not be rebuilt from
    /// the rendered text (the log keeps no value): the families that read a
    /// value could not judge them, so nothing was said of them.
    pub unjudged_results: u64,
}

/// Sessions of one format.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FormatCount {
    /// The format.
    pub format: Format,
    /// Its sessions.
    pub sessions: u64,
}

/// What one family cost over every session read.
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
pub struct FamilyCost {
    /// The family's id.
    pub family: String,
    /// Sessions with at least one of its failures.
    pub sessions: u64,
    /// Calls whose result it recognizes.
    pub failing_calls: u64,
    /// Its failing calls after the first in each session.
    pub repeats: u64,
    /// Of those, the calls identical (same tool, same arguments) to an
    /// earlier failing call of the family in the session.
    pub identical_repeats: u64,
    /// Steps (model responses) whose every call failed with this family.
    pub wasted_steps: u64,
    /// The output tokens of those steps.
    pub wasted_output_tokens: u64,
    /// The input tokens of those steps.
    pub wasted_input_tokens: u64,
    /// Summed over sessions: milliseconds from its first failure to its last.
    pub wall_ms: u64,
    /// Sessions where the advisor would have spoken.
    pub would_speak: u64,
    /// Withheld advisories, by reason.
    pub withheld: Vec<ReasonCount>,
    /// Sessions where an advisory already spoke, and the family's failing
    /// calls before and after it.
    pub spoken: SpokenCount,
}

/// A withhold reason and how often.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReasonCount {
    /// The reason's stable code (`withheld` records' `code`).
    pub reason: String,
    /// Sessions it was withheld in, for that reason.
    pub sessions: u64,
}

/// Failing calls around an advisory the session already holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
pub struct SpokenCount {
    /// Sessions holding one.
    pub sessions: u64,
    /// The family's failing calls before it.
    pub calls_before: u64,
    /// The family's failing calls after it.
    pub calls_after: u64,
}

/// One session's failures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SessionCost {
    /// The file.
    pub path: String,
    /// The session's id.
    pub id: String,
    /// Its format.
    pub format: Format,
    /// The session it was spawned or forked from.
    pub parent: Option<String>,
    /// True for a subagent.
    pub subagent: bool,
    /// Tool calls in it.
    pub calls: u64,
    /// Per family with a failure here.
    pub families: Vec<SessionFamily>,
}

/// One family in one session.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SessionFamily {
    /// The family's id.
    pub family: String,
    /// Calls it recognizes.
    pub failing_calls: u64,
    /// Of those, after the first.
    pub repeats: u64,
    /// Of those, identical to an earlier one.
    pub identical_repeats: u64,
    /// Steps whose every call failed with it.
    pub wasted_steps: u64,
    /// Their output tokens.
    pub wasted_output_tokens: u64,
    /// Their input tokens.
    pub wasted_input_tokens: u64,
    /// The first failure's time.
    pub first_at: Option<Millis>,
    /// The last failure's time.
    pub last_at: Option<Millis>,
    /// Milliseconds from the first failure to the last.
    pub wall_ms: u64,
    /// Where the advisor would have spoken, and what it would have said.
    pub would_speak: Option<Spoke>,
    /// Withheld advisories, with where and why.
    pub withheld: Vec<WithheldAt>,
    /// An advisory the session already holds, with the family's failing
    /// calls before and after it.
    pub spoken: Option<SpokenCount>,
}

/// Where an advisory would have spoken.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Spoke {
    /// The 1-based position of the call, among the session's calls.
    pub call_index: u64,
    /// The call's id.
    pub call: String,
    /// The call result's time.
    pub at: Option<Millis>,
    /// The advisory's summary line.
    pub summary: String,
}

/// An advisory withheld, where and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WithheldAt {
    /// The 1-based position of the call.
    pub call_index: u64,
    /// The reason's stable code.
    pub reason: String,
    /// The reason in words.
    pub why: String,
}

/// One UTC day's cost for one family.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DayCost {
    /// `YYYY-MM-DD`.
    pub day: String,
    /// The family.
    pub family: String,
    /// Failing calls that day.
    pub failing_calls: u64,
    /// Output tokens of wasted steps that day.
    pub wasted_output_tokens: u64,
}
