//! A third-party family, written only against `advisor-core`'s public API.
//!
//! It recognizes a made-up producer line, `egress-guard: blocked <host>`, as a
//! failure message, speaks only under a confining mode, and advises once. It
//! exists to prove that a family outside this repository's list can be
//! registered with the host adapter and advise end to end with no edit to core.

use advisor_core::{
    Advisory, Anchors, Environment, Family, FamilyDoc, FamilyId, Gate, Observation, WithholdReason,
    text::quote_fragment,
};

/// The family's id.
pub const ID: FamilyId = FamilyId::new("egress-blocked");

const PREFIX: &str = "egress-guard: blocked ";

/// Recognizes `egress-guard: blocked <host>`.
#[derive(Debug, Default, Clone, Copy)]
pub struct EgressBlocked;

/// The blocked host, as the line named it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockedHost(pub String);

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
            .then(|| BlockedHost(host.to_owned()))
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
            quote_fragment(&finding.0)
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
