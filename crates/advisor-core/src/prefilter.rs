//! One pass over an observation's text for every registered family's anchors.
//!
//! Every literal needle of every family goes into one [`Scope`] per text
//! scope (failure text, success stderr, success output), each needle mapped
//! back to the bit of the family that declared it, and the structural anchors
//! (a foreground run, its exit, its denied stamp) are read through
//! [`shell::Foreground`](crate::shell::Foreground), the one reader of the
//! shell tools' value. A result that matches no anchor costs one scan and no
//! recognizer runs.
//!
//! The registry only lists the needles when it is built. A scope builds the
//! [`NeedleSet`] of one host (its families' needles only) on that host's
//! first non-empty text, so a one-shot process (a hook) that decides a call
//! without reading text (a `pre`, an exit-0 success with empty stderr) builds
//! none, and one that reads a text builds one host's set of one scope.

mod needles;

use std::sync::OnceLock;

use needles::NeedleSet;

use crate::Host;
use crate::family::Anchors;
use crate::observation::{Failure, Observation, Outcome, Success};
use crate::shell::Foreground;

struct ForegroundAnchor {
    bit: u64,
    failed_exit: bool,
    denied_stamp: bool,
    needs_stderr_needle: bool,
}

/// The envelope a host normally renders a failure's content with.
const ENVELOPE: &str = "Error: ";

/// A failure needle that can begin inside [`ENVELOPE`], at `at`.
struct AcrossEnvelope {
    needle: &'static [u8],
    bit: u64,
    at: usize,
}

