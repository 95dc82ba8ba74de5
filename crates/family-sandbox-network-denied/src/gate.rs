//! The decision to speak: always, once the block is recognized and not
//! refuted ([`crate::provenance`]; a refuted block is declined before the
//! gate). A proven block gets the full advisory, a forgeable one a hedged
//! brief ([`crate::brief`]).
//!
//! No policy is needed (`policy_need: NotNeeded`: the resolver is never
//! asked, and no mode is assumed). Which agent host it came from is decided
//! before the recognizer runs: the family declares only Claude Code
//! (`hosts`), and the registry never shows it another host's output, so the
//! same block printed under Codex or the harness is never read as this one.

use advisor_core::{Environment, Gate};

use crate::recognize::Finding;

/// Speaks: what may be said is the brief's question, by provenance.
pub fn gate(_finding: &Finding, _env: &Environment) -> Gate {
    Gate::Speak
}
