//! The producer's shape, for the tests that walk every registered family (feature `testing`).

use advisor_core::testing::{ProducerSample, SampleShape};

/// `curl -sS https://example.com` under Claude Code 2.1.332's sandbox, as its
/// `PostToolUseFailure` `error` carried it; it takes no operand.
pub fn sample() -> ProducerSample {
    ProducerSample {
        shape: SampleShape::Message(|_| SAMPLE.to_owned()),
        quoted: &[BLOCK, LINE],
    }
}

/// The whole `error` string (recorded: `docs/hooks/claude-code/sandbox-curl-example.PostToolUseFailure.json`).
const SAMPLE: &str = "Exit code 56\ncurl: (56) CONNECT tunnel failed, response 403\n\n\
                      <sandbox_violations>\n\
                      deny network-outbound example.com:443 (user denied)\n\
                      </sandbox_violations>";

/// The block alone.
const BLOCK: &str = "<sandbox_violations>\n\
                     deny network-outbound example.com:443 (user denied)\n\
                     </sandbox_violations>";

/// Its one line.
const LINE: &str = "deny network-outbound example.com:443 (user denied)";
