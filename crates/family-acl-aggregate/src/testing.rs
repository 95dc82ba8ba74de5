//! The producer's shape, for the tests that walk every registered family (feature `testing`).

use advisor_core::testing::{ProducerSample, SampleShape};

use crate::{TEMP_SENTENCE, WORKSPACE_SENTENCE};

/// `materializeAclGrant`'s throw for the temp half; it takes no operand.
pub fn sample() -> ProducerSample {
    ProducerSample {
        shape: SampleShape::Message(|_| TEMP_SENTENCE.to_owned()),
        quoted: &[TEMP_SENTENCE, WORKSPACE_SENTENCE],
    }
}
