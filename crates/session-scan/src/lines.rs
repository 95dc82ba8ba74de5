//! JSON lines from any byte stream, each held at most a bound
//! ([`crate::budget::Limits::line_bytes`]).

use std::io::{self, BufRead};

/// One line read.
#[derive(Debug, PartialEq, Eq)]
pub enum Line<'a> {
    /// A line (without its `\n`, and without a `\r` before it).
    Text(&'a [u8]),
    /// A line longer than the bound; its bytes were skipped.
    TooLong,
}

/// Reads lines, counting them (1-based) and the decoded bytes.
pub struct Lines<R> {
    inner: R,
    buf: Vec<u8>,
    number: u64,
    bytes: u64,
    max: usize,
}

impl<R: BufRead> Lines<R> {
    /// Lines of `inner`, each held at most `max` bytes; a longer one is
    /// skipped without being held: [`Lines::next_line`] reports it as
    /// [`Line::TooLong`] and reads on.
    pub fn new(inner: R, max: usize) -> Self {
        Self {
            inner,
            buf: Vec::new(),
            number: 0,
            bytes: 0,
            max,
        }
    }

    /// The 1-based number of the line last returned.
    pub fn number(&self) -> u64 {
        self.number
    }

    /// The bytes read so far.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The next line, `None` at the end. A last line without `\n` is a line
    /// (a torn tail is the caller's judgement: see [`Lines::ended_cleanly`]).
    pub fn next_line(&mut self) -> io::Result<Option<Line<'_>>> {
        self.read_line(self.max, true)
    }

    /// The next line if it is at most `max` bytes; a longer one is
    /// [`Line::TooLong`] as soon as `max` is passed, and the rest of it is
    /// left unread (for a header: a file whose first line is that long is
    /// not read further).
    pub fn next_line_within(&mut self, max: usize) -> io::Result<Option<Line<'_>>> {
        self.read_line(max.min(self.max), false)
    }

    fn read_line(&mut self, max: usize, skip_rest: bool) -> io::Result<Option<Line<'_>>> {
        self.buf.clear();
        let mut too_long = false;
        let mut any = false;
        loop {
            let chunk = self.inner.fill_buf()?;
            if chunk.is_empty() {
                break;
            }
            any = true;
            let (take, done) = match memchr::memchr(b'\n', chunk) {
                Some(i) => (i + 1, true),
                None => (chunk.len(), false),
            };
            if !too_long {
                if self.buf.len() + take > max + 1 {
                    too_long = true;
                    self.buf.clear();
                    if !skip_rest {
                        break;
                    }
                } else {
                    // Grow by doubling, but never past the bound (a line of
                    // just over half the bound must not reserve twice it).
                    let need = self.buf.len() + take;
                    if need > self.buf.capacity() {
                        let want = (self.buf.capacity() * 2).clamp(need, max + 1);
                        self.buf.reserve_exact(want - self.buf.len());
                    }
                    self.buf.extend_from_slice(&chunk[..take]);
                }
            }
            self.bytes += take as u64;
            self.inner.consume(take);
            if done {
                break;
            }
        }
        if !any {
            return Ok(None);
        }
        self.number += 1;
        if too_long {
            return Ok(Some(Line::TooLong));
        }
        let mut line = &self.buf[..];
        if let Some(rest) = line.strip_suffix(b"\n") {
            line = rest;
        }
        if let Some(rest) = line.strip_suffix(b"\r") {
            line = rest;
        }
        Ok(Some(Line::Text(line)))
    }

    /// True when the last line read ended with `\n` (or nothing was read).
    pub fn ended_cleanly(&self) -> bool {
        self.buf.is_empty() || self.buf.ends_with(b"\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(input: &str, max: usize, want: &[Option<&str>]) {
        let mut lines = Lines::new(input.as_bytes(), max);
        let mut got = Vec::new();
        while let Some(line) = lines.next_line().unwrap() {
            got.push(match line {
                Line::Text(t) => Some(String::from_utf8(t.to_vec()).unwrap()),
                Line::TooLong => None,
            });
        }
        let want: Vec<Option<String>> = want.iter().map(|w| w.map(str::to_owned)).collect();
        assert_eq!(got, want, "input {input:?}");
        assert_eq!(lines.bytes(), input.len() as u64);
    }

    #[test]
    fn lines_are_split_bounded_and_counted() {
        check("a\nbb\r\n", 8, &[Some("a"), Some("bb")]);
        check("a\ntoolong\nc", 4, &[Some("a"), None, Some("c")]);
        check("", 4, &[]);
        check("\n\n", 4, &[Some(""), Some("")]);
        check("abcd\n", 4, &[Some("abcd")]);
        check("abcde\n", 4, &[None]);
    }

    #[test]
    fn a_header_read_stops_at_its_bound() {
        let text = format!("{}\nnext\n", "x".repeat(100));
        let mut lines = Lines::new(text.as_bytes(), 1 << 20);
        assert_eq!(lines.next_line_within(10).unwrap(), Some(Line::TooLong));
        assert!(
            lines.bytes() <= 11,
            "read {} bytes of a refused header",
            lines.bytes()
        );
        let mut lines = Lines::new(&b"short\nnext\n"[..], 1 << 20);
        assert_eq!(
            lines.next_line_within(10).unwrap(),
            Some(Line::Text(b"short"))
        );
        assert_eq!(lines.next_line().unwrap(), Some(Line::Text(b"next")));
    }
}
