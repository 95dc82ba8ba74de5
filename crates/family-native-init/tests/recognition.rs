//! What the fixtures cannot show: the prefilter never decides anything the
//! recognizer would not, and a failure never reaches the recognizer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use advisor_core::testing::{Case, fixture_files, observation};
use advisor_core::{Family, Outcome, Registry};
use family_native_init::NativeInit;

/// Every fixture is asked twice: behind the registry's prefilter (production)
/// and without it (as `explain` asks). The two must agree, so the anchors never
/// decide anything the recognizer would not, and the recognizer never relies
/// on the anchors to refuse a shape.
#[test]
fn the_prefilter_and_the_recognizer_agree() {
    let registry = Registry::builder()
        .family(NativeInit)
        .build()
        .expect("one family registers");
    let unfiltered = Registry::builder()
        .family(NativeInit)
        .build()
        .expect("one family registers")
        .without_prefilter();
    let files = fixture_files(env!("CARGO_MANIFEST_DIR"));
    assert!(files.len() > 20, "the fixtures went missing");
    for path in files {
        let case = Case::load(&path).expect("the fixture loads");
        let obs = case.observation().expect("an observation");
        assert_eq!(
            registry.owner(obs).is_some(),
            unfiltered.owner(obs).is_some(),
            "{}: the prefilter and the recognizer disagree",
            case.name
        );
    }
}

#[test]
fn a_failure_result_never_reaches_the_recognizer_either() {
    // Without the registry's prefilter: the recognizer itself reads successes only.
    let case = Case::named(env!("CARGO_MANIFEST_DIR"), "ctl-failure-with-code")
        .expect("the fixture loads");
    let obs = case.observation().expect("an observation");
    assert!(obs.failure().is_some());
    assert!(NativeInit.recognize(obs).is_none());
    let mut forged = observation(Outcome::Failure(Default::default()));
    forged.arguments = serde_json::json!({"command": "x"});
    assert!(NativeInit.recognize(&forged).is_none());
}
