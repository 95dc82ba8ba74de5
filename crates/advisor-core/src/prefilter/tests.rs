//! The prefilter's own tests: which families each text and value admits.

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
        [u64::MAX; 4],
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
        f.candidates(&failure_with("xabcdx", "Error: xabcdx", &[]), Host::Dsh),
        0b100011
    );
    assert_eq!(
        f.candidates(&failure_with("nothing", "Error: nothing", &[]), Host::Dsh),
        0b100000
    );
}

#[test]
fn content_is_scanned_when_it_differs_from_the_message() {
    let f = filter();
    assert_eq!(
        f.candidates(&failure_with("", "Error: abc", &[]), Host::Dsh),
        0b100001
    );
    let only_content = observation(Outcome::Failure(Failure {
        message: String::new(),
        members: vec![],
        content: "bcd".into(),
        code: None,
    }));
    assert_eq!(f.candidates(&only_content, Host::Dsh), 0b100010);
}

#[test]
fn foreground_anchors_follow_the_value() {
    let f = filter();
    assert_eq!(
        f.candidates(&ok(foreground(0, "abc", "", None)), Host::Dsh),
        0b100000
    );
    assert_eq!(
        f.candidates(&ok(foreground(1, "", "", None)), Host::Dsh),
        0b100100
    );
    let denied = json!({"mode": "workspace-write", "denied": true});
    assert_eq!(
        f.candidates(&ok(foreground(1, "", "", Some(denied))), Host::Dsh),
        0b101100
    );
    assert_eq!(
        f.candidates(
            &ok(foreground(0, "", "HRESULT 0x80041003", None)),
            Host::Dsh
        ),
        0b110000
    );
    assert_eq!(
        f.candidates(&ok(json!({"kind": "background", "exitCode": 1})), Host::Dsh),
        0b100000
    );
    assert_eq!(
        f.candidates(
            &ok(json!({"kind": "foreground", "exitCode": "1"})),
            Host::Dsh
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
        [u64::MAX, 0b01, 0b10, 0],
    );
    let said = |content: &str| {
        observation(Outcome::Success(Success {
            value: json!(null),
            content: content.to_owned(),
        }))
    };
    let block = "x\n<sandbox_violations>\ndeny";
    assert_eq!(f.candidates(&said(block), Host::Dsh), 0b10);
    // A success's text is never read for a failure-text family.
    assert_eq!(f.candidates(&said("abc"), Host::Dsh), 0);
    // The host's families only: the output family is not among them.
    assert_eq!(f.candidates(&said(block), Host::ClaudeCode), 0);
    assert_eq!(
        f.candidates(
            &failure_with(block, &format!("Error: {block}"), &[]),
            Host::Codex
        ),
        0b10
    );
    assert_eq!(
        f.candidates(&failure_with("abc", "Error: abc", &[]), Host::Codex),
        0
    );
}

/// Each host's needles are built into a set of its own, on its first text:
/// a host asked after another one still finds its own families' needles.
#[test]
fn each_host_scans_its_own_families_needles() {
    let f = Prefilter::new(
        [
            Anchors::FailureText { needles: &["abc"] },
            Anchors::FailureText { needles: &["xyz"] },
        ]
        .into_iter(),
        [0b11, 0b10, 0b01, 0],
    );
    let both = failure_with("abc xyz", "Error: abc xyz", &[]);
    assert_eq!(f.candidates(&both, Host::ClaudeCode), 0b10);
    assert_eq!(f.candidates(&both, Host::Dsh), 0b11);
    assert_eq!(f.candidates(&both, Host::Codex), 0b01);
    // An empty text builds no set and finds nothing.
    let empty = Prefilter::new(
        [Anchors::FailureText { needles: &["abc"] }].into_iter(),
        [1; 4],
    );
    assert_eq!(empty.candidates(&failure_with("", "", &[]), Host::Dsh), 0);
    assert!(empty.failure_text.sets.iter().all(|s| s.get().is_none()));
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
        assert_eq!(f.candidates(&ok(value), Host::Dsh), 0b110000, "{exit:?}");
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
        [u64::MAX; 4],
    );
    assert_eq!(
        f.candidates(&failure_with("abc", "Error: abc", &[]), Host::Dsh),
        1
    );
    assert_eq!(
        f.candidates(&failure_with("bc", "Error: bc", &[]), Host::Dsh),
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
        let f = Prefilter::new(anchors.into_iter(), [u64::MAX; 4]);
        prop_assert_eq!(f.candidates(&failure_with(&message, &content, &[]), Host::Dsh), model);
    }
}
