//! No platform or mode gate: the sentence can only come from the Windows ACL
//! backend, and only on the session-scoped confining path, so its presence
//! already states both. Asking the resolver could only add a way to withhold
//! advice the line justifies.

use advisor_core::{Environment, Gate, HostFacts, PolicyNeed};

use crate::AggregateFailure;

/// The finding speaks for itself; the resolver is not consulted.
pub(crate) fn policy_need(_finding: &AggregateFailure, _host: &HostFacts) -> PolicyNeed {
    PolicyNeed::NotNeeded
}

/// Always speak, on any host.
pub(crate) fn gate(_finding: &AggregateFailure, _env: &Environment) -> Gate {
    Gate::Speak
}
