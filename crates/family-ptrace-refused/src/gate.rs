//! The decision to speak: on Linux, only for a result Gemini CLI marked.
//!
//! Without Gemini's mark the same line comes from a tracer refused by
//! something else (a container's seccomp profile, Yama's `ptrace_scope`),
//! whose remedy is not Gemini's: the family declines (`not-marked`). On
//! another platform the line is a replay or a quotation: it withholds.

use advisor_core::{Environment, Gate, Platform, WithholdReason};

use crate::recognize::Finding;

/// The decline code of a result Gemini CLI did not mark.
pub const NOT_MARKED: &str = "not-marked";

/// Speak on Linux for a marked result.
pub fn gate(finding: &Finding, env: &Environment) -> Gate {
    if env.host.platform != Platform::Linux {
        return Gate::Withhold(WithholdReason::PlatformOutOfScope(env.host.platform));
    }
    if !finding.marked {
        return Gate::Decline(NOT_MARKED);
    }
    Gate::Speak
}
