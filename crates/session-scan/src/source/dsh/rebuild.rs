//! The rendered text of a tool result, and the shell tools' canonical value
//! rebuilt from it (the log keeps only the rendering).
//!
//! The shell tools (`tool-bash`, `tool-pwsh`) render a finished foreground
//! command as: the body (stdout; a `[stderr]` line then stderr when stderr is
//! not empty; `(no output)` when both are empty; a truncated stream followed
//! by `[output truncated; full output: <path>]`), then one marker per line,
//! in this order: `[sandbox: file access denied under <mode> mode]`, the
//! escalation hint `[sandbox: escalation available …]`,
//! `[timed out after <n>ms]`, and `[killed by signal: <s>]` or
//! `[exit code: <n>]` (a clean exit 0 has none). [`shell_value`] peels the
//! markers off the end in that order and splits the body.
//!
//! Where the text is ambiguous the rebuild picks one reading: the body is
//! split at the *last* `\n[stderr]\n` (a stdout line `[stderr]` with a real
//! stderr after it stays stdout; a stderr holding such a line does not), and
//! a trailing marker-shaped line of stdout on a clean exit is read as a
//! marker, as the harness's own `parseExitStatus` would.

use serde_json::{Map, Value, json};

const STDERR: &str = "[stderr]\n";
const NO_OUTPUT: &str = "(no output)";
const TRUNCATED: &str = "[output truncated; full output: ";
const DENIED: (&str, &str) = ("[sandbox: file access denied under ", " mode]");
const ESCALATION: &str = "[sandbox: escalation available";
const TIMED_OUT: (&str, &str) = ("[timed out after ", "ms]");
const KILLED: (&str, &str) = ("[killed by signal: ", "]");
const EXIT: (&str, &str) = ("[exit code: ", "]");
const MODES: [&str; 3] = ["read-only", "workspace-write", "danger-full-access"];

/// The text before the last line (without its `\n`), and the last line.
fn last_line(text: &str) -> (&str, &str) {
    text.rsplit_once('\n').unwrap_or(("", text))
}

/// Splits off the last line when it is `prefix…suffix`, returning the rest
/// (without its `\n`) and the middle.
fn last_marker<'t>(text: &'t str, (prefix, suffix): (&str, &str)) -> Option<(&'t str, &'t str)> {
    let (rest, line) = last_line(text);
    let middle = line.strip_prefix(prefix)?.strip_suffix(suffix)?;
    Some((rest, middle))
}

/// A decimal integer, with an optional leading minus.
fn integer(text: &str) -> Option<i64> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// One stream's `{text, truncated}`, its truncation notice removed.
fn stream(text: &str) -> Value {
    match last_marker(text, (TRUNCATED, "]")) {
        Some((rest, _)) => json!({"text": rest, "truncated": true}),
        None => json!({"text": text, "truncated": false}),
    }
}

