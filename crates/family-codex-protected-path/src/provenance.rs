//! The provenance test: nothing proves this line is Codex's refusal.
//!
//! Codex sends a hook the command's bare output, with no exit code and no mark
//! of who printed a line (`docs/hooks/codex/git-commit.PostToolUse.json`), so
//! a `cat` of a log or a test that prints git's line reaches the hook byte for
//! byte like git's own refusal under Codex's read-only `.git`. From outside
//! the sandbox the hook could at most refute it (the host's own mount being
//! read-only, the protected name missing), never prove it: no fact the host
//! shows says which program printed the line. So every finding is
//! [`Provenance::Forgeable`]: the family speaks, hedged (the brief says a
//! program may have printed it), and offers no other sandbox mode and no run
//! outside the sandbox, only what the user can do by hand. It is not a
//! fail-fast family, and a forgeable finding never feeds the budget anyway.

use advisor_core::{Environment, Provenance};

use crate::recognize::Finding;

/// Always forgeable: see the module doc.
pub fn provenance(_finding: &Finding, _env: &Environment) -> Provenance {
    Provenance::Forgeable
}
