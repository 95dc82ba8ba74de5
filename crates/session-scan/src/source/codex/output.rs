//! What Codex's hooks make of a call and its output: the tool and arguments
//! of a `function_call`, and the header of a `function_call_output`.

use serde_json::Value;
use serde_json::value::RawValue;

use crate::budget::{Budget, Strings};

/// A call's tool and arguments as Codex's hooks name them: `exec_command`
/// is `Bash` with `{"command": <cmd>}` and nothing else (the recorded
/// `PreToolUse` payloads in `docs/hooks/codex/` send no other key); any other
/// function keeps its name and its arguments, parsed (text that is not JSON
/// stays text). Arguments longer than
/// [`crate::budget::Limits::arguments_bytes`] or holding more than
/// [`crate::budget::Limits::value_nodes`] values are not built: the
/// problem's words come back instead.
pub(super) fn call_as_hooked(
    name: String,
    arguments: Option<&RawValue>,
    budget: &Budget,
) -> (String, Result<Value, String>) {
    let built = match arguments {
        None => Ok(Value::Object(Default::default())),
        Some(raw) => budget
            .arguments(raw, Strings::Parsed)
            .map_err(|why| budget.not_built("a `function_call`'s arguments", why)),
    };
    let arguments = match built {
        Ok(arguments) => arguments,
        Err(what) => {
            let tool = if name == "exec_command" {
                "Bash".into()
            } else {
                name
            };
            return (tool, Err(what));
        }
    };
    if name != "exec_command" {
        return (name, Ok(arguments));
    }
    let arguments = match arguments {
        Value::Object(mut fields) => match fields.remove("cmd") {
            Some(cmd) => {
                let mut hooked = serde_json::Map::new();
                hooked.insert("command".into(), cmd);
                Value::Object(hooked)
            }
            None => Value::Object(fields),
        },
        other => other,
    };
    ("Bash".into(), Ok(arguments))
}

/// The fixed header Codex writes before a command's output.
#[derive(Debug, PartialEq)]
pub(super) struct Header<'a> {
    /// The exit code was not 0.
    pub(super) failed: bool,
    /// What follows the `Output:` line.
    pub(super) body: &'a str,
}

/// The most lines read as a header before `Output:`.
const HEADER_LINES_MAX: usize = 8;

impl<'a> Header<'a> {
    /// The header of `output`: lines of `Name: value` (or `Process …`) up to
    /// an `Output:` line, the first of them `Chunk ID:`, `Exit code:`,
    /// `Wall time:` or `Process …`. `None` when `output` does not start so.
    pub(super) fn read(output: &'a str) -> Option<Self> {
        let mut rest = output;
        let mut failed = false;
        for index in 0..=HEADER_LINES_MAX {
            let (line, after) = match rest.split_once('\n') {
                Some((line, after)) => (line, after),
                None => (rest, ""),
            };
            let line = line.strip_suffix('\r').unwrap_or(line);
            if line == "Output:" && index > 0 {
                return Some(Header {
                    failed,
                    body: after,
                });
            }
            let known = ["Chunk ID:", "Exit code:", "Wall time:", "Process "]
                .iter()
                .any(|p| line.starts_with(p));
            let field = line.starts_with(|c: char| c.is_ascii_uppercase())
                && (line.contains(": ") || line.starts_with("Process "));
            if (index == 0 && !known) || !field || after.is_empty() {
                return None;
            }
            let code = line
                .strip_prefix("Process exited with code ")
                .or_else(|| line.strip_prefix("Exit code: "));
            if let Some(code) = code {
                failed = code.trim() != "0";
            }
            rest = after;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_read_or_refused() {
        let git = "Chunk ID: 671d09\nWall time: 0.0000 seconds\nProcess exited with code 128\nOriginal token count: 36\nOutput:\nfatal: x\n";
        let cases: &[(&str, Option<(bool, &str)>)] = &[
            (git, Some((true, "fatal: x\n"))),
            (
                "Chunk ID: a\nWall time: 0 seconds\nProcess exited with code 0\nOriginal token count: 1\nOutput:\n",
                Some((false, "")),
            ),
            (
                "Chunk ID: a\nProcess exited with code 0\nOutput:",
                Some((false, "")),
            ),
            (
                "Exit code: 2\nWall time: 1 seconds\nOutput:\nno\n",
                Some((true, "no\n")),
            ),
            (
                "Chunk ID: a\nWall time: 0 seconds\nProcess running with session ID 3\nOutput:\npartial",
                Some((false, "partial")),
            ),
            (
                "exec_command failed: CreateProcess { message: \"x\" }",
                None,
            ),
            ("Output:\nhello\n", None),
            ("Chunk ID: a\nhello\nOutput:\n", None),
            ("Chunk ID: a\nProcess exited with code 1\n", None),
            ("", None),
        ];
        for (output, want) in cases {
            let got = Header::read(output).map(|h| (h.failed, h.body));
            assert_eq!(got, *want, "{output:?}");
        }
    }

    #[test]
    fn exec_command_is_hooked_as_bash() {
        let budget = Budget::new(crate::budget::Limits {
            value_nodes: 8,
            ..crate::budget::Limits::default()
        });
        let hooked = |name: &str, args: Value| {
            let raw = RawValue::from_string(args.to_string()).unwrap();
            let (tool, arguments) = call_as_hooked(name.into(), Some(&raw), &budget);
            (
                tool,
                arguments.unwrap_or_else(|e| Value::String(format!("refused: {e}"))),
            )
        };
        assert_eq!(
            hooked(
                "exec_command",
                Value::String(r#"{"cmd":"ls","workdir":"/x"}"#.into())
            ),
            ("Bash".into(), serde_json::json!({"command": "ls"}))
        );
        assert_eq!(
            hooked("update_plan", Value::String(r#"{"plan":[]}"#.into())),
            ("update_plan".into(), serde_json::json!({"plan": []}))
        );
        assert_eq!(
            hooked("exec_command", Value::String("not json".into())),
            ("Bash".into(), Value::String("not json".into()))
        );
        let (tool, arguments) = call_as_hooked("apply_patch".into(), None, &budget);
        assert_eq!(
            (tool, arguments),
            ("apply_patch".into(), Ok(serde_json::json!({})))
        );
        // Arguments holding more values than the bound are not built.
        let (tool, refused) = hooked(
            "exec_command",
            Value::String(format!("[{}]", vec!["0"; 100].join(","))),
        );
        assert_eq!(tool, "Bash");
        assert!(
            refused
                .as_str()
                .is_some_and(|r| r.contains("holding more than 8 JSON values")),
            "{refused}"
        );
    }
}
