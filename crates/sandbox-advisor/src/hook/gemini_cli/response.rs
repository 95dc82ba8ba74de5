//! `tool_response` of Gemini CLI's `run_shell_command`, as Gemini renders it.
//!
//! Recorded (`docs/hooks/gemini-cli/`), two shapes:
//!
//! - **A result**: `llmContent` is `<untrusted_context>\n`, then `Output: ` and
//!   the command's combined output (`(empty)` for none), then, each on a line
//!   of its own and only when there is one, `Error: `, `Exit Code: N` (non-zero
//!   only), `Signal: `, `Background PIDs: ` and `Process Group PGID: N`, then
//!   `\n</untrusted_context>`. `returnDisplay` is what the user's terminal shows.
//! - **A refusal Gemini recognized as its sandbox's**: `llmContent` is
//!   `Sandbox expansion required`, `error.type` is
//!   `sandbox_expansion_required` (its `message` a JSON request for more
//!   permissions), and the output is only in `returnDisplay`: a string in a
//!   headless run, a list of terminal lines of styled spans in the
//!   interactive one. No exit code is given.
//!
//! The sections are read from the end, in Gemini's order, so a command's own
//! output cannot add one after Gemini's; a command's output that ends with a
//! line such as `Exit Code: 3` while it exited 0 reads as that exit code (the
//! text alone cannot tell). The marker sits in a field of its own that no
//! output reaches.
//!
//! **The wrapper's noise.** With `security.toolSandboxing` on, every command
//! ends with one more line that the wrapper's exit trap writes when bwrap's
//! fresh `/tmp` hides its temp file:
//! `/usr/bin/bash: line 1: /tmp/gemini-shell-XXXXXX/bgpids.tmp: No such file or directory`.
//! It is removed (only as the output's last line, in exactly that form)
//! before any family reads the output, so a success carrying it is a success.

use advisor_core::gemini_shell::without_noise;
use advisor_core::{Failure, Outcome, Success};
use serde_json::Value;
use serde_json::value::RawValue;

use crate::hook::dialect::ClientMarker;
use crate::hook::payload::Malformed;

/// What opens Gemini's frame around a result.
pub const FRAME_OPEN: &str = "<untrusted_context>\n";
/// What closes it.
pub const FRAME_CLOSE: &str = "\n</untrusted_context>";
/// The first section: the command's output.
pub const OUTPUT: &str = "Output: ";
/// The output of a command that printed nothing.
pub const EMPTY: &str = "(empty)";
/// The section with a non-zero exit code.
pub const EXIT_CODE: &str = "Exit Code: ";
/// The sections Gemini may put after the exit code, last first.
const AFTER_EXIT: [&str; 3] = ["Process Group PGID: ", "Background PIDs: ", "Signal: "];
/// `error.type` of a refusal Gemini recognized.
pub const EXPANSION: &str = "sandbox_expansion_required";
/// How a failure's message begins when the exit code is known: the neutral
/// form of a failed shell command (Claude Code's `error` reads the same), so
/// the families read one form.
pub const EXIT_LINE: &str = "Exit code ";

/// The longest refusal text, in characters.
const MALFORMED_MAX_CHARS: usize = 300;

/// One `tool_response`, read.
#[derive(Debug, Clone, PartialEq)]
pub struct Response {
    /// The command's output, the wrapper's noise removed.
    pub output: String,
    /// Gemini's exit code, when it gave one (non-zero only).
    pub exit: Option<i64>,
    /// Gemini's own mark, when it set one.
    pub marker: Option<ClientMarker>,
    /// The text Gemini gave the model (`llmContent`), the noise removed.
    pub rendered: String,
}

impl Response {
    /// The outcome the families read: a failure when Gemini marked it or gave
    /// an exit code (its message `Exit code N`, a newline and the output when
    /// the code is known; the output alone under the marker, with the marker as
    /// the failure's code), else a success whose text is the output.
    pub fn outcome(&self) -> Outcome {
        if let Some(marker) = self.marker {
            return Outcome::Failure(Failure {
                message: self.output.clone(),
                members: Vec::new(),
                content: self.output.clone(),
                code: Some(marker.as_str().to_owned()),
            });
        }
        match self.exit {
            Some(code) => {
                let message = if self.output.is_empty() {
                    format!("{EXIT_LINE}{code}")
                } else {
                    format!("{EXIT_LINE}{code}\n{}", self.output)
                };
                Outcome::Failure(Failure {
                    message,
                    members: Vec::new(),
                    content: self.rendered.clone(),
                    code: None,
                })
            }
            None => Outcome::Success(Success {
                value: Value::Null,
                content: self.output.clone(),
            }),
        }
    }
}

