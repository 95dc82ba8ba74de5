//! One pass over an observation's text for every registered family's anchors.
//!
//! Built once, at registry construction: every literal needle of every family
//! goes into one [`NeedleSet`] per text scope (failure text, success stderr),
//! each needle mapped back to the bit of the family that declared it, and the
//! structural anchors (a foreground run, its exit, its denied stamp) are read
//! through [`shell::Foreground`](crate::shell::Foreground), the one reader of
//! the shell tools' value. A result that matches no anchor costs one scan and
//! no recognizer runs.

mod needles;

use needles::NeedleSet;

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

/// The registry-wide prefilter.
pub(crate) struct Prefilter {
    always: u64,
    failure_without_needles: u64,
    failure_text: NeedleSet,
    /// The only needles an enveloped content can hold where its message does
    /// not (none, for the shipped families).
    across_envelope: Vec<AcrossEnvelope>,
    foreground: Vec<ForegroundAnchor>,
    stderr: NeedleSet,
    /// The families whose needles are read in a success's rendered text too.
    output: u64,
    output_text: NeedleSet,
}

impl Prefilter {
    pub(crate) fn new(anchors: impl Iterator<Item = Anchors>) -> Self {
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
            always,
            failure_without_needles,
            failure_text: NeedleSet::new(failure_needles),
            across_envelope,
            foreground,
            stderr: NeedleSet::new(stderr_needles),
            output,
            output_text: NeedleSet::new(output_needles),
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

    /// The bitset of families among `hosts` (a family bitset: those of the
    /// observation's host) whose anchors this observation satisfies. Text
    /// is scanned only for needles some family in `hosts` declared.
    pub(crate) fn candidates(&self, observation: &Observation, hosts: u64) -> u64 {
        hosts
            & (self.always
                | match &observation.outcome {
                    Outcome::Failure(failure) => self.of_failure(failure),
                    Outcome::Success(success) => {
                        self.of_success(success) | self.of_output(success, hosts)
                    }
                })
    }

    /// The output-text families a success's rendered text names.
    fn of_output(&self, success: &Success, hosts: u64) -> u64 {
        let wanted = self.output & hosts;
        if wanted == 0 || success.content.is_empty() {
            return 0;
        }
        self.output_text.hits(wanted, &[success.content.as_bytes()])
    }

    /// The failure-text families a failure's message or content names.
    fn of_failure(&self, failure: &Failure) -> u64 {
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
        out |= self.failure_text.hits(u64::MAX, texts);
        out
    }

    /// The foreground-run families a success's value satisfies.
    fn of_success(&self, success: &Success) -> u64 {
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
                out |= self.stderr.hits(need_scan, &[stderr.as_bytes()]);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{failure_with, foreground, observation};
    use proptest::prelude::*;
    use serde_json::json;

    fn filter() -> Prefilter {
        Prefilter::new(
            [
                Anchors::FailureText { needles: &["abc"] },
                Anchors::FailureText { needles: &["bcd"] },
                Anchors::ForegroundRun {
                    failed_exit: true,
                    denied_stamp: false,
                    stderr_needles: &[],
                },
                Anchors::ForegroundRun {
                    failed_exit: true,
                    denied_stamp: true,
                    stderr_needles: &[],
                },
                Anchors::ForegroundRun {
                    failed_exit: false,
                    denied_stamp: false,
                    stderr_needles: &["0x8004"],
                },
                Anchors::Always,
            ]
            .into_iter(),
        )
    }

    fn ok(value: serde_json::Value) -> Observation {
        observation(Outcome::Success(Success {
            value,
            content: String::new(),
        }))
    }

    #[test]
    fn overlapping_needles_keep_both_families() {
        let f = filter();
        assert_eq!(
            f.candidates(&failure_with("xabcdx", "Error: xabcdx", &[]), u64::MAX),
            0b100011
        );
        assert_eq!(
            f.candidates(&failure_with("nothing", "Error: nothing", &[]), u64::MAX),
            0b100000
        );
    }

    #[test]
    fn content_is_scanned_when_it_differs_from_the_message() {
        let f = filter();
        assert_eq!(
            f.candidates(&failure_with("", "Error: abc", &[]), u64::MAX),
            0b100001
        );
        let only_content = observation(Outcome::Failure(Failure {
            message: String::new(),
            members: vec![],
            content: "bcd".into(),
            code: None,
        }));
        assert_eq!(f.candidates(&only_content, u64::MAX), 0b100010);
    }

    #[test]
    fn foreground_anchors_follow_the_value() {
        let f = filter();
        assert_eq!(
            f.candidates(&ok(foreground(0, "abc", "", None)), u64::MAX),
            0b100000
        );
        assert_eq!(
            f.candidates(&ok(foreground(1, "", "", None)), u64::MAX),
            0b100100
        );
        let denied = json!({"mode": "workspace-write", "denied": true});
        assert_eq!(
            f.candidates(&ok(foreground(1, "", "", Some(denied))), u64::MAX),
            0b101100
        );
        assert_eq!(
            f.candidates(&ok(foreground(0, "", "HRESULT 0x80041003", None)), u64::MAX),
            0b110000
        );
        assert_eq!(
            f.candidates(&ok(json!({"kind": "background", "exitCode": 1})), u64::MAX),
            0b100000
        );
        assert_eq!(
            f.candidates(
                &ok(json!({"kind": "foreground", "exitCode": "1"})),
                u64::MAX
            ),
            0b100000
        );
    }

    #[test]
    fn output_text_reads_a_success_only_for_the_hosts_asked() {
        let f = Prefilter::new(
            [
                Anchors::FailureText { needles: &["abc"] },
                Anchors::OutputText {
                    needles: &["<sandbox_violations>"],
                },
            ]
            .into_iter(),
        );
        let said = |content: &str| {
            observation(Outcome::Success(Success {
                value: json!(null),
                content: content.to_owned(),
            }))
        };
        let block = "x\n<sandbox_violations>\ndeny";
        assert_eq!(f.candidates(&said(block), u64::MAX), 0b10);
        // A success's text is never read for a failure-text family.
        assert_eq!(f.candidates(&said("abc"), u64::MAX), 0);
        // The host's families only: the output family is not among them.
        assert_eq!(f.candidates(&said(block), 0b01), 0);
        assert_eq!(
            f.candidates(&failure_with(block, &format!("Error: {block}"), &[]), 0b10),
            0b10
        );
        assert_eq!(
            f.candidates(&failure_with("abc", "Error: abc", &[]), 0b10),
            0
        );
    }

    #[test]
    fn an_exit_code_the_value_does_not_report_rules_out_only_failed_exit() {
        let f = filter();
        let denied = json!({"mode": "workspace-write", "denied": true});
        let stderr = json!({"text": "HRESULT 0x80041003", "truncated": false});
        for exit in [None, Some(json!(null)), Some(json!("1")), Some(json!(1.5))] {
            let mut value = json!({"kind": "foreground", "stderr": stderr, "sandbox": denied});
            if let Some(exit) = exit.clone() {
                value["exitCode"] = exit;
            }
            // Not a failed exit (bits 2, 3 stay off); the stderr needle (bit 4) still counts.
            assert_eq!(f.candidates(&ok(value), u64::MAX), 0b110000, "{exit:?}");
        }
    }

    /// `Error: <message>` is scanned as the message, and a needle that
    /// straddles the envelope is found in the content's head.
    #[test]
    fn a_needle_across_the_envelope_is_found_in_the_content() {
        let f = Prefilter::new(
            [Anchors::FailureText {
                needles: &["r: ab"],
            }]
            .into_iter(),
        );
        assert_eq!(
            f.candidates(&failure_with("abc", "Error: abc", &[]), u64::MAX),
            1
        );
        assert_eq!(
            f.candidates(&failure_with("bc", "Error: bc", &[]), u64::MAX),
            0
        );
    }

    fn leak(needles: Vec<String>) -> &'static [&'static str] {
        let needles: Vec<&'static str> = needles
            .into_iter()
            .map(|n| &*Box::leak(n.into_boxed_str()))
            .collect();
        Box::leak(needles.into_boxed_slice())
    }

    /// Needles and texts over a small alphabet (so needles overlap, and their
    /// rare bytes are dense enough to send a scan to the automaton, or sparse
    /// between runs of dots so the memchr passes compare), over a
    /// wider one (so the rare bytes need more passes than the scan takes),
    /// and with a multi-byte character.
    fn needle() -> impl Strategy<Value = String> {
        prop_oneof![
            3 => "[abrW: é-]{0,5}",
            1 => "[a-z0-9]{1,3}",
        ]
    }

    fn text() -> impl Strategy<Value = String> {
        prop_oneof![
            3 => "[abrW: é-]{0,200}",
            1 => "[a-z0-9 ]{0,600}",
            1 => ("[abrW: -]{0,8}", 0usize..700).prop_map(|(unit, n)| unit.repeat(n)),
            // Sparse: words of the small alphabet between long runs of a byte
            // no needle holds, so the memchr passes meet few hits.
            2 => prop::collection::vec(("[abrW: é-]{0,6}", 0usize..300), 0..5).prop_map(|parts| {
                parts
                    .into_iter()
                    .map(|(word, dots)| format!("{word}{}", ".".repeat(dots)))
                    .collect()
            }),
        ]
    }

    proptest! {
        /// The shipped prefilter selects exactly the failure-text families
        /// whose needles occur in the message or the content (a family with
        /// no needle: every failure), whatever path its scan takes.
        #[test]
        fn selects_exactly_the_families_whose_needles_occur(
            families in prop::collection::vec(prop::collection::vec(needle(), 0..4), 1..12),
            message in text(),
            content in prop::option::of(text()),
        ) {
            let content = content.unwrap_or_else(|| format!("Error: {message}"));
            let model = families
                .iter()
                .enumerate()
                .filter(|(_, needles)| {
                    needles.is_empty()
                        || needles
                            .iter()
                            .any(|n| message.contains(n.as_str()) || content.contains(n.as_str()))
                })
                .fold(0u64, |acc, (i, _)| acc | 1 << i);
            let anchors: Vec<Anchors> = families
                .into_iter()
                .map(|needles| Anchors::FailureText { needles: leak(needles) })
                .collect();
            let f = Prefilter::new(anchors.into_iter());
            prop_assert_eq!(f.candidates(&failure_with(&message, &content, &[]), u64::MAX), model);
        }
    }
}
