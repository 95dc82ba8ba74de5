//! What Codex's hooks make of a call and its output: the tool and arguments
//! of a `function_call`, and the header of a `function_call_output`.

use serde_json::Value;

/// A call's tool and arguments as Codex's hooks name them: `exec_command`
/// is `Bash` with `{"command": <cmd>}` and nothing else (the recorded
/// `PreToolUse` payloads in `docs/hooks/codex/` send no other key); any other
/// function keeps its name and its arguments, parsed (text that is not JSON
/// stays text).
pub(super) fn call_as_hooked(name: String, arguments: Option<Value>) -> (String, Value) {
    let arguments = match arguments {
        Some(Value::String(text)) => serde_json::from_str(&text).unwrap_or(Value::String(text)),
        Some(value) => value,
        None => Value::Object(Default::default()),
    };
    if name != "exec_command" {
        return (name, arguments);
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
    ("Bash".into(), arguments)
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
        let hooked = |name: &str, args: Value| call_as_hooked(name.into(), Some(args));
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
        assert_eq!(
            call_as_hooked("apply_patch".into(), None),
            ("apply_patch".into(), serde_json::json!({}))
        );
    }
}
