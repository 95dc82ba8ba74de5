//! A line reader whose memory is bounded by `--max-line-bytes`.
//!
//! Lines end at `\n`; a trailing `\r` is dropped (CRLF input), and a last line
//! without a terminator is still a line. A line longer than the limit is not
//! kept: the reader discards the rest of it as it streams past and reports its
//! length, so a 10 GB line costs one buffer, not 10 GB.
//!
//! [`sniff`] reads the stream's first bytes before any line: a UTF-8
//! byte-order mark is dropped, and UTF-16 is refused by name.

use std::fmt;
use std::io::{self, BufRead, Chain, Cursor};

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
        // Saturating: `--max-line-bytes 18446744073709551615` means "no limit", not "every line".
        let limit = u64::try_from(self.max).unwrap_or(u64::MAX);
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
            if !overflow && len > limit.saturating_add(1) {
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
        if overflow || len > limit {
            return Ok(Some(Line::TooLong { bytes: len }));
        }
        Ok(Some(Line::Text(&self.buf)))
    }
}

/// A stream in UTF-16, which the protocol (UTF-8) cannot read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Utf16 {
    /// Starts with the little-endian byte-order mark `FF FE`.
    LittleEndianBom,
    /// Starts with the big-endian byte-order mark `FE FF`.
    BigEndianBom,
    /// No mark, but its first character is ASCII followed by a NUL byte.
    LittleEndian,
    /// No mark, but its first byte is NUL and the second is not.
    BigEndian,
}

impl fmt::Display for Utf16 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Utf16::LittleEndianBom => "UTF-16 (little-endian, byte-order mark)",
            Utf16::BigEndianBom => "UTF-16 (big-endian, byte-order mark)",
            Utf16::LittleEndian => "UTF-16 (little-endian, no byte-order mark)",
            Utf16::BigEndian => "UTF-16 (big-endian, no byte-order mark)",
        })
    }
}

/// The UTF-8 byte-order mark, as Windows tools write it at the start of a file.
const UTF8_BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];

/// What [`sniff`] hands on: the first bytes it read, then the rest of the stream.
pub type Sniffed<R> = Chain<Cursor<Vec<u8>>, R>;

/// Reads the first two bytes of `input` (three when they may start a UTF-8
/// byte-order mark) and says whether it is UTF-16. Otherwise it returns the
/// stream to read lines from, without a leading UTF-8 byte-order mark. It
/// never waits for more than those bytes, so a sidecar's first line is
/// answered as soon as it arrives.
pub fn sniff<R: BufRead>(mut input: R) -> io::Result<Result<Sniffed<R>, Utf16>> {
    let mut head = Vec::with_capacity(UTF8_BOM.len());
    while head.len() < 2 || head == UTF8_BOM[..2] {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let Some(&byte) = chunk.first() else { break };
        head.push(byte);
        input.consume(1);
    }
    if let Some(utf16) = utf16(&head) {
        return Ok(Err(utf16));
    }
    Ok(Ok(io::Read::chain(
        Cursor::new(without_bom(&head).to_vec()),
        input,
    )))
}

/// Whether a text starting with `head` (its first two bytes are enough) is UTF-16.
pub fn utf16(head: &[u8]) -> Option<Utf16> {
    match head {
        [0xFF, 0xFE, ..] => Some(Utf16::LittleEndianBom),
        [0xFE, 0xFF, ..] => Some(Utf16::BigEndianBom),
        [first, 0, ..] if *first != 0 => Some(Utf16::LittleEndian),
        [0, second, ..] if *second != 0 => Some(Utf16::BigEndian),
        _ => None,
    }
}

/// `text` without the UTF-8 byte-order mark it may start with (one, at the start only).
pub fn without_bom(text: &[u8]) -> &[u8] {
    text.strip_prefix(&UTF8_BOM[..]).unwrap_or(text)
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

    fn sniffed(input: &[u8]) -> Result<Vec<u8>, Utf16> {
        let reader = std::io::BufReader::with_capacity(1, input);
        sniff(reader).unwrap().map(|mut rest| {
            let mut out = Vec::new();
            std::io::Read::read_to_end(&mut rest, &mut out).unwrap();
            out
        })
    }

    #[test]
    fn a_utf8_mark_is_dropped_and_utf16_is_named() {
        assert_eq!(sniffed(b"\xEF\xBB\xBF{}\n").unwrap(), b"{}\n");
        assert_eq!(sniffed(b"\xEF\xBB{}").unwrap(), b"\xEF\xBB{}");
        assert_eq!(sniffed(b"{}\n\xEF\xBB\xBF").unwrap(), b"{}\n\xEF\xBB\xBF");
        assert_eq!(sniffed(b"").unwrap(), b"");
        assert_eq!(sniffed(b"\n").unwrap(), b"\n");
        assert_eq!(sniffed(b"\xFF\xFE{\0"), Err(Utf16::LittleEndianBom));
        assert_eq!(sniffed(b"\xFE\xFF\0{"), Err(Utf16::BigEndianBom));
        assert_eq!(sniffed(b"{\0\"\0"), Err(Utf16::LittleEndian));
        assert_eq!(sniffed(b"\0{\0\""), Err(Utf16::BigEndian));
        assert_eq!(sniffed(b"\0\0\0{").unwrap(), b"\0\0\0{");
    }

    #[test]
    fn the_largest_limit_keeps_every_line() {
        assert_eq!(lines(b"12345\r\nok", usize::MAX), ["12345", "ok"]);
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
