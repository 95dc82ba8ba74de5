//! The loop shared by `replay` and `serve`: read a line, decide, write, next.

use std::io::{self, BufRead};

use crate::engine::{Engine, Handled};
use crate::lines::{Line, LineReader};
use crate::protocol::{family_ids, parse_line};
use crate::render::{Sink, Tally};

/// Runs every line of `input` through `engine`, writing each result to `sink` as
/// soon as it is decided. A bad line becomes an error result and the loop goes on;
/// only an I/O error on the input or the output stops it.
pub fn run<R: BufRead>(
    engine: &mut Engine,
    runtime: &tokio::runtime::Runtime,
    input: R,
    max_line_bytes: usize,
    sink: &mut dyn Sink,
) -> io::Result<Tally> {
    let mut reader = LineReader::new(input, max_line_bytes);
    let mut tally = Tally::default();
    let mut seq: u64 = 0;
    while let Some(line) = reader.next_line()? {
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
        match handled {
            Ok(Handled::Recorded) => tally.events += 1,
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
                sink.hello(seq, families)?;
            }
            Ok(Handled::Decision(decision)) => {
                tally.events += 1;
                tally.count(&decision);
                sink.decision(seq, &decision)?;
            }
            Err(error) => {
                tally.invalid += 1;
                tracing::warn!(target: "sandbox_advisor::protocol", seq, "invalid line: {error}");
                sink.error(seq, &error)?;
            }
        }
    }
    sink.finish(&tally)?;
    Ok(tally)
}
