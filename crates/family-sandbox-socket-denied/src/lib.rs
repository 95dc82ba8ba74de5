#![doc = include_str!("../README.md")]

pub mod advise;
mod brief;
pub mod facts;
pub mod gate;
pub mod gemini;
pub mod provenance;
pub mod recognize;
#[cfg(feature = "testing")]
pub mod testing;

use advisor_core::{Anchors, Diagnosis, FamilyId, ToolScope};

pub use recognize::{Finding, Refusal, Runtime};

/// The family id.
pub const ID: FamilyId = FamilyId::new("sandbox-socket-denied");

/// The structured diagnosis: the command ran, and the sandbox refused a
/// write outside the directories it lets commands write.
pub const DIAGNOSIS: Diagnosis = advisor_core::diagnosis!(
    category: CommandFailed, phase: Execute, confidence: Confirmed, source: Policy,
    command_started: Yes, effects: Possible, retry: AfterRemedy, remedy_owner: User
);

advisor_core::family! {
    /// A write the client's sandbox refused outside its writable roots (or
    /// any write, under Codex's `read-only`).
    pub struct SandboxSocketDenied {
        id: ID,
        finding: Finding,
        readme: include_str!("../README.md"),
        hosts: &[
            advisor_core::Host::ClaudeCode,
            advisor_core::Host::Codex,
            advisor_core::Host::GeminiCli,
        ],
        anchors: Anchors::OutputText { needles: recognize::NEEDLES },
        recognize: recognize::recognize,
        gate: gate::gate,
        advise: advise::advise,
        // The line comes from a process the sandbox confined; a file or
        // network tool's text quoting it is not one.
        tools: ToolScope::SandboxProcess,
        // The host's own facts, checked by the hook outside the sandbox.
        checks: provenance::checks,
        provenance: provenance::provenance,
        diagnose: |_, _| DIAGNOSIS,
        sample: testing::sample(),
    }
}
