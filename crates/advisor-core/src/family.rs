//! The contract every failure family implements: `recognize` → `gate` → `advise`.

use crate::advisory::Advisory;
use crate::environment::{Environment, HostFacts, Platform, PolicyNeed, SandboxMode, Unresolved};
use crate::ids::FamilyId;
use crate::observation::Observation;

/// One failure family: a recognizer for a producer's exact shape, the decision
/// to speak, and the advisory text.
///
/// `recognize` is pure and cheap and must not allocate when nothing matches;
/// `gate` and `advise` run only after a match. A family's own finding type
/// travels through the registry without downcasts.
pub trait Family: Send + Sync + 'static {
    /// What the recognizer extracted from the observation (code, path, carrier…);
    /// printable, so `explain` and the fixture snapshots can show it.
    type Finding: std::fmt::Debug + Send + Sync + 'static;

    /// The stable kebab-case id.
    fn id(&self) -> FamilyId;

    /// What this family recognizes and refuses, for `families` / `explain`.
    fn doc(&self) -> FamilyDoc;

    /// The agent hosts whose failures this family knows. The registry shows
    /// the family only observations from these hosts, so a host's failure
    /// line quoted in another host's output is never taken for its own.
    fn hosts(&self) -> &'static [crate::Host];

    /// The cheap facts an observation must show before `recognize` is worth running.
    fn anchors(&self) -> Anchors;

    /// Which tools' observations the family reads (default: any). A sandbox
    /// family answers [`ToolScope::SandboxProcess`](crate::ToolScope): the
    /// registry then never shows it a network or file tool's result, whose
    /// text may quote a sandbox failure without being one.
    fn tools(&self) -> crate::ToolScope {
        crate::ToolScope::Any
    }

    /// Recognizes the producer's shape, or returns `None` without allocating.
    fn recognize(&self, observation: &Observation) -> Option<Self::Finding>;

    /// Whether the gate needs the session's policy. Asked before any lookup,
    /// so a family can rule on host facts alone without consulting the resolver.
    fn policy_need(&self, _finding: &Self::Finding, _host: &HostFacts) -> PolicyNeed {
        PolicyNeed::Required
    }

    /// The facts the hook should check outside the sandbox for this finding
    /// (default: none). Asked only after a match; see [`crate::HostChecks`].
    fn checks(&self, _finding: &Self::Finding, _host: &HostFacts) -> crate::Checks {
        crate::Checks::NONE
    }

    /// The path a [`Check::MountAt`](crate::Check::MountAt) asks about, as
    /// the finding printed it (absolute, or relative to the call's working
    /// directory); default none.
    fn check_path<'f>(&self, _finding: &'f Self::Finding) -> Option<&'f str> {
        None
    }

    /// Whether this finding is provably the sandbox's, from the finding and
    /// the host facts and checks in `env` (never its policy, which is not
    /// resolved yet when the fail-fast budget asks). Default:
    /// [`Provenance::Undeclared`](crate::Provenance), which never feeds the
    /// fail-fast budget. A refuted finding is declined before [`Family::gate`]
    /// runs; see [`crate::provenance`].
    fn provenance(&self, _finding: &Self::Finding, _env: &Environment) -> crate::Provenance {
        crate::Provenance::Undeclared
    }

    /// Speak, withhold (disclosed once on the host log), or decline (not this family's story).
    fn gate(&self, finding: &Self::Finding, env: &Environment) -> Gate;

    /// The advisory, built from the finding's facts.
    fn advise(&self, finding: &Self::Finding, env: &Environment) -> Advisory;

    /// The structured diagnosis of a finding, for the advisory and for a
    /// withheld disclosure (default: unclassified).
    fn diagnose(&self, _finding: &Self::Finding, _env: &Environment) -> crate::Diagnosis {
        crate::Diagnosis::UNCLASSIFIED
    }

    /// Whether this family has a pre-flight check on this host (default: none).
    fn wants_preflight(&self, _host: &HostFacts) -> bool {
        false
    }

    /// The pre-flight verdict for a session, before anything has failed.
    fn preflight(&self, _env: &Environment) -> PreflightVerdict {
        PreflightVerdict::Clear
    }

    /// The family's producer shape, for the whole-set property tests (feature `testing`).
    #[cfg(feature = "testing")]
    fn producer_sample(&self) -> Option<crate::testing::ProducerSample> {
        None
    }
}

/// A family whose recognized failures may refuse identical calls before dispatch.
///
/// Only a family whose remedy the user can apply while the session continues
/// may implement this; the fail-fast budget accepts nothing else, by type.
/// And only its [proven](crate::Provenance::Proven) failures count: a failure
/// a program's own output could have printed never makes a call be refused.
pub trait FailFast: Family {}

