#![doc = include_str!("../README.md")]

mod advise;
mod brief;
mod facts;
mod gate;
mod recognize;
#[cfg(feature = "testing")]
pub mod testing;

use advisor_core::{Anchors, FamilyId, ToolScope};

pub use recognize::{AggregateFailure, Half, TEMP_SENTENCE, WORKSPACE_SENTENCE};

/// The family's stable id.
pub const ID: FamilyId = FamilyId::new("acl-aggregate-failure");

/// The family's structured diagnosis: the grant's setup failed and undoing it failed too, so a grant may be left behind; the message does not say which candidate cause it was.
pub const DIAGNOSIS: advisor_core::Diagnosis = advisor_core::diagnosis!(
    category: RunnerSetupFailed, phase: Setup, confidence: Suspected, source: Runner,
    command_started: No, effects: Possible, retry: AfterRemedy, remedy_owner: User
);

advisor_core::family! {
    /// A Windows ACL grant and its cleanup both failed, and the line hides why.
    pub struct AclAggregateFailure {
        id: ID,
        finding: AggregateFailure,
        readme: include_str!("../README.md"),
        hosts: &[advisor_core::Host::Dsh],
        anchors: Anchors::FailureText {
            needles: &[TEMP_SENTENCE, WORKSPACE_SENTENCE],
        },
        recognize: recognize::recognize,
        gate: gate::gate,
        advise: advise::advise,
        tools: ToolScope::SandboxProcess,
        policy_need: gate::policy_need,
        diagnose: |_, _| DIAGNOSIS,
        sample: testing::sample(),
    }
}
