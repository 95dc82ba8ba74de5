//! The producer's shape, for the tests that walk every registered family (feature `testing`).

use advisor_core::testing::{ProducerSample, SampleShape};

/// curl's unresolved name, as Codex 0.171.0 delivered it with the network
/// off (`docs/hooks/codex/network-curl.PostToolUse.json`); no operand.
pub fn sample() -> ProducerSample {
    ProducerSample {
        shape: SampleShape::Message(|_| SAMPLE.to_owned()),
        quoted: &[SAMPLE],
    }
}

const SAMPLE: &str = "curl: (6) Could not resolve host: example.com";
