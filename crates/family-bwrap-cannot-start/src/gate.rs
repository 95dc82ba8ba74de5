//! Whether the advisor may speak: only under a resolved, confining mode.

use advisor_core::{Environment, Gate, WithholdReason};

use crate::recognize::Finding;

/// Speaks under a confining mode; withholds when unconfined or unresolved.
pub fn gate(_finding: &Finding, env: &Environment) -> Gate {
    match env.mode() {
        Ok(mode) if mode.confines() => Gate::Speak,
        Ok(mode) => Gate::Withhold(WithholdReason::UnconfinedMode(mode)),
        Err(why) => Gate::Withhold(WithholdReason::Unresolved(why)),
    }
}
