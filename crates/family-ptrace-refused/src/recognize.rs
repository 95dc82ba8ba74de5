//! The predicate: a command whose root is a tracer (`strace`), whose output
//! holds strace's own refusal of `PTRACE_TRACEME` as a whole line, in a
//! failure `hook --dialect gemini-cli` read.
//!
//! Gemini CLI sets its mark (the failure's code, [`MARKER`]) when its keyword
//! match finds a refusal in the output of a command its sandbox ran. The mark
//! says the sandbox was on for this command, not who printed the words, so
//! the command itself must be the tracer: a `cat` of a log holding the line
//! is not recognized. Whether the mark is there is the gate's question.

use advisor_core::{Observation, Untrusted};

use crate::facts::{MARKER, TRACEME, TRACERS};

/// A tracer refused by the sandbox's filter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// strace's line (the evidence quoted).
    pub line: Untrusted,
    /// True when Gemini CLI marked the result as its sandbox's refusal.
    pub marked: bool,
}

/// The file name of the command's first word, after `VAR=value` words.
pub fn root_command(arguments: &serde_json::Value) -> Option<&str> {
    let command = arguments.get("command")?.as_str()?;
    let word = command
        .split_ascii_whitespace()
        .find(|w| !is_assignment(w))?;
    word.rsplit('/').next()
}

/// `NAME=value`: a word the shell reads as an assignment before the command.
fn is_assignment(word: &str) -> bool {
    word.find('=').is_some_and(|at| at > 0)
}

/// Recognizes the refusal; `None` (without allocating) for anything else.
pub fn recognize(observation: &Observation) -> Option<Finding> {
    let failure = observation.failure()?;
    let line = failure
        .message
        .lines()
        .map(str::trim_end)
        .find(|l| *l == TRACEME)?;
    let root = root_command(&observation.arguments)?;
    if !TRACERS.contains(&root) {
        return None;
    }
    Some(Finding {
        line: Untrusted::new(line),
        marked: failure.code.as_deref() == Some(MARKER),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_root_command_is_the_first_word_after_assignments() {
        for (command, root) in [
            ("strace -f true", Some("strace")),
            ("/usr/bin/strace true", Some("strace")),
            ("LANG=C strace true", Some("strace")),
            ("cat strace.log", Some("cat")),
            ("", None),
        ] {
            assert_eq!(
                root_command(&json!({ "command": command })),
                root,
                "{command}"
            );
        }
        assert_eq!(root_command(&json!({ "cmd": "strace" })), None);
    }
}
