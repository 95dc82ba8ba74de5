//! The decision to speak: only under the confining mode the failing call ran under.
//!
//! The reporter's three-arm control (#7638) makes the mode the discriminator:
//! a persistent shell fails under a confining mode and starts under
//! `danger-full-access`. So the advisory speaks only when the session's
//! resolved mode confines. When the mode cannot be resolved it withholds (and
//! the core discloses that once): the deployment default is not the mode the
//! call ran under, and guessing it would be a claim the advisor cannot make.

use advisor_core::{Environment, Gate, SandboxMode, WithholdReason};

use crate::recognize::Finding;

/// Speak under `workspace-write` or `read-only`; withhold under
/// `danger-full-access` or when the mode is unresolved.
pub fn gate(_finding: &Finding, env: &Environment) -> Gate {
    match env.mode() {
        Err(unresolved) => Gate::Withhold(WithholdReason::Unresolved(unresolved)),
        Ok(SandboxMode::DangerFullAccess) => Gate::Withhold(WithholdReason::UnconfinedMode(
            SandboxMode::DangerFullAccess,
        )),
        Ok(SandboxMode::WorkspaceWrite | SandboxMode::ReadOnly) => Gate::Speak,
    }
}
