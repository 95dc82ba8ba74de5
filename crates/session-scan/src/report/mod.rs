//! The report: what the analysis found, in one serde shape. `--format json`
//! writes it as is (schema [`SCHEMA`], documented in `docs/scan/report.md`);
//! the table and the HTML page are renderings of the same value, so the three
//! never disagree.

use serde::Serialize;

use crate::model::{Format, Millis, Problem, Usage};

pub mod html;
pub mod table;
mod words;

/// The version of the JSON shape; a field's meaning never changes within one.
/// 2: a failure is a family's only when its gate would speak (1 counted
/// every recognized one); withheld and declined calls counted by reason;
/// token totals; unresolved calls; days in `--timezone`.
pub const SCHEMA: u32 = 2;

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
    /// Failing calls and wasted tokens per day (in `input.timezone`) and
    /// family, oldest first.
    pub timeline: Vec<DayCost>,
    /// Every session's tokens per day (in `input.timezone`), oldest first:
    /// what `ccusage daily --timezone <zone>` reports for the same files.
    pub days: Vec<DayTokens>,
}

/// Token counts, as ccusage reports them (its `inputTokens`,
/// `outputTokens`, `cacheCreationTokens`, `cacheReadTokens`, `totalTokens`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
pub struct Tokens {
    /// Input tokens neither read from nor written to the prompt cache.
    pub input: u64,
    /// Output tokens, reasoning included.
    pub output: u64,
    /// Input tokens written to the prompt cache.
    pub cache_creation: u64,
    /// Input tokens read from the prompt cache.
    pub cache_read: u64,
    /// The four together.
    pub total: u64,
}

impl From<Usage> for Tokens {
    fn from(u: Usage) -> Self {
        Tokens {
            input: u.input,
            output: u.output,
            cache_creation: u.cache_creation,
            cache_read: u.cache_read,
            total: u.total(),
        }
    }
}

/// One day's tokens.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DayTokens {
    /// `YYYY-MM-DD`, in `input.timezone`.
    pub day: String,
    /// The tokens of the responses recorded that day.
    pub tokens: Tokens,
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
    /// Tool calls with a result that ended them (inherited ones excluded).
    pub calls: u64,
    /// Calls that failed by the recording's own mark, for any reason.
    pub failed_calls: u64,
    /// Calls no result ended: still running when the session's record ends
    /// (Codex's `Process running with session ID`, a Claude Code background
    /// task never reported done), or with no result at all.
    pub unresolved_calls: u64,
    /// Every session's tokens: the denominator of the wasted ones, and what
    /// ccusage reports for the same files (a response copied into another
    /// file counted once).
    pub tokens: Tokens,
    /// The zone whose days `timeline` and `days` are (`--timezone`; `UTC`).
    pub timezone: String,
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
    /// Results the client itself marked as its sandbox's refusal (Gemini
    /// CLI's `sandbox_expansion_required`, a field no command's output
    /// reaches), whether or not a family could judge them: a declined
    /// expansion keeps only Gemini's request in the chat, not the output.
    pub marked_results: u64,
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
///
/// A call is the family's failure only when the family owns its result (the
/// live advisor's precedence) and its gate would speak for it, the decision
/// the hook makes: a recognized result the gate withholds or declines is
/// counted under `withheld` or `declined`, by reason, and costs nothing here.
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
pub struct FamilyCost {
    /// The family's id.
    pub family: String,
    /// Sessions with at least one of its failures.
    pub sessions: u64,
    /// Calls whose result it owns and its gate would speak for.
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
    /// Calls it owns whose gate withheld (it could be this story; the
    /// advisor cannot tell), by reason.
    pub withheld: Vec<ReasonCount>,
    /// Calls it owns whose gate declined (not this story), by reason.
    pub declined: Vec<ReasonCount>,
    /// Sessions where an advisory already spoke, and the family's failing
    /// calls before and after it.
    pub spoken: SpokenCount,
}

/// A withhold or decline reason and how often.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReasonCount {
    /// The reason's stable code (the host log's `code`).
    pub reason: String,
    /// Calls it was given for.
    pub calls: u64,
    /// Sessions it was given in.
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
    /// Of those, calls no result ended.
    pub unresolved_calls: u64,
    /// Its tokens (a response an earlier file already counted left out).
    pub tokens: Tokens,
    /// Per family with a failure, a withheld or a declined call here.
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
    /// Calls its gate withheld.
    pub withheld_calls: u64,
    /// The first of them (at most 16), with where and why.
    pub withheld: Vec<WithheldAt>,
    /// Calls its gate declined.
    pub declined_calls: u64,
    /// The first of them (at most 16), with where and the reason's code.
    pub declined: Vec<WithheldAt>,
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

/// A call the gate withheld or declined, where and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WithheldAt {
    /// The 1-based position of the call.
    pub call_index: u64,
    /// The reason's stable code.
    pub reason: String,
    /// The reason in words (a decline has its code only).
    pub why: String,
}

/// One day's cost for one family.
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
