//! No platform or mode gate: the sentence can only come from the Windows ACL
//! backend, and only on the session-scoped confining path, so its presence
//! already states both. Asking the resolver could only add a way to withhold
//! advice the line justifies.

use advisor_core::{Gate, PolicyNeed};

/// The finding speaks for itself; the resolver is not consulted.
pub fn policy_need() -> PolicyNeed {
    PolicyNeed::NotNeeded
}

/// Always speak.
pub fn gate() -> Gate {
    Gate::Speak
}
