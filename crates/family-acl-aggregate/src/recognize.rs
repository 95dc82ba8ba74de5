//! The predicate: a failure whose message is one of sandbox-local's two
//! AggregateError sentences.
//!
//! The message's first line, read through core's one envelope rule
//! ([`advisor_core::envelope::unwrap`]: at most one `Error: ` or
//! `AggregateError: ` in front, trailing white space behind), must be exactly
//! the sentence. Later lines are allowed (a host that renders an aggregate's
//! members into its message) and are never read: the members — and anything
//! after the sentence — are the inner errors the session cannot see, so they
//! may not shape the advice.

use advisor_core::{Observation, Untrusted, envelope};

/// The temp half, thrown when the per-session private grant and its cleanup both failed.
pub const TEMP_SENTENCE: &str =
    "sandbox-local windows-acl temp grant materialization failed and its cleanup also failed";

/// The workspace half, thrown when the standing root grant and its cleanup both
/// failed (no word "materialization" in this one).
pub const WORKSPACE_SENTENCE: &str =
    "sandbox-local windows-acl workspace grant failed and its cleanup also failed";

/// Which of the two grants failed together with its cleanup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Half {
    /// The standing workspace-root grant; its cleanup only frees the grant's SIDs.
    Workspace,
    /// The per-session private temp grant; its cleanup revokes it and removes the directory.
    Temp,
}

/// What the recognizer read: which sentence it was. Nothing else in the message
/// is the producer's, so nothing else is kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AggregateFailure {
    /// The half the sentence names.
    pub half: Half,
    /// The producer's sentence: the message's first line without its envelope,
    /// which the match makes byte for byte one of this crate's two constants.
    /// It is still the producer's text, not the advisor's, so it leaves only as
    /// a quote block; the message's other lines (member text) are never kept.
    pub sentence: Untrusted,
}

/// Recognizes either sentence from a failure's message, or returns `None`
/// without allocating.
pub fn recognize(observation: &Observation) -> Option<AggregateFailure> {
    let failure = observation.failure()?;
    let first = failure.message.split('\n').next().unwrap_or_default();
    let line = envelope::unwrap(first);
    let half = match line {
        TEMP_SENTENCE => Half::Temp,
        WORKSPACE_SENTENCE => Half::Workspace,
        _ => return None,
    };
    let sentence = Untrusted::new(line);
    Some(AggregateFailure { half, sentence })
}

#[cfg(test)]
mod tests {
    use super::*;
    use advisor_core::testing::failure;

    fn half(message: &str) -> Option<Half> {
        recognize(&failure(message)).map(|f| f.half)
    }

    #[test]
    fn each_sentence_names_its_half() {
        assert_eq!(half(TEMP_SENTENCE), Some(Half::Temp));
        assert_eq!(half(WORKSPACE_SENTENCE), Some(Half::Workspace));
    }

    #[test]
    fn one_envelope_is_allowed() {
        assert_eq!(half(&format!("Error: {TEMP_SENTENCE}")), Some(Half::Temp));
        assert_eq!(
            half(&format!("AggregateError: {WORKSPACE_SENTENCE}")),
            Some(Half::Workspace)
        );
        assert_eq!(half(&format!("Error: Error: {TEMP_SENTENCE}")), None);
        assert_eq!(
            half(&format!("AggregateError: Error: {TEMP_SENTENCE}")),
            None
        );
        assert_eq!(half(&format!("Error:{TEMP_SENTENCE}")), None);
        assert_eq!(half(&format!("TypeError: {TEMP_SENTENCE}")), None);
    }

    #[test]
    fn trailing_white_space_of_the_first_line_is_removed() {
        assert_eq!(half(&format!("{TEMP_SENTENCE}\r\nmore")), Some(Half::Temp));
        assert_eq!(
            half(&format!("Error: {WORKSPACE_SENTENCE} \t\r\nmore")),
            Some(Half::Workspace)
        );
        assert_eq!(half(&format!("{TEMP_SENTENCE}\r\n")), Some(Half::Temp));
        let finding = recognize(&failure(&format!("Error: {TEMP_SENTENCE} \r\n"))).unwrap();
        assert_eq!(finding.sentence.inspect(), TEMP_SENTENCE);
    }

    #[test]
    fn the_first_line_must_be_exactly_the_sentence() {
        assert_eq!(half(&format!("{TEMP_SENTENCE}.")), None);
        assert_eq!(half(&format!(" {TEMP_SENTENCE}")), None);
        assert_eq!(half(&format!("note\n{TEMP_SENTENCE}")), None);
        assert_eq!(half(&format!("\n{TEMP_SENTENCE}")), None);
        assert_eq!(half(&format!("Error: \n{TEMP_SENTENCE}")), None);
        assert_eq!(
            half(
                "sandbox-local windows-acl workspace grant materialization failed and its cleanup also failed"
            ),
            None
        );
    }
}
