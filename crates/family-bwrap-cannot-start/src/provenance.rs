//! The provenance test: is this bubblewrap's line, or a command's output?
//!
//! Nothing in the client's report tells them apart. Codex sends the bare
//! output with no exit code; Claude Code's `Exit code 1` is what a test that
//! prints the line and exits 1 gets too (both recorded in `docs/hooks/`:
//! `cat-bwrap-line`, `forge-bwrap-exit1`). What the advisor can check is the
//! host: the hook runs on it, outside the sandbox, as the same user in the
//! same namespaces as the client that started bubblewrap.
//!
//! - A namespace line ([`Kind`] but the helper's): the hook's probe runs the
//!   family's own check (bubblewrap, else `unshare`, creating a user
//!   namespace and mapping its ids). **Refused** proves it: this host cannot
//!   give bubblewrap what it needs. **Created** refutes it: this host can, so
//!   the line was something the command printed. Without a probe result, a
//!   sysctl that says the same as the line proves it
//!   (`user.max_user_namespaces` 0 for the limit, Debian's switch 0 for the
//!   unprivileged refusal, Ubuntu's AppArmor restriction 1 for the id map);
//!   anything else is forgeable.
//! - Codex's missing helper: Codex does not create it when its home lies under
//!   the system temp directory. A home there proves it; a home outside
//!   refutes it (the line's cause is not this host's).
//! - Claude Code and Gemini CLI report a dying bubblewrap as a failure (exit
//!   1), so their successes are never checked: the gate declines them.

use advisor_core::{
    Check, Checks, Environment, HomePlace, Host, HostFacts, NamespaceProbe, Platform, Proof,
    Provenance, UserNamespaces,
};

use crate::gate::reports_exit_code;
use crate::recognize::{Carrier, Finding, Kind};

/// Refuted: this host created a user namespace, so bubblewrap could have.
pub const NAMESPACES_AVAILABLE: &str = "user-namespaces-available";

/// Refuted: Codex's home is outside the temp directory, so its helper is made.
pub const HOME_OUTSIDE_TEMP: &str = "codex-home-outside-temp";

/// What the hook should check for `finding` on `host`.
pub fn checks(finding: &Finding, host: &HostFacts) -> Checks {
    if host.platform != Platform::Linux {
        return Checks::NONE;
    }
    match (finding.kind, host.kind, finding.carrier) {
        (Kind::HelperMissing, Host::Codex, _) => Checks::of(&[Check::CodexHome]),
        (Kind::HelperMissing, _, _) => Checks::NONE,
        (_, host, Carrier::Output) if reports_exit_code(host) => Checks::NONE,
        _ => Checks::of(&[Check::UserNamespaces]),
    }
}

/// Proven, refuted or forgeable, from the checks in `env`.
pub fn provenance(finding: &Finding, env: &Environment) -> Provenance {
    if finding.kind == Kind::HelperMissing {
        return match env.checks.codex_home {
            Some(HomePlace::UnderTemp) => Provenance::Proven(Proof::HostCheck),
            Some(HomePlace::OutsideTemp) => Provenance::Refuted(HOME_OUTSIDE_TEMP),
            None => Provenance::Forgeable,
        };
    }
    let Some(host) = env.checks.user_namespaces else {
        return Provenance::Forgeable;
    };
    match host.probe {
        NamespaceProbe::Refused => Provenance::Proven(Proof::HostCheck),
        NamespaceProbe::Created => Provenance::Refuted(NAMESPACES_AVAILABLE),
        NamespaceProbe::NotRun if confirmed(finding.kind, &host) => {
            Provenance::Proven(Proof::HostCheck)
        }
        NamespaceProbe::NotRun => Provenance::Forgeable,
    }
}

/// True when the host's own switch reads what the line's kind says: the one
/// setting whose fix the advisory may then name.
pub fn confirmed(kind: Kind, host: &UserNamespaces) -> bool {
    match kind {
        Kind::NamespaceLimit => host.max_user_namespaces == Some(0),
        Kind::UnprivilegedRefused => host.unprivileged_userns_clone == Some(0),
        Kind::IdMapRefused => host.apparmor_restrict_unprivileged_userns == Some(1),
        Kind::KernelWithoutUserns | Kind::NamespaceRefused | Kind::HelperMissing => false,
    }
}

/// True when the finding is proven: the advisory may then name a host-level
/// fix and the client's weaker sandbox, and the fail-fast budget counts it.
pub fn proven(finding: &Finding, env: &Environment) -> bool {
    provenance(finding, env).is_proven()
}
