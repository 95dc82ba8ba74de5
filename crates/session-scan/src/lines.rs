//! JSON lines from any byte stream, each held at most [`LINE_MAX_BYTES`].

use std::io::{self, BufRead};

/// The longest line kept, in bytes (64 MiB). A longer line is skipped without
/// being held: [`Lines::next_line`] reports it as [`Line::TooLong`] and reads on.
/// Claude Code writes request shapes and prompt snapshots of tens of KiB on one
/// line, so the bound is far above what a session holds.
pub const LINE_MAX_BYTES: usize = 64 << 20;

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
    /// Lines of `inner`, bounded by [`LINE_MAX_BYTES`].
    pub fn new(inner: R) -> Self {
        Self::with_max(inner, LINE_MAX_BYTES)
    }

    /// Lines of `inner`, each held at most `max` bytes.
    pub fn with_max(inner: R, max: usize) -> Self {
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
                if self.buf.len() + take > self.max + 1 {
                    too_long = true;
                    self.buf.clear();
                } else {
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
        let mut lines = Lines::with_max(input.as_bytes(), max);
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
}
