#![doc = include_str!("../README.md")]

mod advise;
mod gate;
mod preflight;
mod recognize;
#[cfg(feature = "testing")]
pub mod testing;

use advisor_core::{Anchors, FamilyId, HostFacts};

pub use preflight::{Comparison, NO_TEMP_DIR, NOT_COMPARABLE, PreflightFacts, compare};
pub use recognize::{Carrier, TempRootRefusal};

/// The family's stable id.
pub const ID: FamilyId = FamilyId::new("temp-root-inside-workspace");

/// The pre-flight seat is wanted on Windows hosts only: the backend that
/// refuses is the Windows ACL backend.
fn wants_preflight(host: &HostFacts) -> bool {
    host.is_windows()
}

advisor_core::family! {
    /// The `temp-root-inside-workspace` family (failure half and pre-flight seat).
    pub struct TempRootInsideWorkspace {
        id: ID,
        finding: TempRootRefusal,
        readme: include_str!("../README.md"),
        anchors: Anchors::FailureText { needles: &[recognize::SENTENCE_HEAD] },
        recognize: recognize::recognize,
        gate: gate::gate,
        advise: advise::failure,
        policy_need: gate::policy_need,
        preflight: (wants_preflight, preflight::verdict),
        sample: testing::sample(),
    }
}
