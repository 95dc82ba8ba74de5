//! The producer's shape, for the tests that walk every registered family (feature `testing`).

use advisor_core::testing::{ProducerSample, SampleShape};

/// touch's refused write, as Codex 0.171.0 delivered it
/// (`docs/hooks/codex/write-outside.PostToolUse.json`); it takes no operand
/// (the path must be an absolute Linux path, which the walk's operands are not).
pub fn sample() -> ProducerSample {
    ProducerSample {
        shape: SampleShape::Message(|_| SAMPLE.to_owned()),
        quoted: &[SAMPLE],
    }
}

const SAMPLE: &str = "touch: cannot touch '/srv/run/outside': Read-only file system";
