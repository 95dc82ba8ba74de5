#![doc = include_str!("../README.md")]

pub mod advise;
mod brief;
pub mod facts;
pub mod gate;
pub mod provenance;
pub mod recognize;
#[cfg(feature = "testing")]
pub mod testing;
pub mod value;

use advisor_core::{Anchors, Diagnosis, FamilyId, PolicyNeed, ToolScope};

pub use recognize::{CLOSE_TAG, Carrier, Denial, Finding, NETWORK_DENY, OPEN_TAG};

/// The family id.
pub const ID: FamilyId = FamilyId::new("sandbox-network-denied");

/// The structured diagnosis: the command ran, and the sandbox's network
/// filter refused a host it reached for; only the user can change that.
pub const DIAGNOSIS: Diagnosis = advisor_core::diagnosis!(
    category: CommandFailed, phase: Execute, confidence: Confirmed, source: Policy,
    command_started: Yes, effects: Possible, retry: AfterRemedy, remedy_owner: User
);

advisor_core::family! {
    /// Claude Code's sandbox refusing a network connection
    /// (its `<sandbox_violations>` block with `deny network-outbound` lines).
    pub struct SandboxNetworkDenied {
        id: ID,
        finding: Finding,
        readme: include_str!("../README.md"),
        // Claude Code only: the registry never shows this family another
        // host's output, so the block quoted under Codex or the harness is
        // never taken for Claude Code's sandbox.
        hosts: &[advisor_core::Host::ClaudeCode],
        // A failure's `error` or a success's stdout/stderr: the block ends
        // either (a denial can end in exit 0).
        anchors: Anchors::OutputText { needles: &[OPEN_TAG] },
        recognize: recognize::recognize,
        gate: gate::gate,
        advise: advise::advise,
        // Only a process tool's output carries the sandbox's block; a file
        // tool's result holding it is a file's contents.
        tools: ToolScope::SandboxProcess,
        policy_need: |_, _| PolicyNeed::NotNeeded,
        // A program can print the block: the hook reads Claude Code's own
        // field and settings, and only a proven block names hosts to allow.
        checks: provenance::checks,
        provenance: provenance::provenance,
        diagnose: |_, _| DIAGNOSIS,
        sample: testing::sample(),
    }
}
