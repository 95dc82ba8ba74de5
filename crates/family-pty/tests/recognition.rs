//! Which failures are the producer's: positive arms and their look-alikes.

mod common;

use advisor_core::{Anchors, Family, SandboxMode};
use common::{Expect, check, desktop, load};
use family_pty::{Carrier, PtyStartup, SENTENCE};

fn ws() -> advisor_core::Environment {
    desktop(SandboxMode::WorkspaceWrite)
}

#[test]
fn producer_exit_sentence_is_recognized() {
    check("pos-bash-exit", &ws(), Expect::Speak);
    check("pos-pwsh-exit", &ws(), Expect::Speak);
}

#[test]
fn finding_carries_the_failing_tool_and_the_carrier() {
    let f = PtyStartup.recognize(&load("pos-pwsh-exit")).unwrap();
    assert_eq!(f.tool.inspect(), "pwsh");
    assert_eq!(f.carrier, Carrier::Message);
    assert_eq!(f.sentence.inspect(), SENTENCE);
    assert_eq!(f.frames, 0);
    let f = PtyStartup.recognize(&load("pos-content-only")).unwrap();
    assert_eq!(f.carrier, Carrier::Content);
    let f = PtyStartup.recognize(&load("pos-stack-trace")).unwrap();
    assert_eq!((f.carrier, f.frames), (Carrier::Message, 3));
    assert_eq!(f.sentence.inspect(), SENTENCE);
    let f = PtyStartup
        .recognize(&load("pos-stack-trace-rendered"))
        .unwrap();
    assert_eq!((f.carrier, f.frames), (Carrier::Content, 1));
}

#[test]
fn error_envelope_on_the_message_is_stripped() {
    check("pos-enveloped-message", &ws(), Expect::Speak);
}

#[test]
fn trailing_whitespace_is_allowed() {
    check("pos-trailing-newline", &ws(), Expect::Speak);
}

/// Issue 13: the one envelope rule (`advisor_core::envelope::unwrap`): one
/// `Error: ` or `AggregateError: ` in front and trailing white space behind;
/// leading white space means something else wrote the line.
#[test]
fn the_cores_envelope_rule_applies() {
    check("pos-aggregate-envelope-crlf", &ws(), Expect::Speak);
    check("neg-leading-whitespace", &ws(), Expect::NotRecognized);
}

/// Issue 13: the sentence as the message's first line with nothing but stack
/// frames (`    at …`) below it is the producer's throw with its stack.
#[test]
fn sentence_followed_by_a_stack_trace_is_recognized() {
    check("pos-stack-trace", &ws(), Expect::Speak);
    check("pos-stack-trace-rendered", &ws(), Expect::Speak);
}

/// Any other later line keeps the message a quotation.
#[test]
fn a_stack_trace_with_any_other_line_is_refused() {
    check("neg-stack-then-log-line", &ws(), Expect::NotRecognized);
    check("neg-stack-frame-misindented", &ws(), Expect::NotRecognized);
}

#[test]
fn content_only_carrier_is_recognized() {
    check("pos-content-only", &ws(), Expect::Speak);
}

#[test]
fn readiness_timeout_sibling_is_refused() {
    check("neg-timeout-sibling", &ws(), Expect::NotRecognized);
    check("neg-timeout-sibling-viewport", &ws(), Expect::NotRecognized);
}

#[test]
fn sentence_with_appended_detail_is_refused() {
    check("neg-exit-with-viewport", &ws(), Expect::NotRecognized);
}

#[test]
fn cleanup_and_rollback_aggregates_are_refused() {
    check("neg-cleanup-aggregate", &ws(), Expect::NotRecognized);
    check("neg-rollback", &ws(), Expect::NotRecognized);
}

#[test]
fn initialization_neighbours_are_refused() {
    check("neg-bash-init", &ws(), Expect::NotRecognized);
    check("neg-pwsh-init", &ws(), Expect::NotRecognized);
}

#[test]
fn another_familys_message_from_confine_is_refused() {
    check("neg-acl-from-confine", &ws(), Expect::NotRecognized);
}

#[test]
fn quoted_sentence_is_refused() {
    check("neg-quoted-prefix", &ws(), Expect::NotRecognized);
    check("neg-quoted-multiline", &ws(), Expect::NotRecognized);
}

#[test]
fn double_envelope_is_refused() {
    check("neg-double-envelope", &ws(), Expect::NotRecognized);
}

#[test]
fn sentence_must_match_byte_for_byte() {
    check("neg-trailing-period", &ws(), Expect::NotRecognized);
    check("neg-lowercase", &ws(), Expect::NotRecognized);
}

#[test]
fn content_is_not_read_when_the_message_says_something_else() {
    check(
        "neg-content-quote-other-message",
        &ws(),
        Expect::NotRecognized,
    );
}

#[test]
fn content_only_carrier_must_be_the_whole_sentence() {
    check("neg-content-only-longer", &ws(), Expect::NotRecognized);
}

#[test]
fn successful_result_quoting_it_is_refused() {
    check("neg-success-cat-log", &ws(), Expect::NotRecognized);
    check("neg-success-failed-exit", &ws(), Expect::NotRecognized);
}

/// The prefilter runs before the recognizer, so every positive must hit an anchor.
#[test]
fn anchors_are_necessary_conditions() {
    let Anchors::FailureText { needles } = PtyStartup.anchors() else {
        panic!("expected failure-text anchors");
    };
    assert_eq!(needles, &[SENTENCE]);
    for fixture in common::fixture_names()
        .iter()
        .filter(|f| f.starts_with("pos-"))
    {
        let obs = load(fixture);
        let failure = obs.failure().unwrap();
        assert!(
            needles
                .iter()
                .any(|n| failure.message.contains(n) || failure.content.contains(n)),
            "{fixture} would be skipped by the prefilter"
        );
    }
}

/// Tidy: every fixture is exercised by a test in this file, and every fixture
/// is named as the positive (`pos-`) or negative (`neg-`) case it is.
#[test]
fn every_fixture_is_exercised() {
    let source = include_str!("recognition.rs");
    let names = common::fixture_names();
    assert!(names.iter().any(|n| n.starts_with("neg-")));
    for name in names {
        assert!(
            name.starts_with("pos-") || name.starts_with("neg-"),
            "{name}"
        );
        assert!(source.contains(&format!("\"{name}\"")), "{name} is unused");
    }
}
