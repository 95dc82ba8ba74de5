#![doc = include_str!("../README.md")]

pub mod advise;
pub mod gate;
pub mod recognize;
#[cfg(feature = "testing")]
pub mod testing;

use advisor_core::{Anchors, Diagnosis, FamilyId};

pub use recognize::{Finding, SENTENCE};

/// The family id.
pub const ID: FamilyId = FamilyId::new("bwrap-cannot-start");

/// The structured diagnosis a harness can act on. Replace it with what the
/// producer's failure is (see `advisor_core::diagnosis`).
pub const DIAGNOSIS: Diagnosis = advisor_core::diagnosis!(
    category: CommandFailed, phase: Execute, confidence: Confirmed, source: Runner,
    command_started: Unknown, effects: Possible, retry: AfterRemedy, remedy_owner: User
);

advisor_core::family! {
    /// The `bwrap-cannot-start` family.
    pub struct BwrapCannotStart {
        id: ID,
        finding: Finding,
        readme: include_str!("../README.md"),
        // The agent hosts whose failures this family knows; under any other
        // host the registry never shows it an observation.
        hosts: &[advisor_core::Host::ClaudeCode, advisor_core::Host::Codex],
        anchors: Anchors::FailureText { needles: &[SENTENCE] },
        recognize: recognize::recognize,
        gate: gate::gate,
        advise: advise::advise,
        diagnose: |_, _| DIAGNOSIS,
        sample: testing::sample(),
    }
}
