//! Whether a recognized text is the sandbox's own, or could be a program's.
//!
//! A line of text proves nothing about who printed it: a test, a `cat`, an
//! npm script can print bubblewrap's line or a `<sandbox_violations>` block
//! byte for byte. Recognition says "this looks like it"; provenance says
//! "this is it". Every family may declare it ([`Family::provenance`](crate::Family::provenance)),
//! from its finding and the facts in the [`Environment`](crate::Environment)
//! (the host, and what the hook checked outside the sandbox,
//! [`HostChecks`](crate::HostChecks)); the advisor then holds three rules
//! for every family:
//!
//! - **only a proven failure feeds the fail-fast budget**: a failure not
//!   proven to be the sandbox's never counts toward `enforceAfter`, so it
//!   never makes an identical call be refused;
//! - **a refuted finding is declined** before the family's gate runs, with
//!   the refutation's code on the host log (`sandbox_advisor::declined`);
//! - **a forgeable finding's diagnosis is never `confirmed`**.
//!
//! What a family may say for a forgeable finding is its own decision (decline,
//! or a hedged advisory); its README says which, and never offers a remedy
//! that weakens the host (a sysctl, an AppArmor change, a domain for an
//! allow list, a weaker sandbox) on anything but proof.

/// What proves that a recognized text is the sandbox's, not a program's output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Proof {
    /// The harness's own record of the call: an error its pipeline settled
    /// (the runner's thrown failure), where a command's output never lands.
    HarnessRecord,
    /// A field of the client's report that a command's output cannot reach
    /// (Claude Code's own `stderr` of a Bash call that exited 0: the
    /// command's stdout and stderr both arrive in `stdout`).
    ClientChannel,
    /// A fact the hook checked on the same host, outside the client's
    /// sandbox (this host cannot create a user namespace; Codex's home is
    /// under the temp directory).
    HostCheck,
}

impl Proof {
    /// The stable kebab-case code used on the host log and in snapshots.
    pub fn code(self) -> &'static str {
        match self {
            Proof::HarnessRecord => "harness-record",
            Proof::ClientChannel => "client-channel",
            Proof::HostCheck => "host-check",
        }
    }
}

/// Whether a recognized finding is provably the sandbox's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Provenance {
    /// Something a program cannot forge says it is the sandbox's.
    Proven(Proof),
    /// It has the sandbox's shape and nothing refutes it, but a command's own
    /// output could have printed the same text.
    Forgeable,
    /// A fact checked outside the sandbox contradicts it: not the sandbox's.
    /// The code (kebab-case) is the decline's.
    Refuted(&'static str),
    /// The family does not say (the default). Treated as not proven: it
    /// never feeds the fail-fast budget; otherwise the family's gate decides.
    #[default]
    Undeclared,
}

impl Provenance {
    /// True only for [`Provenance::Proven`].
    pub fn is_proven(self) -> bool {
        matches!(self, Provenance::Proven(_))
    }

    /// A short account for the host log and snapshots: `proven (<proof>)`,
    /// `forgeable`, `refuted (<code>)` or `undeclared`.
    pub fn describe(self) -> String {
        match self {
            Provenance::Proven(proof) => format!("proven ({})", proof.code()),
            Provenance::Forgeable => "forgeable".to_owned(),
            Provenance::Refuted(code) => format!("refuted ({code})"),
            Provenance::Undeclared => "undeclared".to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_proof_is_proven() {
        assert!(Provenance::Proven(Proof::HostCheck).is_proven());
        for p in [
            Provenance::Forgeable,
            Provenance::Refuted("x"),
            Provenance::Undeclared,
        ] {
            assert!(!p.is_proven(), "{p:?}");
        }
        assert_eq!(Provenance::default(), Provenance::Undeclared);
        assert_eq!(
            Provenance::Proven(Proof::ClientChannel).describe(),
            "proven (client-channel)"
        );
        assert_eq!(Provenance::Refuted("off").describe(), "refuted (off)");
    }
}
