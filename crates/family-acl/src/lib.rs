#![doc = include_str!("../README.md")]

mod advise;
mod finding;
mod gate;
mod recognize;
#[cfg(feature = "testing")]
pub mod testing;

use advisor_core::{Anchors, FailFast, FamilyId, RegistryBuilder};

pub use finding::{AclClass, AclFinding, Api, Carrier, Field, Label};

/// The family's stable id.
pub const ID: FamilyId = FamilyId::new("acl-provisioning");

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
        sample: testing::sample(),
    }
}

/// Its remedy runs while the session continues, so it may feed the fail-fast budget.
impl FailFast for AclProvisioning {}

/// Registers the family the only way it should be: as the fail-fast family.
pub fn register(builder: RegistryBuilder) -> RegistryBuilder {
    builder.fail_fast_family(AclProvisioning)
}
