//! The producer's shape, for the tests that walk every registered family (feature `testing`).

use advisor_core::testing::{ProducerSample, SampleShape};

/// The producer's throw, built around an operand (this one takes none).
pub fn sample() -> ProducerSample {
    ProducerSample {
        shape: SampleShape::Message(|_| crate::SENTENCE.to_owned()),
        quoted: &[crate::SENTENCE],
    }
}
