//! What the Claude Code and Codex readers share: one JSON record per line,
//! read through the bounded [`Lines`], problems named in the scanner's words,
//! and the platform a working directory implies.

use std::io::BufRead;
use std::path::Path;

use serde::de::IgnoredAny;

use crate::lines::{Line, Lines};
use crate::model::{Problem, Sink};

/// A reader of one JSON record per line (this one and Codex's).
pub(in crate::source) trait LineReader {
    /// Where records go.
    fn sink(&mut self) -> &mut dyn Sink;
    /// Reads one line; an error is a problem with it, in the scanner's words.
    fn line(&mut self, text: &[u8]) -> Result<(), String>;
    /// A line could not be read at all (too long, or not JSON).
    fn skipped(&mut self) {}
}

/// Hands every line of `input` to `reader`, naming each line it cannot read
/// as a problem and reading on; counts the decoded bytes.
pub(in crate::source) fn drive(path: &Path, input: &mut dyn BufRead, reader: &mut dyn LineReader) {
    let mut lines = Lines::new(input);
    let mut reported = 0u64;
    loop {
        let line = match lines.next_line() {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(e) => {
                let what = format!("cannot read on after line {}: {e}", lines.number());
                reader.sink().problem(Problem {
                    path: path.to_owned(),
                    line: None,
                    what,
                    stopped: true,
                });
                break;
            }
        };
        let what = match line {
            Line::TooLong => {
                reader.skipped();
                Some(too_long())
            }
            Line::Text(text) => {
                let result = reader.line(text);
                let torn = result.is_err() && serde_json::from_slice::<IgnoredAny>(text).is_err();
                if torn {
                    reader.skipped();
                }
                result.err().map(|what| (what, torn)).map(|(what, torn)| {
                    if torn && !lines.ended_cleanly() {
                        cut_short()
                    } else {
                        what
                    }
                })
            }
        };
        if let Some(what) = what {
            reader.sink().problem(Problem {
                path: path.to_owned(),
                line: Some(lines.number()),
                what,
                stopped: false,
            });
        }
        if lines.bytes() - reported >= 1 << 20 {
            reader.sink().decoded(lines.bytes() - reported);
            reported = lines.bytes();
        }
    }
    reader.sink().decoded(lines.bytes() - reported);
}

/// The text of a problem with a line longer than [`crate::lines::LINE_MAX_BYTES`].
pub(in crate::source) fn too_long() -> String {
    format!(
        "a line longer than {} MiB; skipped",
        crate::lines::LINE_MAX_BYTES >> 20
    )
}

/// The text of a problem with a last line that is cut short.
pub(in crate::source) fn cut_short() -> String {
    "the last line is cut short (no newline, not whole JSON); skipped".into()
}

/// Why a line is not a record, in the scanner's words (never the line's text).
pub(in crate::source) fn not_json(e: &serde_json::Error) -> String {
    use serde_json::error::Category;
    let what = match e.classify() {
        Category::Io => "cannot be read",
        Category::Syntax => "not valid JSON",
        Category::Eof => "JSON that ends early",
        Category::Data => "JSON of an unexpected shape",
    };
    format!("{what} (column {}); skipped", e.column())
}
