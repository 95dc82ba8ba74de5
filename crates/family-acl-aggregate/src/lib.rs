#![doc = include_str!("../README.md")]

mod advise;
mod gate;
mod recognize;
#[cfg(feature = "testing")]
pub mod testing;

use advisor_core::{Anchors, FamilyId};

pub use recognize::{AggregateFailure, Half, TEMP_SENTENCE, WORKSPACE_SENTENCE};

/// The family's stable id.
pub const ID: FamilyId = FamilyId::new("acl-aggregate-failure");

advisor_core::family! {
    /// A Windows ACL grant and its cleanup both failed, and the line hides why.
    pub struct AclAggregateFailure {
        id: ID,
        finding: AggregateFailure,
        readme: include_str!("../README.md"),
        anchors: Anchors::FailureText {
            needles: &[TEMP_SENTENCE, WORKSPACE_SENTENCE],
        },
        recognize: recognize::recognize,
        gate: gate::gate,
        advise: advise::advise,
        policy_need: gate::policy_need,
        sample: testing::sample(),
    }
}
