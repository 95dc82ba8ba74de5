//! The predicate: a failure `hook --dialect gemini-cli` read whose whole
//! output is the shell's [`LINE`] and whose exit code is 127.
//!
//! The hook renders a failure with a known exit code as `Exit code N`, a
//! newline, then the output (the wrapper's noise removed). The line must be
//! the whole output: the command never started, so nothing else was printed.

use advisor_core::{Observation, Untrusted};

use crate::facts::{EXIT_CODE, LINE};

/// The shell's line, recognized.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The line (the evidence quoted).
    pub line: Untrusted,
}

/// Recognizes the line; `None` (without allocating) for anything else.
pub fn recognize(observation: &Observation) -> Option<Finding> {
    let message = &observation.failure()?.message;
    let output = message
        .strip_prefix("Exit code ")?
        .strip_prefix(EXIT_CODE)?
        .strip_prefix('\n')?;
    (output.trim_end() == LINE).then(|| Finding {
        line: Untrusted::new(LINE),
    })
}
