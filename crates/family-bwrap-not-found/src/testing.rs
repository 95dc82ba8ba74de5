//! The producer's shape, for the tests that walk every registered family (feature `testing`).

use advisor_core::testing::{ProducerSample, SampleShape};

/// The shell's line, as `hook --dialect gemini-cli` renders the failure.
pub fn sample() -> ProducerSample {
    ProducerSample {
        shape: SampleShape::Message(|_| format!("Exit code 127\n{}", crate::LINE)),
        quoted: &[crate::LINE],
    }
}
