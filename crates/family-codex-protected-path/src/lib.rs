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

pub use facts::{AFTER_CD, NOT_PROTECTED, OUTSIDE_ROOT, Place, Protected, ROOT_NOT_ABSOLUTE};
pub use gate::{READ_ONLY, UNCONFINED};
pub use recognize::{EROFS, Finding, Producer};

/// The family id.
pub const ID: FamilyId = FamilyId::new("codex-protected-path");

/// The structured diagnosis: the command ran and the sandbox refused a write
/// under a path it keeps read-only on purpose; the command may have done
/// other work before that write.
pub const DIAGNOSIS: Diagnosis = advisor_core::diagnosis!(
    category: FileAccessDenied, phase: Execute, confidence: Confirmed, source: Policy,
    command_started: Yes, effects: Possible, retry: AfterRemedy, remedy_owner: User
);

advisor_core::family! {
    /// A write under a path Codex keeps read-only inside a `workspace-write`
    /// workspace (`.git`, `.agents`, `.codex` at the top of the root).
    pub struct CodexProtectedPath {
        id: ID,
        finding: Finding,
        readme: include_str!("../README.md"),
        // Codex only: its hook reports a command's bare output, and the
        // protected names are Codex's own. Under any other host the registry
        // never shows this family an observation.
        hosts: &[advisor_core::Host::Codex],
        anchors: Anchors::OutputText { needles: &[EROFS] },
        recognize: recognize::recognize,
        gate: gate::gate,
        advise: advise::advise,
        // The line comes from a process the sandbox confined (Codex names its
        // shell tool `Bash`); a file or network tool's text quoting it is not one.
        tools: ToolScope::SandboxProcess,
        // The mode and the workspace root decide; the resolver is always asked.
        policy_need: |_, _| PolicyNeed::Required,
        // Nothing proves the line is Codex's refusal: a program can print it.
        provenance: provenance::provenance,
        diagnose: |_, _| DIAGNOSIS,
        sample: testing::sample(),
    }
}
