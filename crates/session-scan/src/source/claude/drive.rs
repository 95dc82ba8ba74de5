//! What the Claude Code, Codex and Gemini CLI readers share: one JSON record
//! per line, read through the bounded [`Lines`], problems named in the
//! scanner's words, and the platform a working directory implies.

use std::io::{BufReader, Read};
use std::path::Path;

use serde::de::IgnoredAny;

use crate::budget::{Budget, Pass, bytes_text};
use crate::lines::{Line, Lines};
use crate::model::{Problem, Sink};

/// A reader of one JSON record per line (this one, Codex's and Gemini CLI's).
pub(in crate::source) trait LineReader {
    /// Where records go.
    fn sink(&mut self) -> &mut dyn Sink;
    /// Reads line `number` (1-based); an error is a problem with it, in the
    /// scanner's words.
    fn line(&mut self, number: u64, text: &[u8]) -> Result<(), String>;
    /// A line could not be read at all (too long, or not JSON).
    fn skipped(&mut self) {}
}

/// Hands every line of `input` to `reader`, naming each line it cannot read
/// as a problem and reading on; counts the decoded bytes, and stops at the
/// budget's (naming that too).
pub(in crate::source) fn drive(
    path: &Path,
    input: &mut dyn Read,
    reader: &mut dyn LineReader,
    budget: &Budget,
) {
    let metered = budget.meter(input, Pass::Charged);
    let mut lines = Lines::new(
        BufReader::with_capacity(1 << 16, metered),
        budget.limits().line_bytes,
    );
    let mut reported = 0u64;
    loop {
        // The number the line read next gets.
        let number = lines.number() + 1;
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
                Some(too_long(budget))
            }
            // The budget ran out inside this line: it is cut short by the
            // budget, not the file; the problem at the end says so.
            Line::Text(_) if budget.exhausted() => None,
            Line::Text(text) => {
                let result = reader.line(number, text);
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
    if budget.exhausted() {
        reader.sink().problem(Problem {
            path: path.to_owned(),
            line: None,
            what: budget.exhausted_what("file"),
            stopped: true,
        });
    }
    reader.sink().decoded(lines.bytes() - reported);
}

/// The text of a problem with a line longer than the budget's line bound.
pub(in crate::source) fn too_long(budget: &Budget) -> String {
    format!(
        "a line longer than {}; skipped",
        bytes_text(budget.limits().line_bytes as u64)
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
