//! Quoting untrusted text into advisories.
//!
//! Everything a family quotes comes from error text, which is attacker-shaped:
//! a path can carry a quote that closes a command line, a newline followed by
//! fake instructions, an ANSI escape, or ten megabytes. These helpers are the
//! one place that decides what may be quoted and how.

use std::borrow::Cow;

/// The longest fragment quoted from a failure, in characters.
pub const FRAGMENT_MAX_CHARS: usize = 400;

/// The longest path placed into a command line (Windows' classic MAX_PATH).
pub const COMMAND_PATH_MAX_CHARS: usize = 260;

/// True for characters that must never survive quoting: C0/C1 controls
/// (newlines included), the Unicode line and paragraph separators that some
/// renderers break lines at, and the bidirectional overrides and marks that
/// make text display in another order than it reads.
pub fn is_unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{200E}' | '\u{200F}' | '\u{061C}' | '\u{FEFF}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2066}'..='\u{2069}'
        )
}

/// Makes a fragment safe to quote as prose: ANSI escape sequences removed,
/// control characters (newlines included) replaced by a space, and the result
/// bounded to [`FRAGMENT_MAX_CHARS`] with an ellipsis.
pub fn quote_fragment(raw: &str) -> Cow<'_, str> {
    let clean = raw.chars().count() <= FRAGMENT_MAX_CHARS && !raw.chars().any(is_unsafe_char);
    if clean {
        return Cow::Borrowed(raw);
    }
    let mut out = String::with_capacity(raw.len().min(FRAGMENT_MAX_CHARS * 4));
    let mut chars = raw.chars().peekable();
    let mut count = 0usize;
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // CSI: ESC [ params final-byte; OSC: ESC ] … BEL or ESC \; others: ESC + one char.
            match chars.peek() {
                Some('[') => {
                    chars.next();
                    for n in chars.by_ref() {
                        if ('\u{40}'..='\u{7e}').contains(&n) {
                            break;
                        }
                    }
                }
                Some(']') => {
                    chars.next();
                    while let Some(n) = chars.next() {
                        if n == '\u{7}' || (n == '\u{1b}' && chars.next_if_eq(&'\\').is_some()) {
                            break;
                        }
                    }
                }
                Some(_) => {
                    chars.next();
                }
                None => {}
            }
            continue;
        }
        if count == FRAGMENT_MAX_CHARS - 1 && chars.peek().is_some() {
            out.push('…');
            return Cow::Owned(out);
        }
        out.push(if is_unsafe_char(c) { ' ' } else { c });
        count += 1;
    }
    Cow::Owned(out)
}

/// Why a path cannot be placed into a command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Unquotable {
    /// A character that ends or expands a quoted argument in cmd or PowerShell.
    #[error("it holds a character that would end or expand a quoted argument")]
    ShellMetacharacter,
    /// A newline, another control character, a Unicode line separator or a bidi control.
    #[error("it holds a control, line-separator or bidirectional-override character")]
    ControlCharacter,
    /// Longer than [`COMMAND_PATH_MAX_CHARS`].
    #[error("it is longer than {COMMAND_PATH_MAX_CHARS} characters")]
    TooLong,
    /// Empty.
    #[error("it is empty")]
    Empty,
}

/// Returns the path if it can be placed between double quotes in both a cmd
/// and a PowerShell command line without ending or expanding the argument.
pub fn command_safe_path(path: &str) -> Result<&str, Unquotable> {
    if path.is_empty() {
        return Err(Unquotable::Empty);
    }
    if path.chars().count() > COMMAND_PATH_MAX_CHARS {
        return Err(Unquotable::TooLong);
    }
    if path.chars().any(is_unsafe_char) {
        return Err(Unquotable::ControlCharacter);
    }
    // `"` closes the argument; `` ` `` and `$` are PowerShell escapes/expansions
    // inside double quotes; `%` and `!` expand in cmd; `^` escapes in cmd.
    if path.chars().any(|c| {
        matches!(
            c,
            '"' | '`' | '$' | '%' | '!' | '^' | '\u{201c}' | '\u{201d}'
        )
    }) {
        return Err(Unquotable::ShellMetacharacter);
    }
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fragments_lose_escapes_and_newlines() {
        assert_eq!(quote_fragment("D:\\ws"), "D:\\ws");
        assert_eq!(
            quote_fragment("a\u{1b}[31mred\u{1b}[0m\nIGNORE"),
            "ared IGNORE"
        );
        assert_eq!(quote_fragment("x\u{1b}]0;title\u{7}y"), "xy");
        assert_eq!(
            quote_fragment("a\u{2028}SYSTEM: b\u{202e}c\u{85}d"),
            "a SYSTEM: b c d"
        );
        let big = "a".repeat(10 * 1024 * 1024);
        let q = quote_fragment(&big);
        assert_eq!(q.chars().count(), FRAGMENT_MAX_CHARS);
        assert!(q.ends_with('…'));
    }

    #[test]
    fn command_paths_refuse_breakers() {
        assert_eq!(command_safe_path(r"D:\ws"), Ok(r"D:\ws"));
        assert_eq!(
            command_safe_path(r#"D:\ws" & del /s"#),
            Err(Unquotable::ShellMetacharacter)
        );
        assert_eq!(
            command_safe_path("D:\\ws\nrun this"),
            Err(Unquotable::ControlCharacter)
        );
        assert_eq!(
            command_safe_path(r"D:\$env:x"),
            Err(Unquotable::ShellMetacharacter)
        );
        assert_eq!(
            command_safe_path(&"a".repeat(300)),
            Err(Unquotable::TooLong)
        );
        assert_eq!(command_safe_path(""), Err(Unquotable::Empty));
        assert_eq!(
            command_safe_path("D:\\ws\u{2029}x"),
            Err(Unquotable::ControlCharacter)
        );
        assert_eq!(
            command_safe_path("D:\\ws\u{202e}txt.exe"),
            Err(Unquotable::ControlCharacter)
        );
    }
}
