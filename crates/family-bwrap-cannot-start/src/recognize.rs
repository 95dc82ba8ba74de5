//! The producer's exact shape, and nothing that merely quotes it.

use advisor_core::{Observation, Untrusted, envelope};

/// The producer's sentence. Replace it with the exact text the producer throws.
pub const SENTENCE: &str = "bwrap-cannot-start: replace this with the producer's exact sentence";

/// What the recognizer read: the producer's line, without its envelope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The producer's line (its text, not the advisor's).
    pub line: Untrusted,
}

/// Recognizes a failure whose message is the sentence, or returns `None`.
pub fn recognize(observation: &Observation) -> Option<Finding> {
    let line = envelope::unwrap(&observation.failure()?.message);
    (line == SENTENCE).then(|| Finding {
        line: Untrusted::new(line),
    })
}
