#![doc = include_str!("../README.md")]

pub mod advise;
pub mod gate;
pub mod recognize;
#[cfg(feature = "testing")]
pub mod testing;

use advisor_core::{Anchors, FamilyId};

pub use recognize::{Carrier, Finding, SENTENCE, STACK_FRAME};

/// The family id.
pub const ID: FamilyId = FamilyId::new("pty-startup");

advisor_core::family! {
    /// The persistent-shell startup family.
    pub struct PtyStartup {
        id: ID,
        finding: Finding,
        readme: include_str!("../README.md"),
        anchors: Anchors::FailureText { needles: &[SENTENCE] },
        recognize: recognize::recognize,
        gate: gate::gate,
        advise: advise::advise,
        sample: testing::sample(),
    }
}
