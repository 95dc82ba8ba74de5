//! Untrusted text in prose: a quote block for evidence, a code span for a mention.

use std::fmt::{self, Write as _};

use super::class::{escape, needs_escape};

/// The most characters of untrusted text a quote block shows.
pub const QUOTE_MAX_CHARS: usize = 400;

/// The most lines a quote block shows.
pub const QUOTE_MAX_LINES: usize = 8;

/// The most characters of untrusted text an inline mention shows.
pub const INLINE_MAX_CHARS: usize = 160;

/// Evidence on its own lines, each starting `> `.
///
/// Line breaks (`\n`, `\r\n`) start a new `> ` line; every other character
/// that is not visible, and every backtick, is written as `\u{…}`; the text is
/// capped at [`QUOTE_MAX_CHARS`] characters and [`QUOTE_MAX_LINES`] lines, with
/// `…` where it was cut. No trailing newline.
#[derive(Debug, Clone, Copy)]
pub struct QuoteBlock<'a> {
    text: &'a str,
    cut: bool,
}

impl<'a> QuoteBlock<'a> {
    pub(super) fn new(text: &'a str, cut: bool) -> Self {
        Self { text, cut }
    }
}

impl fmt::Display for QuoteBlock<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut shown = 0usize;
        let mut truncated = self.cut;
        let mut bare = false;
        let body = self.text.strip_suffix('\n').unwrap_or(self.text);
        let body = body.strip_suffix('\r').unwrap_or(body);
        for (n, line) in body.split('\n').enumerate() {
            if n == QUOTE_MAX_LINES || shown >= QUOTE_MAX_CHARS {
                truncated = true;
                break;
            }
            if n > 0 {
                f.write_char('\n')?;
            }
            let line = line.strip_suffix('\r').unwrap_or(line);
            f.write_char('>')?;
            bare = line.is_empty();
            if !bare {
                f.write_char(' ')?;
            }
            for c in line.chars() {
                if shown == QUOTE_MAX_CHARS {
                    truncated = true;
                    break;
                }
                write_char(f, c)?;
                shown += 1;
            }
        }
        if truncated {
            f.write_str(if bare { " …" } else { "…" })?;
        }
        Ok(())
    }
}

/// A mention inside a sentence: a code span (`` `…` ``) on one line.
///
/// Line breaks, every other invisible character and every backtick are written
/// as `\u{…}`, so nothing inside can end the span or the line; capped at
/// [`INLINE_MAX_CHARS`] with `…`. Empty text reads `(empty)`.
#[derive(Debug, Clone, Copy)]
pub struct Inline<'a> {
    text: &'a str,
    cut: bool,
}

impl<'a> Inline<'a> {
    pub(super) fn new(text: &'a str, cut: bool) -> Self {
        Self { text, cut }
    }
}

impl fmt::Display for Inline<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.text.is_empty() {
            return f.write_str("(empty)");
        }
        f.write_char('`')?;
        let mut truncated = self.cut;
        for (n, c) in self.text.chars().enumerate() {
            if n == INLINE_MAX_CHARS {
                truncated = true;
                break;
            }
            write_char(f, c)?;
        }
        if truncated {
            f.write_char('…')?;
        }
        f.write_char('`')
    }
}

fn write_char(f: &mut fmt::Formatter<'_>, c: char) -> fmt::Result {
    if needs_escape(c) {
        escape(f, c)
    } else {
        f.write_char(c)
    }
}

#[cfg(test)]
mod tests {
    use crate::quote::Untrusted;

    #[test]
    fn quote_blocks_keep_every_line_framed() {
        let u = Untrusted::new("first\r\nsecond `x`\u{200B}\n\nlast\u{1b}[31m");
        assert_eq!(
            u.quote_block().to_string(),
            "> first\n> second \\u{60}x\\u{60}\\u{200B}\n>\n> last\\u{1B}[31m"
        );
    }

    #[test]
    fn quote_blocks_are_capped() {
        let long = Untrusted::new(&"a\n".repeat(50));
        let shown = long.quote_block().to_string();
        assert_eq!(shown.lines().count(), super::QUOTE_MAX_LINES);
        assert!(shown.ends_with('…'));
        let blank = Untrusted::new(&"\n".repeat(20)).quote_block().to_string();
        assert_eq!(blank, ">\n".repeat(super::QUOTE_MAX_LINES - 1) + "> …");
        let wide = Untrusted::new(&"b".repeat(10_000))
            .quote_block()
            .to_string();
        assert_eq!(wide.chars().count(), 2 + super::QUOTE_MAX_CHARS + 1);
    }

    #[test]
    fn inline_mentions_cannot_close_their_span() {
        let u = Untrusted::new("D:\\ws` (verified harmless)\nrun `rm`");
        assert_eq!(
            u.inline().to_string(),
            "`D:\\ws\\u{60} (verified harmless)\\u{A}run \\u{60}rm\\u{60}`"
        );
        assert_eq!(Untrusted::new("").inline().to_string(), "(empty)");
        let long = Untrusted::new(&"c".repeat(1000)).inline().to_string();
        assert_eq!(long.chars().count(), super::INLINE_MAX_CHARS + 3);
    }
}