#[derive(serde::Deserialize)]
struct Raw<'a> {
    #[serde(borrow, default, rename = "llmContent")]
    llm_content: Option<&'a RawValue>,
    #[serde(borrow, default, rename = "returnDisplay")]
    return_display: Option<&'a RawValue>,
    #[serde(borrow, default)]
    error: Option<&'a RawValue>,
}

#[derive(serde::Deserialize)]
struct RawError {
    #[serde(default, rename = "type")]
    kind: Option<String>,
}

/// One styled span of a terminal line (the interactive `returnDisplay`).
#[derive(serde::Deserialize)]
struct Span {
    #[serde(default)]
    text: String,
}

/// Reads `tool_response` (an object) of `run_shell_command`.
pub fn read(raw: &RawValue) -> Result<Response, Malformed> {
    let field =
        |name: &str, e: serde_json::Error| malformed(format!("field `tool_response.{name}`: {e}"));
    let fields: Raw<'_> = serde_json::from_str(raw.get())
        .map_err(|e| malformed(format!("field `tool_response`: {e}")))?;
    let marker = match fields.error.filter(|e| e.get() != "null") {
        Some(error) => {
            let error: RawError =
                serde_json::from_str(error.get()).map_err(|e| field("error", e))?;
            (error.kind.as_deref() == Some(EXPANSION))
                .then_some(ClientMarker::SandboxExpansionRequired)
        }
        None => None,
    };
    let llm: String = match fields.llm_content.filter(|c| c.get() != "null") {
        Some(content) => serde_json::from_str(content.get()).map_err(|e| field("llmContent", e))?,
        None => return Err(malformed("missing field `tool_response.llmContent`".into())),
    };
    if marker.is_some() {
        let output = match fields.return_display.filter(|d| d.get() != "null") {
            Some(display) => display_text(display).map_err(|e| field("returnDisplay", e))?,
            None => String::new(),
        };
        let output = without_noise(&output).to_owned();
        return Ok(Response {
            output,
            exit: None,
            marker,
            rendered: llm,
        });
    }
    Ok(sections(&llm))
}

/// One line of at most [`MALFORMED_MAX_CHARS`] characters (a serde error can quote a long value).
fn malformed(text: String) -> Malformed {
    let mut line: String = text.replace(['\n', '\r'], " ");
    if let Some((cut, _)) = line.char_indices().nth(MALFORMED_MAX_CHARS) {
        line.truncate(cut);
        line.push('…');
    }
    Malformed(line)
}

/// `returnDisplay` as text: a string as it is, or terminal lines of spans
/// joined (each line's padding removed, trailing blank lines dropped).
fn display_text(raw: &RawValue) -> Result<String, serde_json::Error> {
    if raw.get().starts_with('"') {
        return serde_json::from_str(raw.get());
    }
    let lines: Vec<Vec<Span>> = serde_json::from_str(raw.get())?;
    let mut text: Vec<String> = lines
        .iter()
        .map(|spans| {
            let line: String = spans.iter().map(|s| s.text.as_str()).collect();
            line.trim_end().to_owned()
        })
        .collect();
    while text.last().is_some_and(String::is_empty) {
        text.pop();
    }
    Ok(text.join("\n"))
}

/// Gemini's result text, read from the end; a text not in that form is
/// opaque (a success whose output is the whole text).
pub fn sections(llm: &str) -> Response {
    let opaque = || Response {
        output: llm.to_owned(),
        exit: None,
        marker: None,
        rendered: llm.to_owned(),
    };
    let Some(body) = llm
        .strip_prefix(FRAME_OPEN)
        .and_then(|b| b.strip_suffix(FRAME_CLOSE))
    else {
        return opaque();
    };
    let mut rest = body;
    for section in AFTER_EXIT {
        if let Some((head, last)) = rest.rsplit_once('\n') {
            if last.starts_with(section) {
                rest = head;
            }
        }
    }
    let mut exit = None;
    if let Some((head, last)) = rest.rsplit_once('\n') {
        if let Some(code) = last.strip_prefix(EXIT_CODE).and_then(|c| c.parse().ok()) {
            exit = Some(code);
            rest = head;
        }
    }
    let Some(output) = rest.strip_prefix(OUTPUT) else {
        return opaque();
    };
    let output = if output == EMPTY { "" } else { output };
    let clean = without_noise(output);
    let rendered = if clean.len() == output.len() {
        llm.to_owned()
    } else {
        // The same text with the noise line (and its newline) taken out.
        let at = FRAME_OPEN.len() + OUTPUT.len();
        format!("{}{}", &llm[..at + clean.len()], &llm[at + output.len()..])
    };
    Response {
        output: clean.to_owned(),
        exit,
        marker: None,
        rendered,
    }
}
