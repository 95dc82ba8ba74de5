//! The decision to speak.
//!
//! - **Codex on Linux**: the mode confines (else decline); the network is
//!   off as far as the advisor knows (`read-only`, or `workspace-write`
//!   whose configuration leaves `network_access` unset or false; a
//!   configuration that turns it on declines). Then, by what the words
//!   prove ([`Refusal`]): a socket refused at creation speaks when the host
//!   itself lets this user create one (the hook checked) or the network is
//!   known to be off; a connection refused with `EPERM`, an unresolved name
//!   or a failed connection speak only when the network is known to be off,
//!   since a firewall or an offline machine says the same.
//! - **Gemini CLI on Linux**: what Gemini marked, started outside yolo mode
//!   in a headless run or an interactive one whose settings forbid yolo,
//!   and an unmarked unreachable network in a headless run whose settings
//!   put commands in the tool sandbox, with no sandbox policy of the
//!   user's ([`crate::gemini`]); otherwise withheld or declined with the
//!   reason.
//! - **Claude Code on macOS**: Seatbelt's own line, and the settings turn the
//!   sandbox on. A bare connection failure in Claude Code is declined: its
//!   sandbox reports its own refusals in its block.

use advisor_core::{Environment, Gate, Host, Platform, WithholdReason};

use crate::facts::{
    HOST_REFUSES, NETWORK_UNKNOWN, NO_SANDBOX_REPORT, Network, Not, claude_sandbox_on, network,
};
use crate::recognize::{Finding, Refusal};

/// Speak only for a socket the sandbox refused, or a network it keeps off.
pub fn gate(finding: &Finding, env: &Environment) -> Gate {
    match decide(finding, env) {
        Ok(()) => Gate::Speak,
        Err(Not::Withhold(reason)) => Gate::Withhold(reason),
        Err(Not::Decline(code)) => Gate::Decline(code),
    }
}

fn decide(finding: &Finding, env: &Environment) -> Result<(), Not> {
    let platform = env.host.platform;
    match (env.host.kind, finding.refusal) {
        (Host::ClaudeCode, Refusal::Seatbelt) if platform == Platform::Macos => {
            return claude_sandbox_on(env);
        }
        (Host::ClaudeCode, Refusal::Seatbelt) => {
            return Err(Not::Withhold(WithholdReason::PlatformOutOfScope(platform)));
        }
        (Host::ClaudeCode, _) => return Err(Not::Decline(NO_SANDBOX_REPORT)),
        // Codex's filter refuses with EPERM; a refused connection is not its.
        (Host::Codex | Host::GeminiCli, Refusal::Seatbelt)
        | (Host::Codex, Refusal::ConnectRefused)
        | (Host::Dsh, _) => {
            return Err(Not::Decline(NO_SANDBOX_REPORT));
        }
        (Host::GeminiCli, _) if platform != Platform::Linux => {
            return Err(Not::Withhold(WithholdReason::PlatformOutOfScope(platform)));
        }
        (Host::GeminiCli, _) => return crate::gemini::decide(finding, env),
        (Host::Codex, _) if platform != Platform::Linux => {
            return Err(Not::Withhold(WithholdReason::PlatformOutOfScope(platform)));
        }
        (Host::Codex, _) => {}
    }
    let network = network(env)?;
    match (finding.refusal, network, env.checks.inet_socket) {
        (Refusal::SocketCreation, _, Some(false)) => Err(Not::Decline(HOST_REFUSES)),
        (Refusal::SocketCreation, _, Some(true)) | (_, Network::Off(_), _) => Ok(()),
        (_, Network::Unknown, _) => Err(Not::Withhold(WithholdReason::Other(NETWORK_UNKNOWN))),
    }
}
