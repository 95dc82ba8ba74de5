//! # family-temp-root — `temp-root-inside-workspace`
//!
//! ## What it detects
//! The Windows ACL backend's `assertTempRootOutsideWorkspace` refusal,
//! `Windows ACL temp root must be outside the workspace: workspace=<w>; temp=<t>`,
//! read from a failure's message (through the one envelope rule,
//! [`advisor_core::envelope::unwrap`]) in either of its two carriers: thrown
//! by the session-scoped provider (`sandbox-local`; the line is the sentence),
//! or written by the runner behind `windows-acl-run:` and carried as the
//! `Runner failure:` detail of a `SandboxUnavailableError`. The runner's
//! marker names the runner only on the assertion's own line; an assertion on
//! a line of its own is the provider's, even beside a runner line. The
//! advisory names which carrier refused and quotes its record: the sentence,
//! and for the runner the line it wrote as it exited 127. There is no platform
//! or mode gate on this half: only that backend, under `workspace-write`,
//! writes the sentence.
//!
//! It is also the one family with a pre-flight seat: on a Windows host, at
//! session start (or on the session's first tracked call) it resolves the
//! session's mode and root and, for `workspace-write`, compares the root with
//! the host's temp directory the way the backend does, advising before the
//! first command fails. A host that cannot answer is withheld and disclosed,
//! never passed off as clear.
//!
//! ## Why it matters
//! In this state every command of the session is refused — `echo` included —
//! with no output and an error that names neither lever (discussion #9175). The
//! remedy lies outside the session: `TMP` and `TEMP` in the harness's
//! environment, or the workspace the session is opened on.
//!
//! ## What it refuses
//! The sentence in a successful command's output; the sentence after any other
//! prefix (quoted by something else), twice, or beside any line that is not
//! the runner's (a stack trace, a log); the runner's `cleanup:` lines; the
//! sibling `AclSandbox private temp directory must be disjoint from writable
//! directories: …` sentence; a sentence whose operand is missing, empty or
//! blank (text quoting the sentence, not the producer).

mod advise;
mod gate;
mod preflight;
mod recognize;

use advisor_core::{
    Advisory, Anchors, Environment, Family, FamilyDoc, FamilyId, Gate, HostFacts, Observation,
    PolicyNeed, PreflightVerdict,
};

pub use preflight::{Comparison, NO_TEMP_DIR, NOT_COMPARABLE, PreflightFacts, compare};
pub use recognize::{Carrier, TempRootRefusal};

/// The family's stable id.
pub const ID: FamilyId = FamilyId::new("temp-root-inside-workspace");

/// The `temp-root-inside-workspace` family (failure half and pre-flight seat).
#[derive(Debug, Default, Clone, Copy)]
pub struct TempRootInsideWorkspace;

impl Family for TempRootInsideWorkspace {
    type Finding = TempRootRefusal;

    fn id(&self) -> FamilyId {
        ID
    }

    fn doc(&self) -> FamilyDoc {
        FamilyDoc {
            recognizes: "the Windows ACL backend's `Windows ACL temp root must be outside the \
                         workspace: workspace=…; temp=…` refusal on a line of a failure's \
                         message, thrown by the session provider or carried as a \
                         SandboxUnavailableError runner detail on the same line; plus a Windows \
                         pre-flight that computes the same containment",
            refuses: "the sentence in a successful output, quoted after another prefix, \
                      twice, or beside a line that is not the runner's, the runner's cleanup \
                      lines, the sibling `AclSandbox private temp directory …` sentence, and a \
                      missing, empty or blank operand",
        }
    }

    fn anchors(&self) -> Anchors {
        Anchors::FailureText {
            needles: &[recognize::SENTENCE_HEAD],
        }
    }

    fn recognize(&self, observation: &Observation) -> Option<TempRootRefusal> {
        recognize::recognize(observation)
    }

    fn policy_need(&self, finding: &TempRootRefusal, host: &HostFacts) -> PolicyNeed {
        gate::policy_need(finding, host)
    }

    fn gate(&self, finding: &TempRootRefusal, env: &Environment) -> Gate {
        gate::gate(finding, env)
    }

    fn advise(&self, finding: &TempRootRefusal, env: &Environment) -> Advisory {
        advise::failure(finding, env)
    }

    fn wants_preflight(&self, host: &HostFacts) -> bool {
        host.is_windows()
    }

    fn preflight(&self, env: &Environment) -> PreflightVerdict {
        preflight::verdict(env)
    }
}
