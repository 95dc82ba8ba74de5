//! The producer's shape, for the tests that walk every registered family (feature `testing`).

use advisor_core::testing::{ProducerSample, SampleShape};

/// git's lock failure under a protected `.git`; it takes no operand (the
/// path must be an absolute Linux path, which the walk's operands are not).
pub fn sample() -> ProducerSample {
    ProducerSample {
        shape: SampleShape::Message(|_| SAMPLE.to_owned()),
        quoted: &[SAMPLE],
    }
}

const SAMPLE: &str =
    "fatal: Unable to create '/home/dev/project/.git/index.lock': Read-only file system";
