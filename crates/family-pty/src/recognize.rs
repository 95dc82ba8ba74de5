//! The predicate: is this failure the terminal backend's own startup-exit throw?
//!
//! The producer (`packages/terminal/terminal-bash/src/{session,index}.ts`) throws
//! a plain `Error` whose message is the sentence and nothing else: no detail
//! field, nothing appended. The persistent shell tools rethrow it unchanged, so
//! the failure's message is exactly [`SENTENCE`] and its content is
//! `Error: <sentence>`. Anything longer is something quoting the sentence.

use advisor_core::{Observation, Untrusted};

/// The producer's sentence, byte for byte.
pub const SENTENCE: &str = "PTY shell exited during startup";

/// The one envelope a carrier may put around the sentence.
pub const ENVELOPE: &str = "Error: ";

/// Which part of the failure carried the sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Carrier {
    /// The failure's message (the live `tools/post-execute` carrier).
    Message,
    /// The rendered content alone, the message being empty (a host that only
    /// kept the durable `tool/result` event, where the message survives only
    /// inside the `Error: …` text).
    Content,
}

/// A recognized startup exit of a persistent shell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The tool whose shell failed to start (the only shell the advisory may
    /// name). Its name is whatever the host registered, so it is held as
    /// [`Untrusted`] and only ever mentioned through [`Untrusted::inline`].
    pub tool: Untrusted,
    /// Where the sentence was read.
    pub carrier: Carrier,
}

/// True when `text` is the sentence and nothing else: surrounding whitespace
/// (a trailing newline included) and at most one `Error: ` envelope allowed.
pub fn is_whole_sentence(text: &str) -> bool {
    let line = text.trim();
    let bare = line.strip_prefix(ENVELOPE).unwrap_or(line);
    bare == SENTENCE
}

/// Recognizes the producer's failure; `None` (without allocating) for
/// anything else, a successful result quoting the sentence included.
pub fn recognize(observation: &Observation) -> Option<Finding> {
    let failure = observation.failure()?;
    // The message is authoritative whenever there is one; the content is
    // consulted only when the carrier kept nothing else.
    let carrier = if failure.message.trim().is_empty() {
        is_whole_sentence(&failure.content).then_some(Carrier::Content)?
    } else {
        is_whole_sentence(&failure.message).then_some(Carrier::Message)?
    };
    Some(Finding {
        tool: Untrusted::new(observation.tool.as_str()),
        carrier,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bare_sentence_is_whole() {
        assert!(is_whole_sentence(SENTENCE));
    }

    #[test]
    fn one_envelope_and_surrounding_whitespace_are_allowed() {
        assert!(is_whole_sentence("Error: PTY shell exited during startup"));
        assert!(is_whole_sentence("PTY shell exited during startup\n"));
        assert!(is_whole_sentence(
            "  Error: PTY shell exited during startup\r\n"
        ));
    }

    #[test]
    fn a_longer_line_is_a_quotation() {
        assert!(!is_whole_sentence(
            "PTY shell exited during startup; viewport=\"PS> \""
        ));
        assert!(!is_whole_sentence(
            "[error] PTY shell exited during startup"
        ));
        assert!(!is_whole_sentence("PTY shell exited during startup."));
        assert!(!is_whole_sentence(
            "log follows:\nPTY shell exited during startup"
        ));
    }

    #[test]
    fn only_the_error_envelope_is_stripped_and_only_once() {
        assert!(!is_whole_sentence(
            "Error: Error: PTY shell exited during startup"
        ));
        assert!(!is_whole_sentence("error: PTY shell exited during startup"));
        assert!(!is_whole_sentence(
            "Warning: PTY shell exited during startup"
        ));
        assert!(!is_whole_sentence("Error:PTY shell exited during startup"));
    }

    #[test]
    fn siblings_and_neighbours_are_refused() {
        for other in [
            "PTY shell did not reach readiness before startup timeout",
            "PTY backend startup and cleanup both failed",
            "PTY spawn and rollback both failed",
            "persistent bash shell did not accept initialization",
            "persistent pwsh shell did not accept initialization",
            "pty shell exited during startup",
            "",
        ] {
            assert!(!is_whole_sentence(other), "{other:?}");
        }
    }
}