/// The foreground value a shell rendering came from, or `Value::Null` when the
/// text does not read as one. The renderer writes no marker for a clean exit,
/// so text without any is exit 0 with that text as stdout; but empty text
/// (the renderer writes `(no output)`) or a last line that starts like a
/// marker and does not parse as one is no rendering of the shell tools.
pub(crate) fn shell_value(text: &str) -> Value {
    let mut rest = text;
    let mut exit_code = Some(0i64);
    let mut signal = Value::Null;
    let mut timed_out = false;
    let mut timeout_ms = Value::Null;
    let mut sandbox = None;
    let mut marked = false;
    if let Some((before, code)) = last_marker(rest, EXIT).and_then(|(r, c)| Some((r, integer(c)?)))
    {
        (rest, exit_code, marked) = (before, Some(code), true);
    } else if let Some((before, name)) = last_marker(rest, KILLED) {
        (rest, exit_code, signal, marked) = (before, None, json!(name), true);
    }
    if let Some((before, ms)) =
        last_marker(rest, TIMED_OUT).and_then(|(r, m)| Some((r, integer(m)?)))
    {
        (rest, timed_out, timeout_ms, marked) = (before, true, json!(ms), true);
    }
    let (before, line) = last_line(rest);
    if line.starts_with(ESCALATION) && line.ends_with(']') {
        (rest, marked) = (before, true);
    }
    if let Some((before, mode)) = last_marker(rest, DENIED) {
        rest = before;
        marked = true;
        if MODES.contains(&mode) {
            sandbox = Some(json!({"mode": mode, "denied": true}));
        }
    }
    let (stdout, stderr) = if rest == NO_OUTPUT {
        marked = true;
        ("", "")
    } else if let Some(err) = rest.strip_prefix(STDERR) {
        marked = true;
        ("", err)
    } else if let Some((out, err)) = rest.rsplit_once(&format!("\n{STDERR}")) {
        marked = true;
        (out, err)
    } else {
        (rest, "")
    };
    let (stdout, stderr) = (stream(stdout), stream(stderr));
    let truncated = |v: &Value| v.get("truncated") == Some(&Value::Bool(true));
    if !marked && !truncated(&stdout) {
        let (_, last) = last_line(text);
        let marker_like = [EXIT.0, KILLED.0, TIMED_OUT.0, "[sandbox: "]
            .iter()
            .any(|prefix| last.starts_with(prefix));
        if text.is_empty() || marker_like {
            return Value::Null;
        }
    }
    let mut value = Map::new();
    value.insert("kind".into(), json!("foreground"));
    value.insert(
        "exitCode".into(),
        exit_code.map_or(Value::Null, Value::from),
    );
    value.insert("signal".into(), signal);
    value.insert("timedOut".into(), json!(timed_out));
    value.insert("aborted".into(), json!(false));
    value.insert("timeoutMs".into(), timeout_ms);
    value.insert("stdout".into(), stdout);
    value.insert("stderr".into(), stderr);
    if let Some(sandbox) = sandbox {
        value.insert("sandbox".into(), sandbox);
    }
    Value::Object(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HINT: &str = "[sandbox: escalation available — retry this exact command once with sandbox_permissions (the narrowest wider mode that suffices) + justification; the approval prompt asks the user]";

    /// The rebuilt value of `text`, compared field by field with the wanted
    /// `(exitCode, signal, timeoutMs, stdout, stdout truncated, stderr,
    /// stderr truncated, sandbox mode)`; `None` wants `Value::Null`.
    #[allow(clippy::type_complexity)]
    fn check(
        text: &str,
        want: Option<(Value, Value, Value, &str, bool, &str, bool, Option<&str>)>,
    ) {
        let got = shell_value(text);
        let Some((code, signal, timeout, out, out_t, err, err_t, mode)) = want else {
            assert_eq!(got, Value::Null, "{text:?}");
            return;
        };
        let mut want = json!({
            "kind": "foreground", "exitCode": code, "signal": signal,
            "timedOut": !timeout.is_null(), "aborted": false, "timeoutMs": timeout,
            "stdout": {"text": out, "truncated": out_t},
            "stderr": {"text": err, "truncated": err_t},
        });
        if let Some(mode) = mode {
            want["sandbox"] = json!({"mode": mode, "denied": true});
        }
        assert_eq!(got, want, "{text:?}");
        // The families' reader accepts it.
        let run = advisor_core::shell::ForegroundRun::read(&got).expect("a foreground value");
        assert_eq!(run.stdout, Some(out));
        assert_eq!(run.sandbox.map(|s| s.mode), mode);
    }

    #[test]
    fn shell_renderings_are_rebuilt() {
        let n = Value::Null;
        let denied = format!(
            "[stderr]\nAccess is denied.\n[sandbox: file access denied under workspace-write mode]\n{HINT}\n[exit code: 1]"
        );
        for (text, want) in [
            (
                "[exit code: 0]",
                Some((json!(0), n.clone(), n.clone(), "", false, "", false, None)),
            ),
            (
                "(no output)\n[exit code: 2]",
                Some((json!(2), n.clone(), n.clone(), "", false, "", false, None)),
            ),
            (
                "(no output)",
                Some((json!(0), n.clone(), n.clone(), "", false, "", false, None)),
            ),
            (
                "out\n[stderr]\nboom\n[exit code: 2]",
                Some((
                    json!(2),
                    n.clone(),
                    n.clone(),
                    "out",
                    false,
                    "boom",
                    false,
                    None,
                )),
            ),
            (
                denied.as_str(),
                Some((
                    json!(1),
                    n.clone(),
                    n.clone(),
                    "",
                    false,
                    "Access is denied.",
                    false,
                    Some("workspace-write"),
                )),
            ),
            (
                "x\n[exit code: -1073741502]",
                Some((
                    json!(-1073741502),
                    n.clone(),
                    n.clone(),
                    "x",
                    false,
                    "",
                    false,
                    None,
                )),
            ),
            (
                "x\n[exit code: 3221225794]",
                Some((
                    json!(3221225794u64),
                    n.clone(),
                    n.clone(),
                    "x",
                    false,
                    "",
                    false,
                    None,
                )),
            ),
            (
                "partial\n[timed out after 1500ms]\n[killed by signal: SIGTERM]",
                Some((
                    n.clone(),
                    json!("SIGTERM"),
                    json!(1500),
                    "partial",
                    false,
                    "",
                    false,
                    None,
                )),
            ),
            (
                "head\n[output truncated; full output: D:\\spill.txt]",
                Some((
                    json!(0),
                    n.clone(),
                    n.clone(),
                    "head",
                    true,
                    "",
                    false,
                    None,
                )),
            ),
            (
                "a\n[output truncated; full output: (unavailable)]\n[stderr]\ne\n[exit code: 1]",
                Some((json!(1), n.clone(), n.clone(), "a", true, "e", false, None)),
            ),
            // A mode outside the vocabulary is a marker, but no stamp.
            (
                "(no output)\n[sandbox: file access denied under weird mode]\n[exit code: 1]",
                Some((json!(1), n.clone(), n.clone(), "", false, "", false, None)),
            ),
            // Controls: a marker mid-text is stdout.
            (
                "first\n[exit code: 1]\nlast\n[exit code: 3]",
                Some((
                    json!(3),
                    n.clone(),
                    n.clone(),
                    "first\n[exit code: 1]\nlast",
                    false,
                    "",
                    false,
                    None,
                )),
            ),
            // A marker is last or it is output: this one is stdout, a clean exit.
            (
                "first\n[exit code: 1]\nlast",
                Some((
                    json!(0),
                    n.clone(),
                    n.clone(),
                    "first\n[exit code: 1]\nlast",
                    false,
                    "",
                    false,
                    None,
                )),
            ),
            // A `[stderr]` line inside stdout, then the real stderr.
            (
                "a\n[stderr]\nb\n[stderr]\nc\n[exit code: 1]",
                Some((
                    json!(1),
                    n.clone(),
                    n.clone(),
                    "a\n[stderr]\nb",
                    false,
                    "c",
                    false,
                    None,
                )),
            ),
            // No markers at all: a clean exit (the renderer marks only the others).
            (
                "README.md\nsrc",
                Some((
                    json!(0),
                    n.clone(),
                    n.clone(),
                    "README.md\nsrc",
                    false,
                    "",
                    false,
                    None,
                )),
            ),
            // Not a rendering: empty, or a marker that does not parse.
            ("", None),
            ("[exit code: x]", None),
            ("x\n[exit code: ]", None),
        ] {
            check(text, want);
        }
    }
}
