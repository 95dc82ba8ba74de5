//! The provenance test, and the facts the hook checks for it.
//!
//! - **A socket refused at creation** (`EPERM` from `socket()`): a host
//!   firewall refuses packets, not sockets, so only a seccomp filter or a
//!   security module does this. The hook, outside the client's sandbox,
//!   creates one inet socket as the same user (and closes it, never
//!   connecting): when it may, the refusal was the sandbox's
//!   ([`Proof::HostCheck`]); when the host refuses it too, refuted
//!   ([`HOST_REFUSES`](crate::facts::HOST_REFUSES)).
//! - **Gemini CLI's mark** (`sandbox_expansion_required`, the result's
//!   `error.type`, a field no command's output reaches): the client says
//!   its sandbox refused the command ([`Proof::ClientChannel`]).
//! - **Everything else** (a connection refused with `EPERM`, an unresolved
//!   name, Seatbelt's line): forgeable. An offline machine or a firewall
//!   prints the same, and a program can print Claude Code's block; the gate
//!   speaks on them only where the client's configuration says the network
//!   is off (or, on macOS, the sandbox is on), and offers only the user's
//!   own decisions.

use advisor_core::{Check, Checks, Environment, Host, HostFacts, Proof, Provenance};

use crate::facts::HOST_REFUSES;
use crate::recognize::{Finding, Refusal};

/// The facts the gate needs.
pub fn checks(finding: &Finding, host: &HostFacts) -> Checks {
    match (host.kind, finding.refusal) {
        (Host::ClaudeCode, _) => Checks::of(&[Check::ClaudeSandbox]),
        // Gemini CLI: its command line's mode (`crate::gemini`).
        (Host::GeminiCli, _) => Checks::of(&[Check::GeminiMode]),
        (_, Refusal::SocketCreation) => Checks::of(&[Check::CodexConfig, Check::InetSocket]),
        _ => Checks::of(&[Check::CodexConfig]),
    }
}

/// Proven by the host's own socket, refuted when the host refuses one too.
pub fn provenance(finding: &Finding, env: &Environment) -> Provenance {
    match (finding.refusal, env.checks.inet_socket) {
        _ if finding.marked => Provenance::Proven(Proof::ClientChannel),
        (Refusal::SocketCreation, Some(true)) => Provenance::Proven(Proof::HostCheck),
        (Refusal::SocketCreation, Some(false)) => Provenance::Refuted(HOST_REFUSES),
        _ => Provenance::Forgeable,
    }
}
