//! A third-party family, written only against `advisor-core`'s public API.
//!
//! It recognizes a made-up producer line, `egress-guard: blocked <host>`, as a
//! failure message, speaks only under a confining mode, and advises once. It
//! exists to prove that a family outside this repository's list can be
//! registered with the host adapter and advise end to end with no edit to core.
//!
//! ## Quoting what it did not write
//! The host name comes from the guard's line, so whoever named the host wrote
//! it: it may hold a backtick that would close a code span, terminal escapes or
//! invisible characters. The family does what every family must do with such
//! text:
//! - it wraps it in [`Untrusted`] where it reads it out of the observation
//!   (`recognize`), and the finding holds only that;
//! - the advisory mentions it through [`Untrusted::inline`], a code span
//!   nothing inside can close, with every invisible character and backtick
//!   shown as an escape (`\u{200B}`, `\u{60}`).
//!
//! Evidence quoted verbatim (a whole line, a stderr excerpt) would go through
//! [`Untrusted::quote_block`] on its own lines instead, and a path placed in a
//! command line through `advisor_core::quote::PathSlot`. `Untrusted` has no
//! `Display`, so formatting the raw text into the advisory does not compile.

use advisor_core::{
    Advisory, Anchors, Environment, Family, FamilyDoc, FamilyId, Gate, Observation, Untrusted,
    WithholdReason,
};

/// The family's id.
pub const ID: FamilyId = FamilyId::new("egress-blocked");

const PREFIX: &str = "egress-guard: blocked ";

/// Recognizes `egress-guard: blocked <host>`.
#[derive(Debug, Default, Clone, Copy)]
pub struct EgressBlocked;

/// The blocked host, as the line named it: the guard's text, not the advisor's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockedHost(pub Untrusted);

impl Family for EgressBlocked {
    type Finding = BlockedHost;

    fn id(&self) -> FamilyId {
        ID
    }

    fn doc(&self) -> FamilyDoc {
        FamilyDoc {
            recognizes: "a failure whose message is `egress-guard: blocked <host>`",
            refuses: "the line in a successful output; an empty host",
        }
    }

    fn anchors(&self) -> Anchors {
        Anchors::FailureText { needles: &[PREFIX] }
    }

    fn recognize(&self, observation: &Observation) -> Option<BlockedHost> {
        let host = observation.failure()?.message.trim().strip_prefix(PREFIX)?;
        (!host.is_empty() && !host.contains(char::is_whitespace))
            .then(|| BlockedHost(Untrusted::new(host)))
    }

    fn gate(&self, _finding: &BlockedHost, env: &Environment) -> Gate {
        match env.mode() {
            Ok(mode) if mode.confines() => Gate::Speak,
            Ok(mode) => Gate::Withhold(WithholdReason::UnconfinedMode(mode)),
            Err(why) => Gate::Withhold(WithholdReason::Unresolved(why)),
        }
    }

    fn advise(&self, finding: &BlockedHost, env: &Environment) -> Advisory {
        let mode = env.mode().map(|m| m.as_str()).unwrap_or("unknown");
        let text = format!(
            "Outbound network access to {} was blocked by the sandbox's egress guard under `{mode}`.\n\
             Retrying will not help; ask the user to allow the host or to provide the data another way.",
            finding.0.inline()
        );
        Advisory::new(
            ID,
            "Network egress blocked by the sandbox; retrying cannot help.",
            text,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use advisor_core::testing::{failure, success};

    #[test]
    fn recognizes_only_the_failure_line() {
        assert_eq!(
            EgressBlocked.recognize(&failure("egress-guard: blocked example.org")),
            Some(BlockedHost("example.org".into()))
        );
        assert_eq!(
            EgressBlocked.recognize(&failure("egress-guard: blocked ")),
            None
        );
        assert_eq!(
            EgressBlocked.recognize(&failure("egress-guard: blocked by policy for now")),
            None
        );
        assert_eq!(
            EgressBlocked.recognize(&success(
                serde_json::json!({}),
                "egress-guard: blocked example.org"
            )),
            None
        );
    }
}
