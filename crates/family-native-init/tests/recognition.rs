//! What the fixtures cannot show: the prefilter never decides anything the
//! recognizer would not, and a failure never reaches the recognizer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use advisor_core::testing::{Case, observation};
use advisor_core::{Family, Outcome};
use family_native_init::NativeInit;

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
