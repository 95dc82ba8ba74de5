//! # family-acl-aggregate — `acl-aggregate-failure`
//!
//! ## What it detects
//! A failure whose message is one of sandbox-local's two AggregateError
//! sentences, thrown from `materializeAclGrant` when a Windows ACL grant failed
//! and the backend's fail-closed cleanup failed with it:
//! - temp half: `sandbox-local windows-acl temp grant materialization failed and its cleanup also failed`
//! - workspace half: `sandbox-local windows-acl workspace grant failed and its cleanup also failed`
//!
//! ## Why it matters
//! This is the one line that withholds its own cause: the Win32 code, the API
//! and the directory live in the aggregate's members, and the harness hands the
//! session only the message. The advisory says so, does not invent a cause, and
//! hands over the candidates in the order they can be separated — the lock root
//! first (a directory listing settles it), then the documented prerequisite,
//! then the directory itself — with the backend's diagnostic skill, the two
//! measured non-repairs (#9460) and why `probeTimeoutMs` is not the mechanism.
//!
//! ## What it refuses
//! - Every other aggregate sentence (`AclSandbox init failed and …`, `AclSandbox
//!   dispose completed with …`, `AclWriteGrant dispose completed with …`, `PTY
//!   backend startup and cleanup both failed`).
//! - The sentence anywhere but the first line of a failure's message: quoted
//!   in a longer line, inside a `SandboxUnavailableError`'s runner detail (no
//!   runner code path throws it — `materializeAclGrant` runs in the host before
//!   any runner exists), or in a successful command's output.
//!
//! No platform or mode gate: the sentence names a Windows-only producer on the
//! session-scoped confining path. The aggregate's members are never read, so no
//! member text can reach the advisory. When the message also carries a
//! `…NamedSecurityInfoW failed` line, `acl-provisioning` is registered first and wins.

mod advise;
mod gate;
mod recognize;

use advisor_core::{
    Advisory, Anchors, Environment, Family, FamilyDoc, FamilyId, Gate, HostFacts, Observation,
    PolicyNeed,
};

pub use recognize::{AggregateFailure, Half, TEMP_SENTENCE, WORKSPACE_SENTENCE};

/// The family's stable id.
pub const ID: FamilyId = FamilyId::new("acl-aggregate-failure");

/// A Windows ACL grant and its cleanup both failed, and the line hides why.
#[derive(Debug, Default, Clone, Copy)]
pub struct AclAggregateFailure;

impl Family for AclAggregateFailure {
    type Finding = AggregateFailure;

    fn id(&self) -> FamilyId {
        ID
    }

    fn doc(&self) -> FamilyDoc {
        FamilyDoc {
            recognizes: "a failure whose message is sandbox-local's AggregateError sentence for the temp or the workspace ACL grant failing together with its cleanup",
            refuses: "the other aggregate sentences (AclSandbox init/dispose, AclWriteGrant dispose, PTY startup), the sentence quoted in a longer line or a runner detail, and successful output quoting it",
        }
    }

    fn anchors(&self) -> Anchors {
        Anchors::FailureText {
            needles: &[TEMP_SENTENCE, WORKSPACE_SENTENCE],
        }
    }

    fn recognize(&self, observation: &Observation) -> Option<AggregateFailure> {
        recognize::recognize(observation)
    }

    fn policy_need(&self, _finding: &AggregateFailure, _host: &HostFacts) -> PolicyNeed {
        gate::policy_need()
    }

    fn gate(&self, _finding: &AggregateFailure, _env: &Environment) -> Gate {
        gate::gate()
    }

    fn advise(&self, finding: &AggregateFailure, env: &Environment) -> Advisory {
        advise::advise(finding, env)
    }
}
