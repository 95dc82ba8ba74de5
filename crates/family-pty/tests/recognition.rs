//! What the fixtures cannot show: the finding's fields, that every positive
//! fixture passes the prefilter's anchors, and that the recognizer alone
//! refuses what the prefilter refuses.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use advisor_core::testing::{Case, fixture_files};
use advisor_core::{Anchors, Family, Observation};
use family_pty::{Carrier, Finding, PtyStartup, SENTENCE};

fn finding(name: &str) -> Finding {
    let case = Case::named(env!("CARGO_MANIFEST_DIR"), name).expect("the fixture loads");
    let observation = case.observation().expect("an observation");
    PtyStartup
        .recognize(observation)
        .unwrap_or_else(|| panic!("{name} is not recognized"))
}

#[test]
fn finding_carries_the_failing_tool_and_the_carrier() {
    let f = finding("pos-pwsh-exit");
    assert_eq!(f.tool.inspect(), "pwsh");
    assert_eq!(f.carrier, Carrier::Message);
    assert_eq!(f.sentence.inspect(), SENTENCE);
    assert_eq!(f.frames, 0);
    assert_eq!(finding("pos-content-only").carrier, Carrier::Content);
    let f = finding("pos-stack-trace");
    assert_eq!((f.carrier, f.frames), (Carrier::Message, 3));
    assert_eq!(f.sentence.inspect(), SENTENCE);
    let f = finding("pos-stack-trace-rendered");
    assert_eq!((f.carrier, f.frames), (Carrier::Content, 1));
}

/// The prefilter runs before the recognizer, so every positive must hit an anchor.
#[test]
fn anchors_are_necessary_conditions() {
    let Anchors::FailureText { needles } = PtyStartup.anchors() else {
        panic!("expected failure-text anchors");
    };
    assert_eq!(needles, &[SENTENCE]);
    let mut positives = 0;
    for path in fixture_files(env!("CARGO_MANIFEST_DIR")) {
        let case = Case::load(&path).expect("the fixture loads");
        if case.arm != advisor_core::testing::Arm::Positive {
            continue;
        }
        positives += 1;
        let failure = case
            .observation()
            .and_then(Observation::failure)
            .unwrap_or_else(|| panic!("{}: a positive is a failure", case.name));
        assert!(
            needles
                .iter()
                .any(|n| failure.message.contains(n) || failure.content.contains(n)),
            "{} would be skipped by the prefilter",
            case.name
        );
    }
    assert!(positives > 0, "no positive fixture");
}
