//! What the fixtures' snapshots do not make obvious: the recognizer itself
//! agrees with the registry's prefilter on every fixture, and the resolver is
//! never asked. Which fixture speaks and which is refused is the fixtures'
//! own `[expect]` (`tests/fixtures.rs`).

#![allow(clippy::unwrap_used, clippy::panic)] // test helpers outside #[test] fns

use advisor_core::testing::{Arm, Case, fixture_files, host};
use advisor_core::{Family, Platform, PolicyNeed};
use family_acl_aggregate::AclAggregateFailure;

fn cases() -> Vec<Case> {
    fixture_files(env!("CARGO_MANIFEST_DIR"))
        .iter()
        .map(|p| Case::load(p).unwrap())
        .collect()
}

/// No mode gate: the resolver is never asked, on any host, so it can never
/// become a way to withhold advice the line justifies.
#[test]
fn the_resolver_is_never_needed() {
    for case in cases().into_iter().filter(|c| c.arm == Arm::Positive) {
        let finding = AclAggregateFailure
            .recognize(case.observation().unwrap())
            .unwrap();
        for platform in [Platform::Win32, Platform::Linux, Platform::Macos] {
            assert_eq!(
                AclAggregateFailure.policy_need(&finding, &host(platform)),
                PolicyNeed::NotNeeded,
                "{}",
                case.name
            );
        }
    }
}
