#![doc = include_str!("../README.md")]

pub mod advise;
mod brief;
pub mod facts;
pub mod gate;
pub mod provenance;
pub mod recognize;
#[cfg(feature = "testing")]
pub mod testing;

use advisor_core::{Anchors, Diagnosis, FamilyId, PolicyNeed, ToolScope};

pub use facts::{MARKER, TRACEME};
pub use recognize::Finding;

/// The family id.
pub const ID: FamilyId = FamilyId::new("ptrace-refused");

/// The structured diagnosis: the tracer started, the sandbox's system-call
/// filter refused its `ptrace`, and it stopped; no approval changes that.
pub const DIAGNOSIS: Diagnosis = advisor_core::diagnosis!(
    category: CommandFailed, phase: Execute, confidence: Confirmed, source: Policy,
    command_started: Yes, effects: None, retry: AfterRemedy, remedy_owner: User
);

advisor_core::family! {
    /// Gemini CLI's tool sandbox refuses `ptrace` to every command: a tracer
    /// fails, and no sandbox expansion can grant it.
    pub struct PtraceRefused {
        id: ID,
        finding: Finding,
        readme: include_str!("../README.md"),
        // Only Gemini CLI's bubblewrap sandbox adds a filter that refuses
        // ptrace and marks the result; under any other host the registry
        // never shows this family an observation.
        hosts: &[advisor_core::Host::GeminiCli],
        anchors: Anchors::FailureText { needles: &[TRACEME] },
        recognize: recognize::recognize,
        gate: gate::gate,
        advise: advise::advise,
        tools: ToolScope::SandboxProcess,
        // Gemini's mark says its sandbox ran the command; no mode is asked.
        policy_need: |_, _| PolicyNeed::NotNeeded,
        provenance: provenance::provenance,
        diagnose: |_, _| DIAGNOSIS,
        sample: testing::sample(),
    }
}
