//! One pass over an observation's text for every registered family's anchors.
//!
//! Built once, at registry construction: every literal needle of every family
//! goes into one Aho-Corasick automaton per text scope (failure text, success
//! stderr), and each needle maps back to the bitset of families that declared
//! it. A result that matches no anchor costs one scan and no recognizer runs.

use aho_corasick::AhoCorasick;

use crate::family::Anchors;
use crate::observation::{Observation, Outcome};
use crate::shell::ForegroundRun;

struct NeedleSet {
    matcher: Option<AhoCorasick>,
    owners: Vec<u64>,
    all: u64,
}

impl NeedleSet {
    fn new(needles: Vec<(&'static str, usize)>) -> Self {
        let all = needles.iter().fold(0u64, |acc, (_, i)| acc | 1u64 << i);
        let owners = needles.iter().map(|(_, i)| 1u64 << i).collect();
        let matcher = if needles.is_empty() {
            None
        } else {
            // An automaton over a handful of short literals cannot exceed the
            // builder's limits; if it ever did, every such family stays a candidate.
            AhoCorasick::new(needles.iter().map(|(n, _)| n)).ok()
        };
        Self {
            matcher,
            owners,
            all,
        }
    }

    /// The families (within `wanted`) whose needles occur in any of `texts`.
    fn hits(&self, wanted: u64, texts: &[&str]) -> u64 {
        let wanted = wanted & self.all;
        if wanted == 0 {
            return 0;
        }
        let Some(matcher) = &self.matcher else {
            return wanted;
        };
        let mut found = 0u64;
        for text in texts {
            for m in matcher.find_overlapping_iter(*text) {
                found |= self.owners[m.pattern().as_usize()];
                if found & wanted == wanted {
                    return wanted;
                }
            }
        }
        found & wanted
    }
}

struct ForegroundAnchor {
    bit: u64,
    failed_exit: bool,
    denied_stamp: bool,
    needs_stderr_needle: bool,
}

/// The registry-wide prefilter.
pub(crate) struct Prefilter {
    always: u64,
    failure_without_needles: u64,
    failure_text: NeedleSet,
    foreground: Vec<ForegroundAnchor>,
    stderr: NeedleSet,
}

impl Prefilter {
    pub(crate) fn new(anchors: impl Iterator<Item = Anchors>) -> Self {
        let (mut always, mut failure_without_needles) = (0u64, 0u64);
        let (mut failure_needles, mut stderr_needles, mut foreground) =
            (Vec::new(), Vec::new(), Vec::new());
        for (i, anchor) in anchors.enumerate() {
            let bit = 1u64 << i;
            match anchor {
                Anchors::Always => always |= bit,
                Anchors::FailureText { needles: [] } => failure_without_needles |= bit,
                Anchors::FailureText { needles } => {
                    failure_needles.extend(needles.iter().map(|n| (*n, i)))
                }
                Anchors::ForegroundRun {
                    failed_exit,
                    denied_stamp,
                    stderr_needles: needles,
                } => {
                    stderr_needles.extend(needles.iter().map(|n| (*n, i)));
                    foreground.push(ForegroundAnchor {
                        bit,
                        failed_exit,
                        denied_stamp,
                        needs_stderr_needle: !needles.is_empty(),
                    });
                }
            }
        }
        Self {
            always,
            failure_without_needles,
            failure_text: NeedleSet::new(failure_needles),
            foreground,
            stderr: NeedleSet::new(stderr_needles),
        }
    }

    /// The bitset of families whose anchors this observation satisfies.
    pub(crate) fn candidates(&self, observation: &Observation) -> u64 {
        let mut out = self.always;
        match &observation.outcome {
            Outcome::Failure(failure) => {
                out |= self.failure_without_needles;
                out |= self
                    .failure_text
                    .hits(u64::MAX, &[&failure.message, &failure.content]);
            }
            Outcome::Success(success) => {
                if self.foreground.is_empty() {
                    return out;
                }
                let Some(run) = ForegroundRun::read(&success.value) else {
                    return out;
                };
                let mut need_scan = 0u64;
                for anchor in &self.foreground {
                    if anchor.failed_exit && !run.failed() {
                        continue;
                    }
                    if anchor.denied_stamp && !run.sandbox.is_some_and(|s| s.denied) {
                        continue;
                    }
                    if anchor.needs_stderr_needle {
                        need_scan |= anchor.bit;
                    } else {
                        out |= anchor.bit;
                    }
                }
                if need_scan != 0 {
                    if let Some(stderr) = run.stderr {
                        out |= self.stderr.hits(need_scan, &[stderr]);
                    }
                }
            }
        }
        out
    }
}
