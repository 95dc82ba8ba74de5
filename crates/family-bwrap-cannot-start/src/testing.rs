//! The producer's shape, for the tests that walk every registered family (feature `testing`).

use advisor_core::testing::{ProducerSample, SampleShape};

/// bubblewrap's line when user namespaces are unavailable, as both clients
/// recorded it; it takes no operand.
pub fn sample() -> ProducerSample {
    ProducerSample {
        shape: SampleShape::Message(|_| SAMPLE.to_owned()),
        quoted: &[SAMPLE],
    }
}

const SAMPLE: &str = "bwrap: Creating new namespace failed: nesting depth or /proc/sys/user/max_*_namespaces exceeded (ENOSPC)";
