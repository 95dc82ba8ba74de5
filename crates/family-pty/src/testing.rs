//! The producer's shape, for the tests that walk every registered family (feature `testing`).

use advisor_core::testing::{ProducerSample, SampleShape};

/// The terminal backend's throw; it takes no operand.
pub fn sample() -> ProducerSample {
    ProducerSample {
        shape: SampleShape::Message(|_| crate::SENTENCE.to_owned()),
        quoted: &[crate::SENTENCE],
    }
}
