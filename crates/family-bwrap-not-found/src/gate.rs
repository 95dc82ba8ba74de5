//! The decision to speak: on Linux, where Gemini CLI's tool sandbox is
//! bubblewrap. Whether the line is the shell's or a command's own output is
//! the provenance test's question ([`crate::provenance`]).

use advisor_core::{Environment, Gate, Platform, WithholdReason};

use crate::recognize::Finding;

/// Speak on Linux; withhold elsewhere (a replay or a quotation).
pub fn gate(_finding: &Finding, env: &Environment) -> Gate {
    if env.host.platform != Platform::Linux {
        return Gate::Withhold(WithholdReason::PlatformOutOfScope(env.host.platform));
    }
    Gate::Speak
}
