//! A recorded `run_shell_command` result as Gemini CLI's `AfterTool` hook
//! hands it to the families (`sandbox-advisor`'s `hook::gemini_cli::response`),
//! so the scan recognizes what the live hook would.
//!
//! - **A result** (`response.output`): `<untrusted_context>\n`, `Output: `
//!   and the command's combined output (`(empty)` for none), then, each on a
//!   line of its own and only when there is one, `Exit Code: N` (non-zero
//!   only), `Signal: `, `Background PIDs: ` and `Process Group PGID: N`,
//!   then `\n</untrusted_context>`. Read from the end, in Gemini's order. An
//!   exit code is a failure whose message is `Exit code N` and the output;
//!   none is a success whose text is the output.
//! - **A refusal Gemini recognized as its sandbox's**, which the user then
//!   declined (`status: "error"`): `response.error` is the request Gemini
//!   showed, JSON whose `type` is `sandbox_expansion`. That text is Gemini's
//!   own (`ToolErrorType.SANDBOX_EXPANSION_REQUIRED`'s message), which no
//!   command's output reaches: it is the hook's `sandbox_expansion_required`
//!   mark, carried as the failure's code. The command's own output is not
//!   in the chat (`resultDisplay` holds the request again in the recorded
//!   interactive run), so the failure's text is `resultDisplay` only when it
//!   is other text, else empty.
//!
//! **The wrapper's noise.** With `security.toolSandboxing` on, every command
//! ends with the line the wrapper's exit trap writes
//! (`/usr/bin/bash: line 1: /tmp/gemini-shell-XXXXXX/bgpids.tmp: No such file or directory`);
//! it is removed, only as the output's last line and in exactly that form,
//! before any family reads the output, as the hook removes it.

use advisor_core::gemini_shell::without_noise;
use advisor_core::{Failure, Outcome, Success};
use serde_json::Value;
use serde_json::value::RawValue;

use super::shapes::{Request, Span};
use crate::model::Ending;
use crate::source::json::{each, or_default};

/// Gemini's mark on a refusal it recognized, as the hook carries it.
pub const MARKER: &str = "sandbox_expansion_required";
/// `type` of the request a marked refusal records as its `error`.
const REQUEST: &str = "sandbox_expansion";
const FRAME_OPEN: &str = "<untrusted_context>\n";
const FRAME_CLOSE: &str = "\n</untrusted_context>";
const OUTPUT: &str = "Output: ";
const EMPTY: &str = "(empty)";
const EXIT_CODE: &str = "Exit Code: ";
/// The sections Gemini may put after the exit code, last first.
const AFTER_EXIT: [&str; 3] = ["Process Group PGID: ", "Background PIDs: ", "Signal: "];
/// How a failure's message begins when the exit code is known (the hook's
/// `EXIT_LINE`).
const EXIT_LINE: &str = "Exit code ";

/// A shell command's recorded `output`, as the hook reads its
/// `llmContent`: how it ended, and the outcome the families read.
pub(super) fn output(text: &str) -> (Ending, Outcome) {
    let success = |content: String| {
        (
            Ending::Succeeded,
            Outcome::Success(Success {
                value: Value::Null,
                content,
            }),
        )
    };
    let Some(body) = text
        .strip_prefix(FRAME_OPEN)
        .and_then(|b| b.strip_suffix(FRAME_CLOSE))
    else {
        return success(text.to_owned());
    };
    let mut rest = body;
    for section in AFTER_EXIT {
        if let Some((head, last)) = rest.rsplit_once('\n') {
            if last.starts_with(section) {
                rest = head;
            }
        }
    }
    let mut exit: Option<i64> = None;
    if let Some((head, last)) = rest.rsplit_once('\n') {
        if let Some(code) = last.strip_prefix(EXIT_CODE).and_then(|c| c.parse().ok()) {
            exit = Some(code);
            rest = head;
        }
    }
    let Some(out) = rest.strip_prefix(OUTPUT) else {
        return success(text.to_owned());
    };
    let out = if out == EMPTY { "" } else { out };
    let clean = without_noise(out);
    let Some(code) = exit else {
        return success(clean.to_owned());
    };
    let rendered = if clean.len() == out.len() {
        text.to_owned()
    } else {
        let at = FRAME_OPEN.len() + OUTPUT.len();
        format!("{}{}", &text[..at + clean.len()], &text[at + out.len()..])
    };
    let message = if clean.is_empty() {
        format!("{EXIT_LINE}{code}")
    } else {
        format!("{EXIT_LINE}{code}\n{clean}")
    };
    (
        Ending::Failed,
        Outcome::Failure(Failure {
            message,
            members: Vec::new(),
            content: rendered,
            code: None,
        }),
    )
}

/// True when a call's recorded `error` is the request Gemini made of a
/// refusal it recognized (JSON whose `type` is `sandbox_expansion`); read
/// in place, nothing built but its `type`.
pub(super) fn is_marked(error: &str) -> bool {
    if !error.starts_with('{') {
        return false;
    }
    let raw: Option<&RawValue> = serde_json::from_str(error).ok();
    or_default::<Request<'_>>(raw).kind.as_deref() == Some(REQUEST)
}

