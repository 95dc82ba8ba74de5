//! A line reader whose memory is bounded by `--max-line-bytes`.
//!
//! Lines end at `\n`; a trailing `\r` is dropped (CRLF input), and a last line
//! without a terminator is still a line. A line longer than the limit is not
//! kept: the reader discards the rest of it as it streams past and reports its
//! length, so a 10 GB line costs one buffer, not 10 GB.

use std::io::{self, BufRead};

/// The default limit on one line: 64 MiB.
pub const DEFAULT_MAX_LINE_BYTES: usize = 64 * 1024 * 1024;

/// The buffer kept between lines; a longer line's allocation is released after it.
const RETAINED_CAPACITY: usize = 64 * 1024;

/// One line as read.
#[derive(Debug, PartialEq, Eq)]
pub enum Line<'a> {
    /// The line's bytes, without `\n` or a trailing `\r`.
    Text(&'a [u8]),
    /// The line exceeded the limit; this many bytes were discarded.
    TooLong {
        /// The line's length in bytes (without its terminator).
        bytes: u64,
    },
}

/// Reads lines of at most `max` bytes.
pub struct LineReader<R> {
    inner: R,
    max: usize,
    buf: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    /// A reader that keeps at most `max` bytes of one line.
    pub fn new(inner: R, max: usize) -> Self {
        Self {
            inner,
            max,
            buf: Vec::new(),
        }
    }

    /// The next line, or `None` at end of input.
    pub fn next_line(&mut self) -> io::Result<Option<Line<'_>>> {
        if self.buf.capacity() > RETAINED_CAPACITY {
            self.buf = Vec::new();
        }
        self.buf.clear();
        let mut len: u64 = 0;
        let mut overflow = false;
        let mut saw_any = false;
        let mut last = None;
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(chunk) => chunk,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                if !saw_any {
                    return Ok(None);
                }
                break;
            }
            saw_any = true;
            let (piece, done) = match memchr::memchr(b'\n', chunk) {
                Some(i) => (&chunk[..i], Some(i + 1)),
                None => (chunk, None),
            };
            len += piece.len() as u64;
            if let Some(&b) = piece.last() {
                last = Some(b);
            }
            if !overflow && len > self.max as u64 + 1 {
                // One byte of slack: a `\r` before the `\n` is not part of the line.
                overflow = true;
                self.buf = Vec::new();
            }
            if !overflow {
                self.buf.extend_from_slice(piece);
            }
            let consumed = done.unwrap_or(chunk.len());
            self.inner.consume(consumed);
            if done.is_some() {
                break;
            }
        }
        if last == Some(b'\r') {
            self.buf.pop();
            len -= 1;
        }
        if overflow || len > self.max as u64 {
            return Ok(Some(Line::TooLong { bytes: len }));
        }
        Ok(Some(Line::Text(&self.buf)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], max: usize) -> Vec<String> {
        let mut reader = LineReader::new(std::io::BufReader::with_capacity(4, input), max);
        let mut out = Vec::new();
        while let Some(line) = reader.next_line().unwrap() {
            out.push(match line {
                Line::Text(t) => String::from_utf8_lossy(t).into_owned(),
                Line::TooLong { bytes } => format!("<{bytes}>"),
            });
        }
        out
    }

    #[test]
    fn crlf_eof_without_newline_and_empty_lines() {
        assert_eq!(lines(b"a\r\nbc\n\nd", 10), ["a", "bc", "", "d"]);
        assert_eq!(lines(b"", 10), Vec::<String>::new());
        assert_eq!(lines(b"\n", 10), [""]);
        assert_eq!(lines(b"x\r", 10), ["x"]);
    }

    #[test]
    fn long_lines_are_measured_and_dropped_not_kept() {
        assert_eq!(
            lines(b"12345\r\n123456\nok\n1234567", 5),
            ["12345", "<6>", "ok", "<7>"]
        );
        assert_eq!(lines(b"123456\r\n", 5), ["<6>"]);
    }
}
