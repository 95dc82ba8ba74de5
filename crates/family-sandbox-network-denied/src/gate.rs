//! The decision to speak: always, once the block is recognized.
//!
//! The block is the sandbox's own record of its decision, so no policy is
//! needed to confirm it (`policy_need: NotNeeded`: the resolver is never
//! asked, and no mode is assumed). Which agent host it came from is decided
//! before the recognizer runs: the family declares only Claude Code
//! (`hosts`), and the registry never shows it another host's output, so the
//! same block printed under Codex or the harness is never read as this one.

use advisor_core::{Environment, Gate};

use crate::recognize::Finding;

/// Speaks: the block itself proves the refusal.
pub fn gate(_finding: &Finding, _env: &Environment) -> Gate {
    Gate::Speak
}
