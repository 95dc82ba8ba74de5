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

pub use facts::{LINE, NEEDLE};
pub use recognize::Finding;

/// The family id.
pub const ID: FamilyId = FamilyId::new("bwrap-not-found");

/// The structured diagnosis: the sandbox's program is missing, so no command
/// starts; every command fails the same way until it is installed.
pub const DIAGNOSIS: Diagnosis = advisor_core::diagnosis!(
    category: RunnerSetupFailed, phase: Setup, confidence: Confirmed, source: Runner,
    command_started: No, effects: None, retry: AfterRemedy, remedy_owner: User
);

advisor_core::family! {
    /// Gemini CLI's tool sandbox cannot start: `bwrap` is not installed, so
    /// every command exits 127 and nothing else says why.
    pub struct BwrapNotFound {
        id: ID,
        finding: Finding,
        readme: include_str!("../README.md"),
        // Only Gemini CLI starts its commands as `exec bwrap …` without
        // checking that bwrap exists (Claude Code runs unsandboxed, Codex
        // ships its own).
        hosts: &[advisor_core::Host::GeminiCli],
        anchors: Anchors::FailureText { needles: &[NEEDLE] },
        recognize: recognize::recognize,
        gate: gate::gate,
        advise: advise::advise,
        tools: ToolScope::SandboxProcess,
        policy_need: |_, _| PolicyNeed::NotNeeded,
        // The line alone is forgeable: the hook looks for bwrap itself.
        checks: provenance::checks,
        provenance: provenance::provenance,
        diagnose: |_, _| DIAGNOSIS,
        sample: testing::sample(),
    }
}

/// Every command fails the same way until bubblewrap is installed: a proven
/// failure may feed the fail-fast budget.
impl advisor_core::FailFast for BwrapNotFound {}