/// One text scope's needles, and the set each host scans, built on its
/// first non-empty text from the needles of the families on that host.
struct Scope {
    needles: Vec<(&'static str, usize)>,
    /// The families with an empty needle (found in every text, empty or not).
    empty: u64,
    /// Per host, in [`Host::ALL`] order.
    sets: [OnceLock<NeedleSet>; Host::ALL.len()],
}

impl Scope {
    fn new(needles: Vec<(&'static str, usize)>) -> Self {
        let empty = needles
            .iter()
            .filter(|(n, _)| n.is_empty())
            .fold(0u64, |acc, (_, i)| acc | 1u64 << i);
        Self {
            needles,
            empty,
            sets: Default::default(),
        }
    }

    /// The families of `host` (within `wanted`; `on_host` as in
    /// [`Prefilter::new`]) whose needles occur in any of `texts`.
    fn hits(
        &self,
        host: Host,
        on_host: &[u64; Host::ALL.len()],
        wanted: u64,
        texts: &[&[u8]],
    ) -> u64 {
        let on_host = on_host[host as usize];
        let wanted = wanted & on_host;
        if texts.iter().all(|t| t.is_empty()) {
            return wanted & self.empty;
        }
        let set = self.sets[host as usize].get_or_init(|| {
            let of_host = self.needles.iter().copied();
            NeedleSet::new(of_host.filter(|&(_, i)| on_host & 1u64 << i != 0).collect())
        });
        set.hits(wanted, texts)
    }
}

/// The registry-wide prefilter.
pub(crate) struct Prefilter {
    /// Per host (in [`Host::ALL`] order), the bits of the families that declare it.
    on_host: [u64; Host::ALL.len()],
    always: u64,
    failure_without_needles: u64,
    failure_text: Scope,
    /// The only needles an enveloped content can hold where its message does
    /// not (none, for the shipped families).
    across_envelope: Vec<AcrossEnvelope>,
    foreground: Vec<ForegroundAnchor>,
    stderr: Scope,
    /// The families whose needles are read in a success's rendered text too.
    output: u64,
    output_text: Scope,
}

impl Prefilter {
    /// Lists every family's anchors; `on_host` holds, per host (in
    /// [`Host::ALL`] order), the bits of the families that declare it.
    pub(crate) fn new(
        anchors: impl Iterator<Item = Anchors>,
        on_host: [u64; Host::ALL.len()],
    ) -> Self {
        let (mut always, mut failure_without_needles) = (0u64, 0u64);
        let (mut failure_needles, mut stderr_needles, mut foreground) =
            (Vec::new(), Vec::new(), Vec::new());
        let (mut output, mut output_needles) = (0u64, Vec::new());
        for (i, anchor) in anchors.enumerate() {
            let bit = 1u64 << i;
            match anchor {
                Anchors::Always => always |= bit,
                Anchors::FailureText { needles: [] } => failure_without_needles |= bit,
                Anchors::FailureText { needles } => {
                    failure_needles.extend(needles.iter().map(|n| (*n, i)))
                }
                Anchors::OutputText { needles } => {
                    if needles.is_empty() {
                        failure_without_needles |= bit;
                    }
                    output |= bit;
                    failure_needles.extend(needles.iter().map(|n| (*n, i)));
                    output_needles.extend(needles.iter().map(|n| (*n, i)));
                }
                Anchors::ForegroundRunOrFailureText {
                    failed_exit,
                    denied_stamp,
                    stderr_needles: run_needles,
                    needles,
                } => {
                    if needles.is_empty() {
                        failure_without_needles |= bit;
                    }
                    failure_needles.extend(needles.iter().map(|n| (*n, i)));
                    stderr_needles.extend(run_needles.iter().map(|n| (*n, i)));
                    foreground.push(ForegroundAnchor {
                        bit,
                        failed_exit,
                        denied_stamp,
                        needs_stderr_needle: !run_needles.is_empty(),
                    });
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
        let across_envelope = failure_needles
            .iter()
            .flat_map(|&(needle, family)| {
                let needle = needle.as_bytes();
                (0..ENVELOPE.len())
                    .filter(move |&at| {
                        let head = &ENVELOPE.as_bytes()[at..];
                        let common = head.len().min(needle.len());
                        !needle.is_empty() && head.get(..common) == needle.get(..common)
                    })
                    .map(move |at| AcrossEnvelope {
                        needle,
                        bit: 1u64 << family,
                        at,
                    })
            })
            .collect();
        Self {
            on_host,
            always,
            failure_without_needles,
            failure_text: Scope::new(failure_needles),
            across_envelope,
            foreground,
            stderr: Scope::new(stderr_needles),
            output,
            output_text: Scope::new(output_needles),
        }
    }

    /// The families whose needle begins inside the envelope of `content`.
    fn across_envelope(&self, content: &[u8]) -> u64 {
        self.across_envelope
            .iter()
            .filter(|a| {
                content
                    .get(a.at..)
                    .is_some_and(|rest| rest.starts_with(a.needle))
            })
            .fold(0u64, |acc, a| acc | a.bit)
    }

    /// The bitset of the families of `host` whose anchors this observation
    /// satisfies. Text is scanned only for needles those families declared.
    pub(crate) fn candidates(&self, observation: &Observation, host: Host) -> u64 {
        let hosts = self.on_host[host as usize];
        hosts
            & (self.always
                | match &observation.outcome {
                    Outcome::Failure(failure) => self.of_failure(failure, host),
                    Outcome::Success(success) => {
                        self.of_success(success, host) | self.of_output(success, host)
                    }
                })
    }

    /// The output-text families a success's rendered text names.
    fn of_output(&self, success: &Success, host: Host) -> u64 {
        let hosts = self.on_host[host as usize];
        let wanted = self.output & hosts;
        if wanted == 0 || success.content.is_empty() {
            return 0;
        }
        let text = [success.content.as_bytes()];
        self.output_text.hits(host, &self.on_host, wanted, &text)
    }

    /// The failure-text families a failure's message or content names.
    fn of_failure(&self, failure: &Failure, host: Host) -> u64 {
        let mut out = self.failure_without_needles;
        // The rendered content is normally `Error: <message>`: then it can
        // hold a needle its message does not only across the envelope,
        // which the needles that can begin inside it tell.
        let (message, content) = (failure.message.as_bytes(), failure.content.as_bytes());
        let enveloped = failure.content.strip_prefix(ENVELOPE) == Some(failure.message.as_str());
        let texts: &[&[u8]] = if enveloped {
            out |= self.across_envelope(content);
            &[message]
        } else {
            &[message, content]
        };
        out |= self.failure_text.hits(host, &self.on_host, u64::MAX, texts);
        out
    }

    /// The foreground-run families a success's value satisfies.
    fn of_success(&self, success: &Success, host: Host) -> u64 {
        let mut out = 0u64;
        if self.foreground.is_empty() {
            return out;
        }
        // Read only what the anchors need, lazily: on the common path
        // (exit 0, empty stderr) that is `kind`, `exitCode` and stderr.
        let Some(run) = Foreground::of(&success.value) else {
            return out;
        };
        // An exit code the value does not report (absent, null, not an
        // integer) is not a failed exit, and it rules out no other anchor.
        let failed = run.failed();
        let denied = || run.denied();
        let mut need_scan = 0u64;
        for anchor in &self.foreground {
            if anchor.failed_exit && !failed {
                continue;
            }
            if anchor.denied_stamp && !denied() {
                continue;
            }
            if anchor.needs_stderr_needle {
                need_scan |= anchor.bit;
            } else {
                out |= anchor.bit;
            }
        }
        if need_scan != 0 {
            if let Some(stderr) = run.stderr() {
                let text = [stderr.as_bytes()];
                out |= self.stderr.hits(host, &self.on_host, need_scan, &text);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests;
