//! The producer's shape, for the tests that walk every registered family (feature `testing`).

use advisor_core::testing::{ProducerSample, SampleShape};

/// The runner's report with `exit code 0`; it takes no operand.
pub fn sample() -> ProducerSample {
    ProducerSample {
        shape: SampleShape::Message(|_| SAMPLE.to_owned()),
        quoted: &[SAMPLE],
    }
}

const SAMPLE: &str = "subprocess-local: Windows Job runner exited with exit code 0 before proving its managed range empty";