/// The decision to speak.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Gate {
    /// Deliver the advisory.
    Speak,
    /// This could be the family's story but the advisor cannot tell; say so once on the host log.
    Withhold(WithholdReason),
    /// The failure is a sanctioned outcome, not this family's story; stay silent.
    Decline(&'static str),
    /// Not this family's story, but perhaps another's: the next family in
    /// precedence order that recognizes the observation decides instead
    /// (Codex's protected paths defer a write refused under `read-only`,
    /// where every write is refused, to the family of refused writes). The
    /// code is logged as a decline's is.
    Defer(&'static str),
}

/// Why an advisory was withheld.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WithholdReason {
    /// The session's policy could not be resolved.
    Unresolved(Unresolved),
    /// The policy was resolved but reported no workspace root.
    NoWorkspaceRoot,
    /// The call ran under a mode that does not confine.
    UnconfinedMode(SandboxMode),
    /// The host is not one the family's mechanism exists on.
    PlatformOutOfScope(Platform),
    /// A family-specific reason, as a kebab-case code.
    Other(&'static str),
}

impl WithholdReason {
    /// The stable kebab-case code used on the host log and in the protocol.
    pub fn code(&self) -> &'static str {
        match self {
            WithholdReason::Unresolved(u) => u.code(),
            WithholdReason::NoWorkspaceRoot => "no-workspace-root",
            WithholdReason::UnconfinedMode(_) => "unconfined-mode",
            WithholdReason::PlatformOutOfScope(_) => "platform-out-of-scope",
            WithholdReason::Other(code) => code,
        }
    }
}

impl std::fmt::Display for WithholdReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WithholdReason::Unresolved(u) => write!(f, "{u}"),
            WithholdReason::NoWorkspaceRoot => f.write_str("the policy reports no workspace root"),
            WithholdReason::UnconfinedMode(m) => {
                write!(f, "the call ran under {m}, which does not confine")
            }
            WithholdReason::PlatformOutOfScope(p) => {
                write!(f, "the host platform is {}", p.as_str())
            }
            WithholdReason::Other(code) => f.write_str(code),
        }
    }
}

/// The pre-flight verdict for one session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PreflightVerdict {
    /// Nothing to say.
    Clear,
    /// Tell the agent before its first command fails.
    Advise(Advisory),
    /// The session cannot be checked; say so once on the host log.
    Withhold(WithholdReason),
}

/// The slot an advisory occupies in the once-per-agent ledger.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Seat {
    /// Delivered in answer to a recognized failure.
    Failure,
    /// Delivered by a pre-flight check, before anything failed.
    Preflight,
}

/// What a family recognizes and refuses, in one line each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FamilyDoc {
    /// What the family recognizes.
    pub recognizes: &'static str,
    /// What it refuses, and why.
    pub refuses: &'static str,
}

impl FamilyDoc {
    /// Said when a README lacks the `**Recognizes:**` line.
    pub const NO_RECOGNIZES: &'static str = "(the family's README has no **Recognizes:** line)";
    /// Said when a README lacks the `**Refuses:**` line.
    pub const NO_REFUSES: &'static str = "(the family's README has no **Refuses:** line)";

    /// Reads the two lines from a family's README, its one source of documentation:
    /// the text after `**Recognizes:**` and after `**Refuses:**`, each to the end of its line.
    pub fn from_readme(readme: &'static str) -> Self {
        let line = |label: &str| {
            readme
                .lines()
                .find_map(|l| l.trim_start().strip_prefix(label))
                .map(str::trim)
                .filter(|t| !t.is_empty())
        };
        Self {
            recognizes: line("**Recognizes:**").unwrap_or(Self::NO_RECOGNIZES),
            refuses: line("**Refuses:**").unwrap_or(Self::NO_REFUSES),
        }
    }

    /// True when both lines were found.
    pub fn is_complete(&self) -> bool {
        self.recognizes != Self::NO_RECOGNIZES && self.refuses != Self::NO_REFUSES
    }
}

/// The cheap facts that must hold before a family's recognizer runs.
///
/// The registry folds every family's anchors into one prefilter, so a result
/// that matches no anchor costs a few `memchr` passes over its text for the
/// whole set (one per three rare bytes of the needles), not a scan per family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchors {
    /// A failure whose message or rendered content contains one of the needles.
    FailureText {
        /// Literal strings, at least one of which must occur.
        needles: &'static [&'static str],
    },
    /// A success whose value is the shell tools' finished foreground projection.
    ForegroundRun {
        /// Require a non-zero integer exit code.
        failed_exit: bool,
        /// Require the executor's `denied: true` stamp.
        denied_stamp: bool,
        /// When non-empty, the captured stderr must contain one of these.
        stderr_needles: &'static [&'static str],
    },
    /// Either of the two above: a finished foreground run as in
    /// [`Anchors::ForegroundRun`], or a failure whose text holds one of
    /// `needles`. For a family with two carriers (native-init's value and,
    /// since issue 24, the desktop trampoline's runner failure).
    ForegroundRunOrFailureText {
        /// Require a non-zero integer exit code (the run half).
        failed_exit: bool,
        /// Require the executor's `denied: true` stamp (the run half).
        denied_stamp: bool,
        /// When non-empty, the captured stderr must contain one of these (the run half).
        stderr_needles: &'static [&'static str],
        /// Literal strings, at least one of which must occur (the failure half; not empty).
        needles: &'static [&'static str],
    },
    /// A failure whose message or content contains one of the needles, or a
    /// success whose rendered text does. For a host whose hook reports a
    /// command's output without saying whether it failed (Codex's
    /// `tool_response`), or whose sandbox denial can end in a success
    /// (Claude Code's stderr): the needle must then be the producer's own
    /// distinctive line, never a common phrase.
    OutputText {
        /// Literal strings, at least one of which must occur (not empty).
        needles: &'static [&'static str],
    },
    /// No prefilter: the recognizer sees every observation.
    Always,
}
