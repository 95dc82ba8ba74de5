#![doc = include_str!("../README.md")]

use advisor_core::{
    Advisory, Anchors, Environment, FamilyId, Gate, Observation, Untrusted, WithholdReason,
};

/// The family's id.
pub const ID: FamilyId = FamilyId::new("egress-blocked");

const PREFIX: &str = "egress-guard: blocked ";

/// The blocked host, as the line named it: the guard's text, not the advisor's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockedHost(pub Untrusted);

advisor_core::family! {
    /// Recognizes `egress-guard: blocked <host>`.
    pub struct EgressBlocked {
        id: ID,
        finding: BlockedHost,
        readme: include_str!("../README.md"),
        // The guard runs beside the DeepSeek harness's tools.
        hosts: &[advisor_core::Host::Dsh],
        anchors: Anchors::FailureText { needles: &[PREFIX] },
        recognize: recognize,
        gate: gate,
        advise: advise,
    }
}

/// The guard's line as a failure message, with a host and nothing after it.
pub fn recognize(observation: &Observation) -> Option<BlockedHost> {
    let host = observation.failure()?.message.trim().strip_prefix(PREFIX)?;
    (!host.is_empty() && !host.contains(char::is_whitespace))
        .then(|| BlockedHost(Untrusted::new(host)))
}

/// Speaks under a confining mode only.
pub fn gate(_finding: &BlockedHost, env: &Environment) -> Gate {
    match env.mode() {
        Ok(mode) if mode.confines() => Gate::Speak,
        Ok(mode) => Gate::Withhold(WithholdReason::UnconfinedMode(mode)),
        Err(why) => Gate::Withhold(WithholdReason::Unresolved(why)),
    }
}

/// The host mentioned in a code span nothing inside can close.
pub fn advise(finding: &BlockedHost, env: &Environment) -> Advisory {
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

#[cfg(test)]
mod tests {
    use super::*;
    use advisor_core::Family;
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
