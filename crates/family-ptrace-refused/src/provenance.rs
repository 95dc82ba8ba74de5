//! The provenance test: Gemini CLI's own mark.
//!
//! `hook --dialect gemini-cli` carries Gemini's `sandbox_expansion_required`
//! (the result's `error.type`, a field no command's output reaches) as the
//! failure's code. With it, and the command being the tracer whose own line
//! this is, the refusal is the sandbox's: proven by the client's channel.
//! Without it the same lines come from another refusal of `ptrace`:
//! forgeable as far as Gemini is concerned (and the gate declines them).

use advisor_core::{Environment, Proof, Provenance};

use crate::recognize::Finding;

/// Proven by Gemini CLI's mark; forgeable without it.
pub fn provenance(finding: &Finding, _env: &Environment) -> Provenance {
    if finding.marked {
        Provenance::Proven(Proof::ClientChannel)
    } else {
        Provenance::Forgeable
    }
}
