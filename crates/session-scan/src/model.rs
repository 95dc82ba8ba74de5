//! What every reader turns a recorded session into: a header, then records in
//! file order. The analysis reads nothing else, so a new format is one reader.

use std::path::PathBuf;

use advisor_core::{Host, Outcome, Platform, SandboxMode};
use serde::Serialize;
use serde_json::Value;

/// The format a session was recorded in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// A DeepSeek harness session log, format version 0.
    DshV0,
    /// Format version 1 (the v0 layout with `version: 1`).
    DshV1,
    /// Format version 2 (chunks folded into messages, `isSeeded`).
    DshV2,
    /// Format version 3 (v2 plus `system/message`, renamed dispatch events).
    DshV3,
    /// A Claude Code transcript (`~/.claude/projects/<project>/<session>.jsonl`).
    ClaudeCode,
    /// A Codex rollout (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`).
    Codex,
    /// A Gemini CLI chat (`~/.gemini/tmp/<project>/chats/session-*.jsonl`).
    GeminiCli,
}

impl Format {
    /// The host whose families read this format's calls.
    pub fn host(self) -> Host {
        match self {
            Format::DshV0 | Format::DshV1 | Format::DshV2 | Format::DshV3 => Host::Dsh,
            Format::ClaudeCode => Host::ClaudeCode,
            Format::Codex => Host::Codex,
            Format::GeminiCli => Host::GeminiCli,
        }
    }

    /// The name used in reports (`dsh-v0`, `claude-code`, `codex`, `gemini-cli`).
    pub fn as_str(self) -> &'static str {
        match self {
            Format::DshV0 => "dsh-v0",
            Format::DshV1 => "dsh-v1",
            Format::DshV2 => "dsh-v2",
            Format::DshV3 => "dsh-v3",
            Format::ClaudeCode => "claude-code",
            Format::Codex => "codex",
            Format::GeminiCli => "gemini-cli",
        }
    }
}

/// Unix time in milliseconds, as the recording stamped it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Millis(pub i64);

/// One model response (a step) within a session, numbered by the reader.
/// The numbers only need to be distinct within one session.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StepId(pub u64);

/// A session's opening facts.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionHeader {
    /// The file the session was read from (inside an archive: the archive,
    /// then `!/` and the member's name).
    pub path: PathBuf,
    /// Its format.
    pub format: Format,
    /// The session's id, as the recording names it.
    pub id: String,
    /// The session it was forked from or spawned by.
    pub parent: Option<String>,
    /// True for a subagent's own session.
    pub subagent: bool,
    /// The working directory (the workspace root), as recorded.
    pub cwd: Option<String>,
    /// The host's platform, when the reader can tell (a `X:\` cwd is Windows;
    /// `--platform` overrides it).
    pub platform: Option<Platform>,
}

/// Token usage of one model response, in the four counts ccusage reports
/// (its `inputTokens`, `outputTokens`, `cacheCreationTokens`,
/// `cacheReadTokens`), so a scan's figures can be checked against it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Usage {
    /// Input tokens neither read from nor written to the prompt cache.
    pub input: u64,
    /// Output tokens, reasoning included.
    pub output: u64,
    /// Input tokens written to the prompt cache.
    pub cache_creation: u64,
    /// Input tokens read from the prompt cache.
    pub cache_read: u64,
}

impl Usage {
    /// Every input token: uncached, written to the cache, read from it.
    pub fn prompt(&self) -> u64 {
        self.input
            .saturating_add(self.cache_creation)
            .saturating_add(self.cache_read)
    }

    /// All four counts (ccusage's `totalTokens`).
    pub fn total(&self) -> u64 {
        self.prompt().saturating_add(self.output)
    }

    /// `self + other`, each count saturating.
    pub fn plus(self, other: Usage) -> Usage {
        Usage {
            input: self.input.saturating_add(other.input),
            output: self.output.saturating_add(other.output),
            cache_creation: self.cache_creation.saturating_add(other.cache_creation),
            cache_read: self.cache_read.saturating_add(other.cache_read),
        }
    }
}

/// How a call's result ended, by the recording's own mark.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ending {
    /// It ran to its end and succeeded.
    Succeeded,
    /// It failed (an error result, a non-zero exit).
    Failed,
    /// It was still running when the result was written (Codex's `Process
    /// running with session ID`, Claude Code's background task): not a
    /// success, not a failure. A later result for the same call (Claude
    /// Code's task notification) settles it; else it stays unresolved.
    StillRunning,
}

/// One thing a session recorded, in file order.
#[derive(Debug, Clone, PartialEq)]
pub enum Record {
    /// The sandbox mode from here on (a DeepSeek `sandbox/mode` switch, a
    /// Codex `turn_context`).
    Mode(SandboxMode),
    /// A model response's usage; may come before or after its calls.
    Usage {
        /// The response.
        step: StepId,
        /// Its tokens, counted once.
        usage: Usage,
        /// When it was recorded.
        at: Option<Millis>,
        /// A copy of a response an earlier file already counted (a Claude
        /// Code fork's): its step's cost still, but left out of the token
        /// totals, as ccusage leaves it out.
        copy: bool,
    },
    /// A tool call the model made.
    Call {
        /// The call's id, unique within the session.
        call: String,
        /// The response that made it.
        step: StepId,
        /// The tool, as the host the families expect names it (a Codex
        /// `exec_command` is `Bash`, as Codex's hooks name it).
        tool: String,
        /// The arguments, parsed (a string that is not JSON stays a string).
        arguments: Value,
        /// When it was recorded.
        at: Option<Millis>,
    },
    /// A call's result.
    Result {
        /// The call's id.
        call: String,
        /// How it ended, by the recording's own mark.
        ending: Ending,
        /// The result as the host's hook would have handed it to the
        /// families (for the DeepSeek harness, the shell value rebuilt from
        /// the rendered text).
        outcome: Outcome,
        /// When it was recorded.
        at: Option<Millis>,
    },
    /// An advisory the session already holds: a notice the advisor's plugin
    /// appended (`sandbox-grant-advisor`).
    Spoken {
        /// The notice's summary, when recorded.
        summary: Option<String>,
        /// When it was recorded.
        at: Option<Millis>,
    },
}

/// Something a reader could not read: the file and line, and what was wrong.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// The file. A name that is not UTF-8 is written lossily (`U+FFFD` for
    /// each byte that is not), as every report shows paths.
    #[serde(serialize_with = "lossy")]
    pub path: PathBuf,
    /// The 1-based line of the decoded text, when the problem is on one.
    pub line: Option<u64>,
    /// What was wrong, in the scanner's words; never the file's own text
    /// beyond a short quoted field name.
    pub what: String,
    /// True when the rest of the file was not read.
    pub stopped: bool,
}

/// A path as text, lossily: the reports are text, and a file name may be any
/// bytes.
fn lossy<S: serde::Serializer>(path: &std::path::Path, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&path.to_string_lossy())
}

/// Where readers put what they read.
pub trait Sink {
    /// A session starts; every record until [`Sink::end`] is its.
    fn begin(&mut self, header: SessionHeader);
    /// One record of the current session.
    fn record(&mut self, record: Record);
    /// The current session ends.
    fn end(&mut self);
    /// A problem; the reader goes on where it can.
    fn problem(&mut self, problem: Problem);
    /// Bytes decoded since the last call (for the throughput figure). A
    /// reader reports as it goes, at least once per file.
    fn decoded(&mut self, _bytes: u64) {}
}
