//! The decision to speak: on a Windows host, in every mode.
//!
//! The runner fails before the sandbox is involved, under
//! `danger-full-access` too, so the mode decides nothing and the resolver is
//! never asked (`policy_need: NotNeeded`). The Job runner exists only on
//! Windows: the same sentence reported by a Linux or macOS host is something
//! else (a replayed log, a quotation), and the family withholds.

use advisor_core::{Environment, Gate, Platform, WithholdReason};

use crate::recognize::Finding;

/// Speak on Windows; withhold elsewhere.
pub fn gate(_finding: &Finding, env: &Environment) -> Gate {
    match env.host.platform {
        Platform::Win32 => Gate::Speak,
        other => Gate::Withhold(WithholdReason::PlatformOutOfScope(other)),
    }
}
