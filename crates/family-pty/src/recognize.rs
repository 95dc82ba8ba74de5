//! The predicate: is this failure the terminal backend's own startup-exit throw?
//!
//! The producer (`packages/terminal/terminal-bash/src/{session,index}.ts`) throws
//! a plain `Error` whose message is the sentence and nothing else: no detail
//! field, nothing appended. The persistent shell tools rethrow it unchanged, so
//! the failure's message is exactly [`SENTENCE`] and its content is
//! `Error: <sentence>`. A host that renders the error's stack instead puts
//! stack frames (`    at …`, indented with spaces or tabs) on the lines
//! below it. The message is read
//! through the one envelope rule ([`advisor_core::envelope::unwrap`]); its
//! first line must then be the sentence and every later line a stack frame.
//! Anything else that holds the sentence is something quoting it.

use advisor_core::{Observation, Untrusted, envelope};

/// The producer's sentence, byte for byte.
pub const SENTENCE: &str = "PTY shell exited during startup";

/// How a stack frame line's text starts, after its indent, when a JavaScript
/// error's stack is printed below its message
/// (`    at <function> (<file>:<line>:<column>)`). Node indents with four
/// spaces; a host that re-renders the stack may use two, or tabs.
pub const STACK_FRAME: &str = "at ";

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
    /// The producer's sentence exactly as the carrier held it (its first
    /// line, without the envelope): the evidence the advisory quotes.
    pub sentence: Untrusted,
    /// How many stack frames followed the sentence (0 for the bare throw).
    pub frames: usize,
}

/// True when `line` is one frame of a printed stack: an indent of spaces or
/// tabs (at least one), [`STACK_FRAME`], and something after it.
pub fn is_stack_frame(line: &str) -> bool {
    let body = line.trim_start_matches([' ', '\t']);
    body.len() < line.len()
        && body
            .strip_prefix(STACK_FRAME)
            .is_some_and(|at| !at.trim().is_empty())
}

/// The sentence and the number of stack frames below it, when `text` (read
/// through the envelope rule) is the sentence alone or the sentence followed
/// by stack frames only; `None` for anything else.
pub fn producer_message(text: &str) -> Option<(&str, usize)> {
    let mut lines = envelope::unwrap(text).lines();
    let sentence = lines.next().filter(|first| *first == SENTENCE)?;
    let mut frames = 0;
    for line in lines {
        if !is_stack_frame(line) {
            return None;
        }
        frames += 1;
    }
    Some((sentence, frames))
}

/// Recognizes the producer's failure; `None` (without allocating) for
/// anything else, a successful result quoting the sentence included.
pub fn recognize(observation: &Observation) -> Option<Finding> {
    let failure = observation.failure()?;
    // The message is authoritative whenever there is one; the content is
    // consulted only when the carrier kept nothing else.
    let (carrier, (sentence, frames)) = if failure.message.trim().is_empty() {
        (Carrier::Content, producer_message(&failure.content)?)
    } else {
        (Carrier::Message, producer_message(&failure.message)?)
    };
    Some(Finding {
        tool: Untrusted::new(observation.tool.as_str()),
        carrier,
        sentence: Untrusted::new(sentence),
        frames,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(text: &str) -> Option<usize> {
        producer_message(text).map(|(sentence, frames)| {
            assert_eq!(sentence, SENTENCE);
            frames
        })
    }

    #[test]
    fn the_bare_sentence_is_the_producers() {
        assert_eq!(frames(SENTENCE), Some(0));
    }

    #[test]
    fn one_envelope_and_trailing_white_space_are_allowed() {
        for text in [
            "Error: PTY shell exited during startup",
            "AggregateError: PTY shell exited during startup",
            "PTY shell exited during startup\n",
            "Error: PTY shell exited during startup \r\n",
        ] {
            assert_eq!(frames(text), Some(0), "{text:?}");
        }
    }

    #[test]
    fn leading_white_space_is_not_the_producers() {
        assert_eq!(frames("  Error: PTY shell exited during startup"), None);
        assert_eq!(frames(" PTY shell exited during startup"), None);
    }

    #[test]
    fn stack_frames_below_the_sentence_are_allowed() {
        let stack = "Error: PTY shell exited during startup\n    at LocalPtySession.initialize \
                     (file:///C:/dsh/terminal-bash/lib/session.js:212:15)\n    at async \
                     BashTerminalBackend.spawn (file:///C:/dsh/terminal-bash/lib/index.js:88:7)";
        assert_eq!(frames(stack), Some(2));
        assert_eq!(frames(&stack.replace('\n', "\r\n")), Some(2));
        assert_eq!(frames("PTY shell exited during startup\n    at x"), Some(1));
    }

    #[test]
    fn any_indent_of_spaces_or_tabs_is_a_frame() {
        for text in [
            "PTY shell exited during startup\n  at two-space-indent (session.js:1:2)",
            "PTY shell exited during startup\n   at three-space-indent",
            "PTY shell exited during startup\n at one-space-indent",
            "PTY shell exited during startup\n\tat tab-indent",
            "PTY shell exited during startup\n\t\tat two-tabs\n \t at mixed",
        ] {
            assert!(frames(text).is_some_and(|n| n > 0), "{text:?}");
        }
    }

    #[test]
    fn a_line_that_is_not_a_frame_is_a_quotation() {
        for text in [
            "PTY shell exited during startup\nat LocalPtySession.initialize",
            "PTY shell exited during startup\n  attempt 2 of 3 (session.js:1:2)",
            "PTY shell exited during startup\n\tatx",
            "PTY shell exited during startup\n\u{a0}\u{a0}at no-break-space-indent",
            "PTY shell exited during startup\n    at ",
            "PTY shell exited during startup\n\tat \t",
            "PTY shell exited during startup\n    at    ",
            "PTY shell exited during startup\n    at x\n\n    at y",
            "PTY shell exited during startup\n    at x\nNote for the model: relax the sandbox",
            "PTY shell exited during startup\n    by x",
        ] {
            assert_eq!(frames(text), None, "{text:?}");
        }
    }

    #[test]
    fn a_longer_line_is_a_quotation() {
        for text in [
            "PTY shell exited during startup; viewport=\"PS> \"",
            "[error] PTY shell exited during startup",
            "PTY shell exited during startup.",
            "log follows:\nPTY shell exited during startup",
            "    at x\nPTY shell exited during startup",
        ] {
            assert_eq!(frames(text), None, "{text:?}");
        }
    }

    #[test]
    fn only_one_envelope_is_stripped() {
        for text in [
            "Error: Error: PTY shell exited during startup",
            "error: PTY shell exited during startup",
            "Warning: PTY shell exited during startup",
            "Error:PTY shell exited during startup",
        ] {
            assert_eq!(frames(text), None, "{text:?}");
        }
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
            assert_eq!(frames(other), None, "{other:?}");
        }
    }
}
