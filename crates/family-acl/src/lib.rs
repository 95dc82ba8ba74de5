#![doc = include_str!("../README.md")]

mod advise;
mod brief;
mod facts;
mod finding;
mod gate;
mod recognize;
#[cfg(feature = "testing")]
pub mod testing;

use advisor_core::{Anchors, FailFast, FamilyId, RegistryBuilder, ToolScope};

pub use finding::{AclClass, AclFinding, Api, Carrier, Field, Label};

/// The family's stable id.
pub const ID: FamilyId = FamilyId::new("acl-provisioning");

/// The family's structured diagnosis: the runner could not grant the restricted token its access: the provider's setup failed before the command started; the user fixes the ownership or the grant, then the call can run.
pub const DIAGNOSIS: advisor_core::Diagnosis = advisor_core::diagnosis!(
    category: RunnerSetupFailed, phase: Setup, confidence: Confirmed, source: Runner,
    command_started: No, effects: None, retry: AfterRemedy, remedy_owner: User
);

advisor_core::family! {
    /// The Windows ACL provisioning failure family.
    pub struct AclProvisioning {
        id: ID,
        finding: AclFinding,
        readme: include_str!("../README.md"),
        hosts: &[advisor_core::Host::Dsh],
        anchors: Anchors::FailureText { needles: &[recognize::NEEDLE] },
        recognize: recognize::recognize,
        gate: gate::gate,
        advise: advise::advise,
        tools: ToolScope::SandboxProcess,
        policy_need: gate::policy_need,
        // Recognized only in a failure the harness settled (its runner's
        // thrown error), never in a command's output, which the harness
        // returns as a success value: the fail-fast budget may count it.
        provenance: |_, _| advisor_core::Provenance::Proven(advisor_core::Proof::HarnessRecord),
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
