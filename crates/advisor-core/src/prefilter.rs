//! One pass over an observation's text for every registered family's anchors.
//!
//! Built once, at registry construction: every literal needle of every family
//! goes into one Aho-Corasick automaton per text scope (failure text, success
//! stderr), and each needle maps back to the bitset of families that declared
//! it. A result that matches no anchor costs one scan and no recognizer runs.

use aho_corasick::{AhoCorasick, MatchKind};

use crate::family::Anchors;
use crate::observation::{Observation, Outcome};
use serde_json::Value;

struct NeedleSet {
    matcher: Option<AhoCorasick>,
    needles: Vec<(&'static str, u64)>,
    all: u64,
}

impl NeedleSet {
    fn new(needles: Vec<(&'static str, usize)>) -> Self {
        let needles: Vec<(&'static str, u64)> =
            needles.into_iter().map(|(n, i)| (n, 1u64 << i)).collect();
        let all = needles.iter().fold(0u64, |acc, (_, bit)| acc | bit);
        let matcher = if needles.is_empty() {
            None
        } else {
            // An automaton over a handful of short literals cannot exceed the
            // builder's limits; if it ever did, every such family stays a candidate.
            // Leftmost semantics let the automaton use its vectorized (Teddy)
            // prefilter; only presence is asked of it, never which match.
            AhoCorasick::builder()
                .match_kind(MatchKind::LeftmostFirst)
                .build(needles.iter().map(|(n, _)| n))
                .ok()
        };
        Self {
            matcher,
            needles,
            all,
        }
    }

    /// The families (within `wanted`) whose needles occur in any of `texts`.
    ///
    /// The common case — no needle anywhere — is one `is_match` pass per text,
    /// which uses the automaton's vectorized prefilter. Only when something
    /// matched are the needles checked one by one, so a needle hidden inside
    /// another family's match can never drop that family.
    fn hits(&self, wanted: u64, texts: &[&str]) -> u64 {
        let wanted = wanted & self.all;
        if wanted == 0 {
            return 0;
        }
        let Some(matcher) = &self.matcher else {
            return wanted;
        };
        if !texts.iter().any(|t| matcher.is_match(*t)) {
            return 0;
        }
        self.needles
            .iter()
            .filter(|(needle, bit)| bit & wanted != 0 && texts.iter().any(|t| t.contains(needle)))
            .fold(0u64, |acc, (_, bit)| acc | bit)
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
                // The rendered content is normally `Error: <message>`: scan it
                // only when it says something the message does not.
                let enveloped =
                    failure.content.strip_prefix("Error: ") == Some(failure.message.as_str());
                let texts: &[&str] = if enveloped {
                    &[&failure.message]
                } else {
                    &[&failure.message, &failure.content]
                };
                out |= self.failure_text.hits(u64::MAX, texts);
            }
            Outcome::Success(success) => {
                if self.foreground.is_empty() {
                    return out;
                }
                // Read only what the anchors need, lazily: on the common path
                // (exit 0, empty stderr) that is `kind`, `exitCode` and stderr.
                let Some(object) = success.value.as_object() else {
                    return out;
                };
                if object.get("kind").and_then(Value::as_str) != Some("foreground") {
                    return out;
                }
                // An exit code the value does not report (absent, null, not an
                // integer) is not a failed exit, and it rules out no other anchor.
                let failed = object
                    .get("exitCode")
                    .and_then(Value::as_i64)
                    .is_some_and(|code| code != 0);
                let denied = || {
                    object
                        .get("sandbox")
                        .and_then(|s| s.get("denied"))
                        .and_then(Value::as_bool)
                        == Some(true)
                };
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
                    let stderr = object
                        .get("stderr")
                        .and_then(|s| s.get("text"))
                        .and_then(Value::as_str);
                    if let Some(stderr) = stderr {
                        out |= self.stderr.hits(need_scan, &[stderr]);
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::observation::{Failure, Success};
    use crate::testing::{failure_with, foreground, observation};
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
            f.candidates(&failure_with("xabcdx", "Error: xabcdx", &[])),
            0b100011
        );
        assert_eq!(
            f.candidates(&failure_with("nothing", "Error: nothing", &[])),
            0b100000
        );
    }

    #[test]
    fn content_is_scanned_when_it_differs_from_the_message() {
        let f = filter();
        assert_eq!(f.candidates(&failure_with("", "Error: abc", &[])), 0b100001);
        let only_content = observation(Outcome::Failure(Failure {
            message: String::new(),
            members: vec![],
            content: "bcd".into(),
            code: None,
        }));
        assert_eq!(f.candidates(&only_content), 0b100010);
    }

    #[test]
    fn foreground_anchors_follow_the_value() {
        let f = filter();
        assert_eq!(f.candidates(&ok(foreground(0, "abc", "", None))), 0b100000);
        assert_eq!(f.candidates(&ok(foreground(1, "", "", None))), 0b100100);
        let denied = json!({"mode": "workspace-write", "denied": true});
        assert_eq!(
            f.candidates(&ok(foreground(1, "", "", Some(denied)))),
            0b101100
        );
        assert_eq!(
            f.candidates(&ok(foreground(0, "", "HRESULT 0x80041003", None))),
            0b110000
        );
        assert_eq!(
            f.candidates(&ok(json!({"kind": "background", "exitCode": 1}))),
            0b100000
        );
        assert_eq!(
            f.candidates(&ok(json!({"kind": "foreground", "exitCode": "1"}))),
            0b100000
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
            assert_eq!(f.candidates(&ok(value)), 0b110000, "{exit:?}");
        }
    }
}
