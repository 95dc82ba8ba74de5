//! The loop shared by `replay` and `serve`: read a line, decide, write, next.

use std::io::{self, BufRead};

use advisor_core::quote::log_field;

use crate::engine::{Engine, Handled};
use crate::lines::{self, Line, LineReader, Utf16};
use crate::protocol::{family_ids, parse_line};
use crate::render::{Sink, Tally};
use crate::withheld::{self, SessionNotes, Told};

/// What to do when the reader of the output goes away (`| head`, a harness that exited).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WhenClosed {
    /// Stop reading and end the run (`serve`: nobody is left to answer).
    Stop,
    /// Stop writing but read and decide the rest of the input, so the tally,
    /// and the exit code made from it, do not depend on when the reader left (`replay`).
    Drain,
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ran {
    /// What the lines amounted to (all of them, unless the run stopped early).
    pub tally: Tally,
    /// True when the output was closed before the run ended.
    pub output_closed: bool,
}

/// An I/O error that stopped a run.
#[derive(Debug, thiserror::Error)]
pub enum StreamError {
    /// The input could not be read.
    #[error("{0}")]
    Read(io::Error),
    /// The input is UTF-16, which the protocol is not; nothing was decided or written.
    #[error(
        "it is {0}; the protocol is UTF-8 — convert it first (e.g. `iconv -f UTF-16 -t UTF-8`)"
    )]
    Utf16(Utf16),
    /// The output could not be written, for another reason than its reader leaving.
    #[error("cannot write the output: {0}")]
    Write(io::Error),
}

/// The output side of a run: a sink that may have been closed by its reader.
struct Output<'a> {
    sink: &'a mut dyn Sink,
    closed: bool,
    when_closed: WhenClosed,
}

impl Output<'_> {
    /// Writes through `sink` unless its reader has gone; `Ok(false)` means stop.
    fn put(
        &mut self,
        write: impl FnOnce(&mut dyn Sink) -> io::Result<()>,
    ) -> Result<bool, StreamError> {
        if self.closed {
            return Ok(true);
        }
        match write(&mut *self.sink) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                self.closed = true;
                tracing::debug!(target: "sandbox_advisor::protocol", "the output was closed by its reader");
                Ok(self.when_closed == WhenClosed::Drain)
            }
            Err(e) => Err(StreamError::Write(e)),
        }
    }
}

/// Runs every line of `input` through `engine`, writing each result to `sink` as
/// soon as it is decided. A bad line becomes an error result and the loop goes on;
/// an I/O error on the input, or on the output other than its closing, stops it.
/// A closed output stops the run or is drained, as `when_closed` says.
/// A UTF-8 byte-order mark at the start of `input` is skipped; UTF-16 input
/// is refused before anything is written.
pub fn run<R: BufRead>(
    engine: &mut Engine,
    runtime: &tokio::runtime::Runtime,
    input: R,
    max_line_bytes: usize,
    sink: &mut dyn Sink,
    when_closed: WhenClosed,
) -> Result<Ran, StreamError> {
    let input = match lines::sniff(input).map_err(StreamError::Read)? {
        Ok(input) => input,
        Err(utf16) => return Err(StreamError::Utf16(utf16)),
    };
    let mut out = Output {
        sink,
        closed: false,
        when_closed,
    };
    let mut reader = LineReader::new(input, max_line_bytes);
    let mut tally = Tally::default();
    let mut notes = SessionNotes::default();
    let mut seq: u64 = 0;
    let ended = |tally: Tally, out: &Output<'_>| Ran {
        tally,
        output_closed: out.closed,
    };
    if !out.put(|s| s.start())? {
        return Ok(ended(tally, &out));
    }
    while let Some(line) = reader.next_line().map_err(StreamError::Read)? {
        seq += 1;
        let parsed = match line {
            Line::TooLong { bytes } => Err(format!(
                "the line is {bytes} bytes, over the limit of {max_line_bytes} bytes \
                 (--max-line-bytes); it was skipped unread"
            )),
            Line::Text(text) if text.iter().all(u8::is_ascii_whitespace) => continue,
            Line::Text(text) => parse_line(text),
        };
        let handled = match parsed {
            Ok(event) => runtime.block_on(engine.handle(event)),
            Err(e) => Err(e),
        };
        let going_on = match handled {
            Ok(Handled::Recorded) => {
                tally.events += 1;
                true
            }
            Ok(Handled::Hello) => {
                tally.events += 1;
                let families = family_ids(
                    engine
                        .adapter()
                        .advisor()
                        .registry()
                        .families()
                        .map(|f| f.id()),
                );
                out.put(|s| s.hello(seq, families))?
            }
            Ok(Handled::Decision(decision)) => {
                tally.events += 1;
                tally.count(&decision);
                let told: Vec<Told> = decision
                    .withheld
                    .iter()
                    .map(|w| {
                        let told = notes.note(seq, decision.session.as_ref(), w);
                        withheld::log(decision.session.as_ref(), decision.agent.as_ref(), w, told);
                        told
                    })
                    .collect();
                out.put(|s| s.decision(seq, &decision, &told))?
            }
            Err(error) => {
                tally.invalid += 1;
                tracing::warn!(target: "sandbox_advisor::protocol", seq, error = %log_field(&error), "invalid line");
                out.put(|s| s.error(seq, &error))?
            }
        };
        if !going_on {
            return Ok(ended(tally, &out));
        }
    }
    out.put(|s| s.finish(&tally))?;
    Ok(ended(tally, &out))
}
