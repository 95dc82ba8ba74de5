//! The decision to speak: this family always may.
//!
//! No platform gate: the recognized line is written by the Windows ACL backend
//! and nothing else, so its presence already says which host produced it, and a
//! recorded Windows session replayed elsewhere must still be explained.
//!
//! No mode gate: the grant is materialized only on a confining path (the
//! session's `workspace-write` call, or the runner granting for itself), so the
//! line already states that the call was confined. Asking the resolver for a
//! second opinion could only add a way to withhold advice the line justifies —
//! which is why [`policy_need`] answers `NotNeeded` and the resolver is never
//! consulted for this family.

use advisor_core::{Environment, Gate, HostFacts, PolicyNeed};

use crate::finding::AclFinding;

/// The resolver is never needed: the finding speaks for itself.
pub(crate) fn policy_need(_finding: &AclFinding, _host: &HostFacts) -> PolicyNeed {
    PolicyNeed::NotNeeded
}

/// Every recognized finding is spoken; there is nothing to withhold or decline.
pub(crate) fn gate(_finding: &AclFinding, _env: &Environment) -> Gate {
    Gate::Speak
}
