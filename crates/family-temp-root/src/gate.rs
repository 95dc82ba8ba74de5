//! The failure half's decision to speak.
//!
//! There is no platform gate and no mode gate: the sentence is thrown only by
//! the Windows ACL backend, and only for `workspace-write`, so a recognized
//! sentence already carries both facts. The session's policy is not consulted.

use advisor_core::{Environment, Gate, HostFacts, PolicyNeed};

use crate::recognize::TempRootRefusal;

/// The failure half never needs the session's policy.
pub fn policy_need(_finding: &TempRootRefusal, _host: &HostFacts) -> PolicyNeed {
    PolicyNeed::NotNeeded
}

/// A recognized refusal always speaks.
pub fn gate(_finding: &TempRootRefusal, _env: &Environment) -> Gate {
    Gate::Speak
}
