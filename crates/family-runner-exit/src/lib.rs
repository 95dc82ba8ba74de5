#![doc = include_str!("../README.md")]

pub mod advise;
mod brief;
pub mod facts;
pub mod gate;
pub mod recognize;
#[cfg(feature = "testing")]
pub mod testing;

use advisor_core::{Anchors, Diagnosis, FamilyId, PolicyNeed, ToolScope};

pub use recognize::{
    BOOTSTRAP_PREFIX, Bootstrap, Carrier, EXITED_PREFIX, EXITED_TAIL, FORCED, Finding,
    GLOB_WRAPPER, Report, Status,
};

/// The family id.
pub const ID: FamilyId = FamilyId::new("runner-exit");

/// The structured diagnosis: the harness's own runner ended before it
/// reported, so the command never ran; not a sandbox decision.
pub const DIAGNOSIS: Diagnosis = advisor_core::diagnosis!(
    category: RunnerSetupFailed, phase: Spawn, confidence: Confirmed, source: Runner,
    command_started: Unknown, effects: Possible, retry: AfterRemedy, remedy_owner: User
);

advisor_core::family! {
    /// The Windows Job runner that exits before reporting.
    pub struct RunnerExit {
        id: ID,
        finding: Finding,
        readme: include_str!("../README.md"),
        hosts: &[advisor_core::Host::Dsh],
        anchors: Anchors::FailureText { needles: &[EXITED_PREFIX, FORCED] },
        recognize: recognize::recognize,
        gate: gate::gate,
        advise: advise::advise,
        // Not a sandbox failure: the runner also fails under `glob` and
        // `grep`, which start ripgrep outside the sandbox (a process tool
        // scope would miss them). The recognizer takes a message only when it
        // is the runner's own line, so another tool's quoted text never reads
        // as one.
        tools: ToolScope::Any,
        policy_need: |_, _| PolicyNeed::NotNeeded,
        diagnose: |_, _| DIAGNOSIS,
        sample: testing::sample(),
    }
}
