//! The one envelope rule for failure text.
//!
//! A host may hand a producer's message over as it was thrown, or rendered
//! the way JavaScript renders an error (`Error: <message>`), with a trailing
//! newline or carriage return. Every family that reads a message reads it
//! through [`unwrap`], so the rule is the same everywhere: at most one
//! envelope from [`ENVELOPES`] in front, trailing white space behind, and
//! nothing else removed. Leading white space, a second envelope or any other
//! prefix means something else wrote the line.

/// The envelopes a host may put in front of a producer's message: the
/// JavaScript renderings of the error classes the producers throw.
pub const ENVELOPES: [&str; 2] = ["Error: ", "AggregateError: "];

/// `message` with at most one envelope and its trailing white space removed.
pub fn unwrap(message: &str) -> &str {
    let bare = message.trim_end();
    ENVELOPES
        .iter()
        .find_map(|e| bare.strip_prefix(e))
        .unwrap_or(bare)
}

#[cfg(test)]
mod tests {
    use super::unwrap;

    #[test]
    fn one_envelope_and_trailing_white_space() {
        for (raw, bare) in [
            ("x", "x"),
            ("Error: x", "x"),
            ("AggregateError: x", "x"),
            ("Error: x\r\n", "x"),
            ("x \t\r", "x"),
            ("Error: Error: x", "Error: x"),
            (" Error: x", " Error: x"),
            ("TypeError: x", "TypeError: x"),
            ("error: x", "error: x"),
            ("", ""),
        ] {
            assert_eq!(unwrap(raw), bare, "{raw:?}");
        }
    }
}
