//! Untrusted text on the host log (one logfmt value) or in a line of text
//! for a terminal or an error message (escaped, unquoted).

use std::fmt::{self, Write as _};

use super::class::{escape, is_visible};

/// The most characters of one log field or escaped text; the rest becomes `…`.
pub const LOG_FIELD_MAX_CHARS: usize = 256;

/// A value written as one field of a `tracing` event on the host log, in
/// logfmt's grammar, so that no value can add a field or start a line:
///
/// - bare when it is non-empty and every character is visible and none is a
///   space, `=` or `"` (a Windows path stays `D:\ws`);
/// - otherwise one double-quoted string whose only escapes are JSON's:
///   `\"`, `\\`, `\n`, `\r`, `\t`, and `\uXXXX` (UTF-16) for every other
///   invisible character (controls, ESC, bidi and zero-width characters).
///
/// Capped at [`LOG_FIELD_MAX_CHARS`] characters of the value, then `…`: a
/// logfmt reader gets back the value itself, or its first
/// [`LOG_FIELD_MAX_CHARS`] characters followed by `…`.
///
/// This is the one rendering of a field value the advisor did not write: a
/// `tracing` field recorded with `%` takes a [`LogField`], never the raw text.
#[derive(Debug, Clone, Copy)]
pub struct LogField<'a>(&'a str);

/// Renders any string as a [`LogField`].
pub fn log_field(raw: &str) -> LogField<'_> {
    LogField(raw)
}

/// True for a character a bare logfmt value may carry.
fn bare(c: char) -> bool {
    is_visible(c) && !matches!(c, ' ' | '=' | '"')
}

/// The value's characters within the cap, and whether it was cut.
fn capped(raw: &str) -> (&str, bool) {
    match raw.char_indices().nth(LOG_FIELD_MAX_CHARS) {
        Some((end, _)) => (&raw[..end], true),
        None => (raw, false),
    }
}

impl fmt::Display for LogField<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (text, cut) = capped(self.0);
        let ellipsis = if cut { "…" } else { "" };
        if !text.is_empty() && text.chars().all(bare) {
            return write!(f, "{text}{ellipsis}");
        }
        f.write_char('"')?;
        for c in text.chars() {
            match c {
                '"' => f.write_str("\\\"")?,
                '\\' => f.write_str("\\\\")?,
                '\n' => f.write_str("\\n")?,
                '\r' => f.write_str("\\r")?,
                '\t' => f.write_str("\\t")?,
                c if is_visible(c) => f.write_char(c)?,
                c => {
                    let mut units = [0u16; 2];
                    for unit in c.encode_utf16(&mut units) {
                        write!(f, "\\u{unit:04x}")?;
                    }
                }
            }
        }
        write!(f, "{ellipsis}\"")
    }
}

/// Text the advisor did not write, inside a line of text for a terminal or an
/// error message (never a log field: that is [`log_field`]): `\n`, `\r`, `\t`
/// and every other invisible character (ESC, bidi controls, …) as a visible
/// escape (`\u{1B}`), so it can neither start a forged line nor drive the
/// terminal; not quoted; capped at [`LOG_FIELD_MAX_CHARS`].
#[derive(Debug, Clone, Copy)]
pub struct Escaped<'a>(&'a str);

/// Renders any string as [`Escaped`] text.
pub fn escaped(raw: &str) -> Escaped<'_> {
    Escaped(raw)
}

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (text, cut) = capped(self.0);
        for c in text.chars() {
            match c {
                '\n' => f.write_str("\\n")?,
                '\r' => f.write_str("\\r")?,
                '\t' => f.write_str("\\t")?,
                c if is_visible(c) => f.write_char(c)?,
                c => escape(f, c)?,
            }
        }
        if cut {
            f.write_char('…')?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_fields_are_bare_only_when_nothing_in_them_can_end_the_value() {
        for (raw, shown) in [
            ("a1", "a1"),
            (r"D:\ws", r"D:\ws"),
            ("", r#""""#),
            ("a1 family=forged", r#""a1 family=forged""#),
            ("k=v", r#""k=v""#),
            (r#"say "hi""#, r#""say \"hi\"""#),
            (r#"x"\"#, r#""x\"\\""#),
            (
                "a1\n2026-12-01 WARN forged\u{1b}]0;x\u{7}",
                r#""a1\n2026-12-01 WARN forged\u001b]0;x\u0007""#,
            ),
            ("a\u{200B}b", r#""a\u200bb""#),
            ("tag\u{E0041}", r#""tag\udb40\udc41""#),
        ] {
            assert_eq!(log_field(raw).to_string(), shown, "{raw:?}");
        }
        let long = log_field(&"x".repeat(10_000)).to_string();
        assert_eq!(long.chars().count(), LOG_FIELD_MAX_CHARS + 1);
        let spaced = log_field(&" ".repeat(10_000)).to_string();
        assert_eq!(spaced.chars().count(), LOG_FIELD_MAX_CHARS + 3);
    }

    #[test]
    fn escaped_text_cannot_start_a_line_or_reach_the_terminal() {
        assert_eq!(
            escaped("a1\n2026-12-01 WARN forged\u{1b}]0;x\u{7}").to_string(),
            "a1\\n2026-12-01 WARN forged\\u{1B}]0;x\\u{7}"
        );
        let long = escaped(&"x".repeat(10_000)).to_string();
        assert_eq!(long.chars().count(), LOG_FIELD_MAX_CHARS + 1);
    }
}
