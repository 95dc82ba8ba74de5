//! Which settled calls are worth carrying into the core at all.
//!
//! Every family declares the cheap facts an observation must show before its
//! recognizer may match ([`Anchors`]); the core's own prefilter is built from
//! the same declarations. Here they decide whether an event crosses the rest
//! of the boundary: the JavaScript side hands over only the failure text, or
//! only the few facts of a shell value an anchor reads, and the ids, the
//! arguments and the full projection follow only when some family's anchor
//! holds. The filter is conservative: when in doubt the event crosses.

use advisor_core::{Anchors, Host, Registry};
use aho_corasick::{AhoCorasick, MatchKind};

/// Literal needles, any of which must occur.
struct Needles {
    /// `None` when there are no needles; `Some(None)` when the automaton could
    /// not be built, in which case every text is a candidate.
    matcher: Option<Option<AhoCorasick>>,
}

impl Needles {
    fn new(needles: &[&'static str]) -> Self {
        if needles.is_empty() {
            return Self { matcher: None };
        }
        let matcher = AhoCorasick::builder()
            .match_kind(MatchKind::LeftmostFirst)
            .build(needles)
            .ok();
        Self {
            matcher: Some(matcher),
        }
    }

    /// Byte-level presence: the needles are UTF-8 literals, so a match in the
    /// bytes is a match in the text, and no validation pass is needed first.
    fn any_in(&self, texts: &[&[u8]]) -> bool {
        match &self.matcher {
            None => false,
            Some(None) => true,
            Some(Some(m)) => texts.iter().any(|t| m.is_match(*t)),
        }
    }
}

/// One family's shell-value anchor.
struct RunAnchor {
    failed_exit: bool,
    denied_stamp: bool,
    needs_stderr: bool,
}

/// The registry's anchors, folded for the boundary: every family's failure
/// needles in one automaton and every stderr needle in another, so a text is
/// scanned once whatever the number of families (presence is all that is
/// asked; which family matched is the core's question).
pub(crate) struct Transport {
    always: bool,
    any_failure: bool,
    failure: Needles,
    runs: Vec<RunAnchor>,
    stderr: Needles,
}

impl Transport {
    /// Folds every registered family's anchors.
    pub(crate) fn new(registry: &Registry) -> Self {
        let (mut always, mut any_failure) = (false, false);
        let (mut failure, mut stderr, mut runs) = (Vec::new(), Vec::new(), Vec::new());
        // The plugin runs on the DeepSeek harness: only its families are asked.
        for family in registry.families_on(Host::Dsh) {
            match family.anchors() {
                // A success's text is read too: the whole result must cross.
                Anchors::Always | Anchors::OutputText { .. } => always = true,
                Anchors::FailureText { needles: [] } => any_failure = true,
                Anchors::FailureText { needles } => failure.extend_from_slice(needles),
                Anchors::ForegroundRunOrFailureText {
                    failed_exit,
                    denied_stamp,
                    stderr_needles,
                    needles,
                } => {
                    if needles.is_empty() {
                        any_failure = true;
                    }
                    failure.extend_from_slice(needles);
                    stderr.extend_from_slice(stderr_needles);
                    runs.push(RunAnchor {
                        failed_exit,
                        denied_stamp,
                        needs_stderr: !stderr_needles.is_empty(),
                    });
                }
                Anchors::ForegroundRun {
                    failed_exit,
                    denied_stamp,
                    stderr_needles,
                } => {
                    stderr.extend_from_slice(stderr_needles);
                    runs.push(RunAnchor {
                        failed_exit,
                        denied_stamp,
                        needs_stderr: !stderr_needles.is_empty(),
                    });
                }
            }
        }
        Self {
            always,
            any_failure,
            failure: Needles::new(&failure),
            runs,
            stderr: Needles::new(&stderr),
        }
    }

    /// A failure whose message (and rendered content, when it says more) is `texts`.
    pub(crate) fn failure(&self, texts: &[&[u8]]) -> bool {
        self.always || self.any_failure || self.failure.any_in(texts)
    }

    /// A finished foreground run: whether its exit code is a non-zero integer,
    /// whether the executor stamped `denied: true`, and its captured stderr.
    pub(crate) fn run(&self, failed_exit: bool, denied: bool, stderr: &[u8]) -> bool {
        if self.always {
            return true;
        }
        let mut stderr_scanned = None;
        self.runs.iter().any(|a| {
            (!a.failed_exit || failed_exit)
                && (!a.denied_stamp || denied)
                && (!a.needs_stderr
                    || *stderr_scanned.get_or_insert_with(|| self.stderr.any_in(&[stderr])))
        })
    }

    /// Any other success (not a finished foreground run).
    pub(crate) fn other_success(&self) -> bool {
        self.always
    }
}

/// How a JavaScript number read from `exitCode` maps to the core's reading of
/// the shell projection: `None` when it is not an integer (so the value is not
/// a finished run), otherwise whether it is non-zero. JavaScript hands over
/// `0` for a `null` exit code (a signal kill, which is not a failed exit) and
/// `NaN` for anything that is not a number.
pub(crate) fn failed_exit(code: f64) -> Option<bool> {
    (code.is_finite() && code.fract() == 0.0).then_some(code != 0.0)
}
