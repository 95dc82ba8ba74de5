#![doc = include_str!("../README.md")]

mod advise;
mod brief;
mod finding;
mod gate;
mod recognize;
#[cfg(feature = "testing")]
pub mod testing;

use advisor_core::{Anchors, FailFast, FamilyId, RegistryBuilder};

pub use finding::{AclClass, AclFinding, Api, Carrier, Field, Label};

/// The family's stable id.
pub const ID: FamilyId = FamilyId::new("acl-provisioning");

/// The family's structured diagnosis: the runner could not grant the restricted token its access: the provider's setup failed before the command started; the user fixes the ownership or the grant, then the call can run.
pub const DIAGNOSIS: advisor_core::Diagnosis = advisor_core::Diagnosis {
    category: advisor_core::diagnosis::Category::RunnerSetupFailed,
    phase: advisor_core::diagnosis::Phase::Setup,
    confidence: advisor_core::diagnosis::Confidence::Confirmed,
    source: advisor_core::diagnosis::Source::Runner,
    command_started: advisor_core::diagnosis::CommandStarted::No,
    effects: advisor_core::diagnosis::Effects::None,
    retry: advisor_core::diagnosis::Retry::AfterRemedy,
    remedy_owner: advisor_core::diagnosis::RemedyOwner::User,
};

advisor_core::family! {
    /// The Windows ACL provisioning failure family.
    pub struct AclProvisioning {
        id: ID,
        finding: AclFinding,
        readme: include_str!("../README.md"),
        anchors: Anchors::FailureText { needles: &[recognize::NEEDLE] },
        recognize: recognize::recognize,
        gate: gate::gate,
        advise: advise::advise,
        policy_need: gate::policy_need,
        diagnose: |_, _| DIAGNOSIS,
        sample: testing::sample(),
    }
}

/// Its remedy runs while the session continues, so it may feed the fail-fast budget.
impl FailFast for AclProvisioning {}

/// Registers the family the only way it should be: as the fail-fast family.
pub fn register(builder: RegistryBuilder) -> RegistryBuilder {
    builder.fail_fast_family(AclProvisioning)
}