/// A marked refusal: a failure whose code is [`MARKER`], its text the
/// recorded display when that is not the request again.
pub(super) fn marked(error: &str, display: Option<&RawValue>) -> Outcome {
    let shown = display_text(display);
    let output = if shown == error {
        String::new()
    } else {
        without_noise(&shown).to_owned()
    };
    Outcome::Failure(Failure {
        message: output.clone(),
        members: Vec::new(),
        content: output,
        code: Some(MARKER.to_owned()),
    })
}

/// Any other recorded `error`: a failure whose text is the error.
pub(super) fn error(text: &str) -> Outcome {
    Outcome::Failure(Failure {
        message: text.to_owned(),
        members: Vec::new(),
        content: text.to_owned(),
        code: None,
    })
}

/// `resultDisplay` as text: a string as it is, or terminal lines of spans
/// joined (each line's padding removed, trailing blank lines dropped),
/// walked one line and one span at a time.
fn display_text(raw: Option<&RawValue>) -> String {
    let Some(raw) = raw else {
        return String::new();
    };
    if raw.get().starts_with('"') {
        return serde_json::from_str(raw.get()).unwrap_or_default();
    }
    let mut text = String::new();
    // The end of the last line that is not blank.
    let mut kept = 0;
    let mut first = true;
    each(raw, |line| {
        if !first {
            text.push('\n');
        }
        first = false;
        let start = text.len();
        each(line, |span| {
            if let Some(t) = or_default::<Span<'_>>(Some(span)).text {
                text.push_str(&t);
            }
        });
        let end = start + text[start..].trim_end().len();
        text.truncate(end);
        if end > start {
            kept = end;
        }
    });
    text.truncate(kept);
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOISE: &str =
        "/usr/bin/bash: line 1: /tmp/gemini-shell-Ezzgt2/bgpids.tmp: No such file or directory";

    #[test]
    fn outputs_are_read_as_the_hook_reads_them() {
        let framed = |body: &str| format!("{FRAME_OPEN}{body}{FRAME_CLOSE}");
        let ok = |t: &str| (Ending::Succeeded, t.to_owned());
        let cases: &[(String, (Ending, String))] = &[
            (
                framed(&format!("Output: hello\n{NOISE}\nProcess Group PGID: 1")),
                ok("hello"),
            ),
            (framed("Output: (empty)\nProcess Group PGID: 1"), ok("")),
            // Not the wrapper's line (a relative shell): kept.
            (
                framed(
                    "Output: bash: line 1: /tmp/gemini-shell-Ezzgt2/bgpids.tmp: No such file or directory",
                ),
                ok("bash: line 1: /tmp/gemini-shell-Ezzgt2/bgpids.tmp: No such file or directory"),
            ),
            (
                framed(&format!(
                    "Output: no\n{NOISE}\nExit Code: 2\nProcess Group PGID: 1"
                )),
                (Ending::Failed, "Exit code 2\nno".to_owned()),
            ),
            (
                framed("Output: (empty)\nExit Code: 1"),
                (Ending::Failed, "Exit code 1".to_owned()),
            ),
            // Unframed text is opaque: a success whose text is the whole.
            ("Exit Code: 3".to_owned(), ok("Exit Code: 3")),
        ];
        for (text, want) in cases {
            let (ending, outcome) = output(text);
            let got = match outcome {
                Outcome::Success(s) => s.content,
                Outcome::Failure(f) => f.message,
            };
            assert_eq!((ending, got), want.clone(), "{text:?}");
        }
    }

    #[test]
    fn only_gemini_s_request_is_the_mark() {
        assert!(is_marked(r#"{"type":"sandbox_expansion","command":"x"}"#));
        for not in [
            r#"{"type":"sandbox_expansion_required"}"#,
            r#"{"title":"sandbox_expansion"}"#,
            r#"["sandbox_expansion"]"#,
            "sandbox_expansion",
            "{not json",
            "",
        ] {
            assert!(!is_marked(not), "{not}");
        }
    }

    #[test]
    fn a_display_of_lines_is_joined_without_padding_or_noise() {
        let raw = |t: &str| RawValue::from_string(t.to_owned()).unwrap_or_else(|e| panic!("{e}"));
        let lines = raw(&format!(
            r#"[[{{"text":"a  "}},{{"text":"b   "}}],[{{"text":"{NOISE}   "}}],[{{"text":" "}},{{"text":"  "}}]]"#
        ));
        let Outcome::Failure(f) = marked("{}", Some(&lines)) else {
            panic!("not a failure")
        };
        assert_eq!(
            (f.content.as_str(), f.code.as_deref()),
            ("a  b", Some(MARKER))
        );
        let same = raw(r#""{\"type\":\"sandbox_expansion\"}""#);
        let Outcome::Failure(f) = marked(r#"{"type":"sandbox_expansion"}"#, Some(&same)) else {
            panic!("not a failure")
        };
        assert_eq!(f.content, "");
    }
}
