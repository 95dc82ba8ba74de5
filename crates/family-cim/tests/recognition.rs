//! What the fixtures cannot show: the anchors never decide anything the
//! recognizer would not, and the policy is looked up only where it decides.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use advisor_core::testing::Case;
use advisor_core::{Family, PolicyNeed};
use family_cim::CimWmiDenial;

fn case(name: &str) -> Case {
    Case::named(env!("CARGO_MANIFEST_DIR"), name).expect("the fixture loads")
}

/// On another platform the platform alone rules, so the resolver is not asked;
/// on Windows the mode decides, so it is.
#[test]
fn the_policy_is_looked_up_only_on_windows() {
    for (name, need) in [
        ("pos-en-record", PolicyNeed::Required),
        ("pos-zh-record-read-only", PolicyNeed::Required),
        ("ctl-en-record-linux", PolicyNeed::NotNeeded),
        ("ctl-zh-record-macos", PolicyNeed::NotNeeded),
    ] {
        let case = case(name);
        let finding = CimWmiDenial
            .recognize(case.observation().expect("an observation"))
            .unwrap_or_else(|| panic!("{name} is not recognized"));
        assert_eq!(
            CimWmiDenial.policy_need(&finding, &case.host),
            need,
            "{name}"
        );
    }
}
