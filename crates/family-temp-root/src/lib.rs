#![doc = include_str!("../README.md")]

mod advise;
mod brief;
mod facts;
mod gate;
mod preflight;
mod recognize;
#[cfg(feature = "testing")]
pub mod testing;

use advisor_core::{Anchors, FamilyId, HostFacts, PreflightVerdict, ToolScope};

pub use preflight::{Comparison, NO_TEMP_DIR, NOT_COMPARABLE, PreflightFacts, compare};
pub use recognize::{Carrier, TempRootRefusal};

/// The family's stable id.
pub const ID: FamilyId = FamilyId::new("temp-root-inside-workspace");

/// The pre-flight seat is wanted on Windows hosts only: the backend that
/// refuses is the Windows ACL backend.
fn wants_preflight(host: &HostFacts) -> bool {
    host.is_windows()
}

/// The family's structured diagnosis: the provider refuses to set up a temp root inside the workspace; nothing ran, and the user moves TMP/TEMP.
pub const DIAGNOSIS: advisor_core::Diagnosis = advisor_core::diagnosis!(
    category: RunnerSetupFailed, phase: Setup, confidence: Confirmed, source: Runner,
    command_started: No, effects: None, retry: AfterRemedy, remedy_owner: User
);

advisor_core::family! {
    /// The `temp-root-inside-workspace` family (failure half and pre-flight seat).
    pub struct TempRootInsideWorkspace {
        id: ID,
        finding: TempRootRefusal,
        readme: include_str!("../README.md"),
        hosts: &[advisor_core::Host::Dsh],
        anchors: Anchors::FailureText { needles: &[recognize::SENTENCE_HEAD] },
        recognize: recognize::recognize,
        gate: gate::gate,
        advise: advise::failure,
        tools: ToolScope::SandboxProcess,
        policy_need: gate::policy_need,
        diagnose: |_, _| DIAGNOSIS,
        preflight: (wants_preflight, |env| match preflight::verdict(env) {
            PreflightVerdict::Advise(a) => PreflightVerdict::Advise(a.with_diagnosis(DIAGNOSIS)),
            other => other,
        }),
        sample: testing::sample(),
    }
}
