//! The provenance test, and the facts the hook checks for it.
//!
//! The line is a program's; it proves nothing by itself (a real read-only
//! mount prints it, and so can any program). The hook runs outside the
//! client's sandbox, on the same host, so it can look at the host's own
//! mount at the path:
//!
//! - **writable**: a real read-only mount did not refuse this write; the
//!   refusal was the sandbox's ([`Proof::HostCheck`]);
//! - **read-only**: the host's mount refused it, not the sandbox: refuted
//!   ([`HOST_READ_ONLY`](crate::facts::HOST_READ_ONLY)), declined before
//!   the gate;
//! - **unknown** (no probe, a link on the way, a hung mount): forgeable; the
//!   gate then withholds with the check's reason.
//!
//! Under Gemini CLI the mount check is joined by Gemini's own mark
//! (the `gemini` module): a writable mount proves the refusal only on a result
//! Gemini marked; without the mark the text is forgeable (and the gate
//! declines it).
//!
//! A program that only prints the line for a path that really is outside
//! the writable roots cannot be told apart; what the advisory then states
//! (that path is not writable from inside the sandbox) is still true. This
//! is not a fail-fast family, so nothing is ever denied on it.

use advisor_core::{Check, Checks, Environment, Host, HostFacts, MountFact, Proof, Provenance};

use crate::facts::HOST_READ_ONLY;
use crate::recognize::{Finding, Mark, Place};

/// The facts the gate needs: the mount at the path, and the client's own
/// configuration (Claude Code's settings, or Codex's).
pub fn checks(finding: &Finding, host: &HostFacts) -> Checks {
    let config = match host.kind {
        Host::ClaudeCode => Some(Check::ClaudeSandbox),
        // Gemini's mark stands for its settings; the advisor reads none.
        Host::GeminiCli => None,
        Host::Codex | Host::Dsh => Some(Check::CodexConfig),
    };
    let mount = match finding.place {
        Place::AfterDirectoryChange => None,
        Place::Absolute(_) | Place::Relative => Some(Check::MountAt),
    };
    match (mount, config) {
        (Some(m), Some(c)) => Checks::of(&[m, c]),
        (Some(one), None) | (None, Some(one)) => Checks::of(&[one]),
        (None, None) => Checks::of(&[]),
    }
}

/// The path the mount is checked at, as printed (the hook resolves a
/// relative one against the payload's `cwd`), unless the command moved.
pub fn check_path(finding: &Finding) -> Option<&str> {
    match finding.place {
        Place::AfterDirectoryChange => None,
        Place::Absolute(_) | Place::Relative => Some(finding.path.inspect()),
    }
}

/// Proven by a writable host mount (under Gemini CLI, on a result it
/// marked), refuted by a read-only one.
pub fn provenance(finding: &Finding, env: &Environment) -> Provenance {
    let unmarked = env.host.kind == Host::GeminiCli && finding.mark != Mark::SandboxExpansion;
    match env.checks.mount {
        Some(MountFact::Writable { .. }) if unmarked => Provenance::Forgeable,
        Some(MountFact::Writable { .. }) => Provenance::Proven(Proof::HostCheck),
        Some(MountFact::ReadOnly { .. }) => Provenance::Refuted(HOST_READ_ONLY),
        Some(MountFact::Unknown(_)) | None => Provenance::Forgeable,
    }
}
