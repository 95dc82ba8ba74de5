//! Whether to speak: the refusal is a property of the Windows ACL backend's
//! restricted token, so it is this family's story only on a Windows host under
//! a mode that confines.

use advisor_core::{Environment, Gate, HostFacts, PolicyNeed, WithholdReason};

use crate::recognize::CimRefusal;

/// The policy is needed only on Windows; elsewhere the platform alone rules.
pub fn policy_need(_refusal: &CimRefusal, host: &HostFacts) -> PolicyNeed {
    if host.is_windows() {
        PolicyNeed::Required
    } else {
        PolicyNeed::NotNeeded
    }
}

/// Speak on Windows under a confining resolved mode; otherwise withhold and
/// let the host log say why (never fall back to a default mode).
pub fn gate(_refusal: &CimRefusal, env: &Environment) -> Gate {
    if !env.host.is_windows() {
        return Gate::Withhold(WithholdReason::PlatformOutOfScope(env.host.platform));
    }
    match env.mode() {
        Err(unresolved) => Gate::Withhold(WithholdReason::Unresolved(unresolved)),
        Ok(mode) if !mode.confines() => Gate::Withhold(WithholdReason::UnconfinedMode(mode)),
        Ok(_) => Gate::Speak,
    }
}
