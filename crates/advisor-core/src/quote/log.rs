//! Untrusted text in a log field or a terminal header.

use std::fmt::{self, Write as _};

use super::class::{escape, is_visible};

/// The most characters of one log field; the rest becomes `…`.
pub const LOG_FIELD_MAX_CHARS: usize = 256;

/// A value written on the host log or a terminal header: `\n`, `\r`, `\t`
/// and every other invisible character (ESC, bidi controls, …) as a visible
/// escape, so a value can neither start a forged log line nor drive the
/// terminal; capped at [`LOG_FIELD_MAX_CHARS`].
#[derive(Debug, Clone, Copy)]
pub struct LogField<'a>(&'a str);

/// Renders any string as a [`LogField`].
pub fn log_field(raw: &str) -> LogField<'_> {
    LogField(raw)
}

impl fmt::Display for LogField<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (n, c) in self.0.chars().enumerate() {
            if n == LOG_FIELD_MAX_CHARS {
                return f.write_char('…');
            }
            match c {
                '\n' => f.write_str("\\n")?,
                '\r' => f.write_str("\\r")?,
                '\t' => f.write_str("\\t")?,
                c if is_visible(c) => f.write_char(c)?,
                c => escape(f, c)?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_fields_cannot_start_a_line_or_reach_the_terminal() {
        assert_eq!(
            log_field("a1\n2026-12-01 WARN forged\u{1b}]0;x\u{7}").to_string(),
            "a1\\n2026-12-01 WARN forged\\u{1B}]0;x\\u{7}"
        );
        let long = log_field(&"x".repeat(10_000)).to_string();
        assert_eq!(long.chars().count(), LOG_FIELD_MAX_CHARS + 1);
    }
}
