//! The notice Claude Code gives the model when a background task ends.
//!
//! A `Bash` call with `run_in_background` returns at once: its result says
//! the command is running, and the result's `toolUseResult` names the task
//! (`backgroundTaskId`). When the command ends, Claude Code adds a `user`
//! record whose content is a plain string (recorded with 2.1.332,
//! `examples/transcripts/claude-code/background.jsonl`):
//!
//! ```text
//! <task-notification>
//! <task-id>…</task-id>
//! <tool-use-id>toolu_…</tool-use-id>
//! <output-file>…</output-file>
//! <status>completed</status>
//! <summary>Background command "…" completed (exit code 0)</summary>
//! </task-notification>
//! ```
//!
//! That settles the call. The notice holds no output, so the families have
//! nothing to read in it; only how the call ended is taken.

use std::borrow::Cow;

use advisor_core::{Failure, Outcome, Success};
use serde_json::Value;
use serde_json::value::RawValue;

use crate::model::{Ending, Millis, Record};

/// How the notice starts (as a JSON string: the quote first).
const HEAD: &str = "\"<task-notification>";

/// A background task's end.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct TaskNotice<'a> {
    /// The call that started it.
    pub(super) call: &'a str,
    /// How it ended.
    pub(super) ending: Ending,
}

/// The text between `<tag>` and `</tag>`, the first such pair.
fn between<'t>(text: &'t str, tag: &str) -> Option<&'t str> {
    let open = format!("<{tag}>");
    let close = format!("</{tag}>");
    let start = text.find(&open)? + open.len();
    let len = text[start..].find(&close)?;
    Some(&text[start..start + len])
}

impl<'a> TaskNotice<'a> {
    /// The call and ending of the notice in a `user` record's `content`,
    /// when it is one; the content is decoded only when it starts as a
    /// notice does.
    pub(super) fn read(content: &RawValue) -> Option<(String, Ending)> {
        if !content.get().starts_with(HEAD) {
            return None;
        }
        let text: Cow<'_, str> = serde_json::from_str(content.get()).ok()?;
        let notice = TaskNotice::parse(&text)?;
        Some((notice.call.to_owned(), notice.ending))
    }

    /// The notice's call and ending: `completed` with exit code 0 succeeded;
    /// any other status, or another exit code, failed.
    pub(super) fn parse(text: &'a str) -> Option<TaskNotice<'a>> {
        let call = between(text, "tool-use-id")?.trim();
        if call.is_empty() {
            return None;
        }
        let status = between(text, "status").map(str::trim);
        let code = between(text, "summary")
            .and_then(|s| s.rsplit_once("(exit code "))
            .and_then(|(_, rest)| rest.strip_suffix(')'))
            .and_then(|code| code.trim().parse::<i64>().ok());
        let ending = match (status, code) {
            (Some("completed"), Some(0) | None) => Ending::Succeeded,
            _ => Ending::Failed,
        };
        Some(TaskNotice { call, ending })
    }
}

/// The result record a notice makes for `call`: no text for the families.
pub(super) fn result(call: String, ending: Ending, at: Option<Millis>) -> Record {
    let outcome = match ending {
        Ending::Failed => Outcome::Failure(Failure::default()),
        Ending::Succeeded | Ending::StillRunning => Outcome::Success(Success {
            value: Value::Null,
            content: String::new(),
        }),
    };
    Record::Result {
        call,
        ending,
        outcome,
        at,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notices_are_read_by_their_tags() {
        let done = "<task-notification>\n<task-id>b1</task-id>\n<tool-use-id>toolu_1</tool-use-id>\n<status>completed</status>\n<summary>Background command \"x\" completed (exit code 0)</summary>\n</task-notification>";
        assert_eq!(
            TaskNotice::parse(done),
            Some(TaskNotice {
                call: "toolu_1",
                ending: Ending::Succeeded
            })
        );
        let failed = done.replace("(exit code 0)", "(exit code 2)");
        assert_eq!(
            TaskNotice::parse(&failed).map(|n| n.ending),
            Some(Ending::Failed)
        );
        let killed = done.replace("completed</status>", "killed</status>");
        assert_eq!(
            TaskNotice::parse(&killed).map(|n| n.ending),
            Some(Ending::Failed)
        );
        assert_eq!(
            TaskNotice::parse("<task-notification></task-notification>"),
            None
        );
        let raw = serde_json::value::to_raw_value(done).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            TaskNotice::read(&raw),
            Some(("toolu_1".to_owned(), Ending::Succeeded))
        );
        let prompt = serde_json::value::to_raw_value("Run the scripted commands.")
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(TaskNotice::read(&prompt), None);
    }
}
