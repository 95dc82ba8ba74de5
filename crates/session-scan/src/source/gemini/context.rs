//! What Gemini CLI itself wrote of the session's environment in its first
//! user message, the `<session_context>` it builds (`getEnvironmentContext`
//! in 0.61.0's bundle, read there and seen in every recorded chat): the
//! platform (`My operating system is: <process.platform>`) and, when the
//! directory tree is included, the workspace directories, one per line.

use advisor_core::Platform;

use super::shapes::{Message, TextPart};
use crate::source::json::{first, or_default};

/// How Gemini's own context message begins.
const CONTEXT: &str = "<session_context>\nThis is the Gemini CLI.";
/// The line naming the platform (Node's `process.platform`).
const OS_LINE: &str = "My operating system is: ";
/// The heading of the workspace directories, each on a line `  - <dir>`.
const DIRS_LINE: &str = "- **Workspace Directories:**";

/// The platform and first workspace directory a context message names.
fn environment(text: &str) -> (Option<Platform>, Option<String>) {
    let mut os = None;
    let mut cwd = None;
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if let Some(name) = line.strip_prefix(OS_LINE) {
            os = match name {
                "linux" => Some(Platform::Linux),
                "darwin" => Some(Platform::Macos),
                "win32" => Some(Platform::Win32),
                _ => None,
            };
        } else if line == DIRS_LINE {
            cwd = lines
                .next()
                .and_then(|l| l.strip_prefix("  - "))
                .map(str::to_owned);
            break;
        }
    }
    (os, cwd)
}

/// The platform and first workspace directory `message` names, when it is
/// Gemini's context message (a `user` message whose first text part opens
/// with [`CONTEXT`]).
pub(super) fn read(message: &Message<'_>) -> (Option<Platform>, Option<String>) {
    if message.kind.as_deref() != Some("user") {
        return (None, None);
    }
    let text = message
        .content
        .and_then(first)
        .and_then(|part| or_default::<TextPart<'_>>(Some(part)).text)
        .filter(|t| t.starts_with(CONTEXT));
    text.as_deref().map_or((None, None), environment)
}
