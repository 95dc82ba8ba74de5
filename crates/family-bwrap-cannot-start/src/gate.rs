//! The decision to speak: on Linux, for the client whose failure this is.
//!
//! bubblewrap's line speaks for itself, so the session's mode is never asked
//! (`policy_need: NotNeeded`). bubblewrap runs only on Linux: the same line
//! from another platform is a quotation or a replay, and the family withholds.
//! Two carriers are not the sandbox failing to start, and the family declines:
//! - a Claude Code or Gemini CLI **success** whose output is the line: the
//!   command exited 0, and a bwrap that dies exits 1 (Claude Code reports every
//!   non-zero exit as a failure, Gemini CLI renders it `Exit Code: 1`), so the
//!   line is something the command printed;
//! - the missing `codex-linux-sandbox` helper outside **Codex**: only Codex
//!   starts its commands through that helper.

use advisor_core::{Environment, Gate, Host, Platform, WithholdReason};

use crate::recognize::{Carrier, Finding, Kind};

/// Speak on Linux for the client that produced the line; withhold on another
/// platform; decline a carrier that cannot be this failure.
pub fn gate(finding: &Finding, env: &Environment) -> Gate {
    if env.host.platform != Platform::Linux {
        return Gate::Withhold(WithholdReason::PlatformOutOfScope(env.host.platform));
    }
    if reports_exit_code(env.host.kind) && finding.carrier == Carrier::Output {
        return Gate::Decline("command-succeeded");
    }
    if finding.kind == Kind::HelperMissing && env.host.kind != Host::Codex {
        return Gate::Decline("not-codex-helper");
    }
    Gate::Speak
}

/// True for a client that tells its hook a command's non-zero exit (Claude
/// Code's `Exit code N`, Gemini CLI's `Exit Code: N`); Codex gives none.
pub fn reports_exit_code(host: Host) -> bool {
    matches!(host, Host::ClaudeCode | Host::GeminiCli)
}
