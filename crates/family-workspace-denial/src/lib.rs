#![doc = include_str!("../README.md")]

mod advise;
mod brief;
mod facts;
mod gate;
mod named;
mod recognize;
#[cfg(feature = "testing")]
pub mod testing;

use advisor_core::{Anchors, FamilyId, ToolScope};

pub use gate::{
    AMBIGUOUS_PATH, NAMES_ROOT, NOT_WINDOWS, OUTSIDE_ROOT, READ_ONLY, RELATIVE_PATHS_ONLY,
    ROOT_NOT_ABSOLUTE, RUNNER_FAILURE, TOO_MANY_PATHS, UNCONFINED, VARIABLE_PATH,
};
pub use named::{MAX_PATHS, NamedPath, NamedPaths, Origin};
pub use recognize::Finding;

/// The family's stable id.
pub const ID: FamilyId = FamilyId::new("workspace-denial");

/// The denied stamp alone: an exit code the value does not report must not
/// hide a stamped denial from the recognizer (which refuses a reported 0).
const ANCHORS: Anchors = Anchors::ForegroundRun {
    failed_exit: false,
    denied_stamp: true,
    stderr_needles: &[],
};

/// The family's structured diagnosis: the command ran and a write inside the workspace was refused; it may have written part of its output before the refusal.
pub const DIAGNOSIS: advisor_core::Diagnosis = advisor_core::diagnosis!(
    category: FileAccessDenied, phase: Execute, confidence: Confirmed, source: Policy,
    command_started: Yes, effects: Possible, retry: AfterRemedy, remedy_owner: User
);

advisor_core::family! {
    /// Denied inside the workspace: a `workspace-write` denial, on Windows, of paths
    /// strictly below the session's workspace root.
    pub struct WorkspaceDenial {
        id: ID,
        finding: Finding,
        readme: include_str!("../README.md"),
        hosts: &[advisor_core::Host::Dsh],
        anchors: ANCHORS,
        recognize: recognize::recognize,
        gate: gate::gate,
        advise: advise::advise,
        tools: ToolScope::SandboxProcess,
        policy_need: gate::policy_need,
        diagnose: |_, _| DIAGNOSIS,
        sample: testing::sample(),
    }
}
