#![doc = include_str!("../README.md")]

pub mod advise;
mod branches;
mod brief;
pub mod cause;
mod facts;
pub mod gate;
pub mod recognize;
#[cfg(feature = "testing")]
pub mod testing;

use advisor_core::{Anchors, FamilyId, ToolScope};

pub use cause::{Cause, STANDARD_WORKS_FROM};
pub use recognize::{Carrier, Finding, SENTENCE, STACK_FRAME};

/// The family id.
pub const ID: FamilyId = FamilyId::new("pty-startup");

/// The family's structured diagnosis: the pseudo-console shell died before its first prompt; the remedy is a preset or host change the user makes, after which a new session works.
pub const DIAGNOSIS: advisor_core::Diagnosis = advisor_core::diagnosis!(
    category: ConsoleHostError, phase: Spawn, confidence: Confirmed, source: Runner,
    command_started: No, effects: None, retry: AfterRemedy, remedy_owner: User
);

advisor_core::family! {
    /// The persistent-shell startup family.
    pub struct PtyStartup {
        id: ID,
        finding: Finding,
        readme: include_str!("../README.md"),
        hosts: &[advisor_core::Host::Dsh],
        anchors: Anchors::FailureText { needles: &[SENTENCE] },
        recognize: recognize::recognize,
        gate: gate::gate,
        advise: advise::advise,
        tools: ToolScope::SandboxProcess,
        diagnose: |_, _| DIAGNOSIS,
        sample: testing::sample(),
    }
}
