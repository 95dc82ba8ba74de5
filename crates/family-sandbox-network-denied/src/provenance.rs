//! The provenance test: did Claude Code's sandbox write this block, or did
//! the command print it?
//!
//! Recorded with the real client (`docs/hooks/claude-code/`): a command that
//! prints the block reaches the hook byte for byte as the sandbox's would,
//! whether it exits 1 (`control-prints-violations-exit1`: `Exit code 1`, its
//! output, the block) or 0 (`control-prints-violations-exit0`). One thing
//! differs, and a command cannot change it: on a call that exited 0, Claude
//! Code sends the command's stdout **and** stderr in `tool_response.stdout`,
//! and its own `tool_response.stderr` holds only what Claude Code wrote:
//! the real block (`sandbox-curl-exit0`). So:
//!
//! - a success whose block lies wholly in Claude Code's own field (the
//!   hook's [`Check::ClientChannel`]) is **proven**;
//! - a success whose block lies in the command's output is **refuted**;
//! - a failure (`Exit code N`, then one string) is **forgeable**: nothing in
//!   it tells the two apart.
//!
//! The hook also reads Claude Code's own settings (user, project, local,
//! managed): a sandbox no layer turns on, or a block naming only hosts the
//! user allowed (and did not deny), is **refuted**, since the proxy would not
//! have refused them.

use advisor_core::{
    Check, Checks, ClaudeSandbox, Environment, HostFacts, Proof, Provenance, Untrusted,
};

use crate::recognize::{Carrier, Denial, Finding};

/// Refuted: no layer of Claude Code's settings turns its sandbox on.
pub const SANDBOX_OFF: &str = "sandbox-off-in-settings";

/// Refuted: every refused host is one the user's settings allow.
pub const HOSTS_ALLOWED: &str = "hosts-allowed-in-settings";

/// Refuted: the block lies in the command's own output, not Claude Code's field.
pub const BLOCK_IN_OUTPUT: &str = "block-in-command-output";

/// What the hook should check for `finding`: Claude Code's settings, and for
/// a success the length of Claude Code's own field.
pub fn checks(finding: &Finding, _host: &HostFacts) -> Checks {
    match finding.carrier {
        Carrier::Success => Checks::of(&[Check::ClaudeSandbox, Check::ClientChannel]),
        Carrier::Failure => Checks::of(&[Check::ClaudeSandbox]),
    }
}

/// Proven, refuted or forgeable, from the checks in `env`.
pub fn provenance(finding: &Finding, env: &Environment) -> Provenance {
    if let Some(settings) = &env.checks.claude_sandbox {
        if settings.enabled == Some(false) {
            return Provenance::Refuted(SANDBOX_OFF);
        }
        if finding.denials.iter().all(|d| allowed(settings, d)) {
            return Provenance::Refuted(HOSTS_ALLOWED);
        }
    }
    match (finding.carrier, env.checks.client_tail) {
        (Carrier::Success, Some(tail)) if tail >= finding.block_bytes => {
            Provenance::Proven(Proof::ClientChannel)
        }
        (Carrier::Success, Some(_)) => Provenance::Refuted(BLOCK_IN_OUTPUT),
        _ => Provenance::Forgeable,
    }
}

/// True when the finding is proven: only then are hosts offered as values
/// for the allow list, and leaving the sandbox named as the user's choice.
pub fn proven(finding: &Finding, env: &Environment) -> bool {
    provenance(finding, env).is_proven()
}

/// True when the user's settings let `denial`'s host:port through: some
/// allowed entry matches and no denied entry does.
fn allowed(settings: &ClaudeSandbox, denial: &Denial) -> bool {
    let host = denial.host.inspect();
    let hit = |entries: &[Untrusted]| {
        entries
            .iter()
            .any(|e| matches(e.inspect(), host, denial.port))
    };
    hit(&settings.allowed_domains) && !hit(&settings.denied_domains)
}

/// Whether one settings entry (`host`, `*.suffix`, each with an optional
/// `:port`) matches `host` on `port`, ASCII case-insensitively. A wildcard
/// matches subdomains only, not the name itself. Anything else matches nothing.
fn matches(entry: &str, host: &str, port: u16) -> bool {
    let (name, entry_port) = match entry.rsplit_once(':') {
        Some((name, p)) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => {
            (name, p.parse::<u16>().ok())
        }
        _ => (entry, None),
    };
    if entry_port.is_some_and(|p| p != port) || name.is_empty() {
        return false;
    }
    // Bytes, not characters: a host with non-ASCII text is compared, never split.
    let host = host.as_bytes();
    match name.strip_prefix("*.") {
        Some(suffix) => {
            let suffix = suffix.as_bytes();
            host.len() > suffix.len() + 1
                && host[host.len() - suffix.len()..].eq_ignore_ascii_case(suffix)
                && host[host.len() - suffix.len() - 1] == b'.'
        }
        None => name.as_bytes().eq_ignore_ascii_case(host),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_match_as_claude_codes_settings_read() {
        assert!(matches("example.com", "example.com", 443));
        assert!(matches("Example.COM", "example.com", 443));
        assert!(matches("example.com:443", "example.com", 443));
        assert!(!matches("example.com:80", "example.com", 443));
        assert!(matches("*.example.com", "api.example.com", 443));
        assert!(matches("*.example.com", "a.b.example.com", 443));
        assert!(!matches("*.example.com", "example.com", 443));
        assert!(!matches("*.example.com", "evilexample.com", 443));
        assert!(!matches("example.com", "example.com.evil", 443));
        assert!(!matches("", "example.com", 443));
        assert!(!matches(":443", "example.com", 443));
        // A look-alike (Cyrillic а) is another name, and nothing splits it.
        assert!(!matches("example.com", "ex\u{430}mple.com", 443));
        assert!(matches("*.é", "\u{430}\u{430}\u{430}.é", 443));
        assert!(!matches("*.x", "ééé", 443));
        assert!(!matches(
            "*.com",
            "\u{430}\u{430}\u{430}\u{430}\u{430}",
            443
        ));
    }
}
