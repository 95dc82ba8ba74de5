//! Which characters are visible, by Unicode general category.

use unicode_general_category::{GeneralCategory as G, get_general_category};

/// Characters that are default-ignorable (rendered as nothing) although their
/// general category is a letter or a mark: Hangul fillers, the combining
/// grapheme joiner, Khmer inherent vowels, Mongolian free variation
/// selectors, the variation selectors.
fn ignorable_non_format(c: char) -> bool {
    matches!(
        c,
        '\u{034F}'
            | '\u{115F}'
            | '\u{1160}'
            | '\u{17B4}'
            | '\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FFA0}'
            | '\u{E0000}'..='\u{E0FFF}'
    )
}

/// True for a character a reader sees as itself: a letter, mark, number,
/// punctuation or symbol that is not default-ignorable, or the ASCII space.
///
/// Everything else is false: controls (newlines included), format characters
/// (zero-width space, soft hyphen, bidi controls, tag characters), line and
/// paragraph separators, spaces other than U+0020, surrogates, private-use and
/// unassigned code points.
pub fn is_visible(c: char) -> bool {
    if c.is_ascii() {
        return c == ' ' || c.is_ascii_graphic();
    }
    if ignorable_non_format(c) {
        return false;
    }
    !matches!(
        get_general_category(c),
        G::Control
            | G::Format
            | G::Surrogate
            | G::PrivateUse
            | G::Unassigned
            | G::LineSeparator
            | G::ParagraphSeparator
            | G::SpaceSeparator
    )
}

/// True for a character prose must show as an escape: anything not visible,
/// and the backtick, which would open or close a code span.
pub fn needs_escape(c: char) -> bool {
    c == '`' || !is_visible(c)
}

/// True for a non-ASCII character that is a letter, mark or number: the only
/// non-ASCII characters a command argument carries.
pub(crate) fn is_word_char(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric();
    }
    is_visible(c)
        && matches!(
            get_general_category(c),
            G::UppercaseLetter
                | G::LowercaseLetter
                | G::TitlecaseLetter
                | G::ModifierLetter
                | G::OtherLetter
                | G::NonspacingMark
                | G::SpacingMark
                | G::EnclosingMark
                | G::DecimalNumber
                | G::LetterNumber
                | G::OtherNumber
        )
}

/// Writes `c` as a visible escape, `\u{200B}`.
pub(crate) fn escape(out: &mut impl std::fmt::Write, c: char) -> std::fmt::Result {
    write!(out, "\\u{{{:X}}}", c as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invisible_characters_are_not_visible() {
        for c in [
            '\n',
            '\r',
            '\t',
            '\u{1b}',
            '\u{85}',
            '\u{200B}',
            '\u{00AD}',
            '\u{E0041}',
            '\u{202E}',
            '\u{2066}',
            '\u{2028}',
            '\u{2029}',
            '\u{FEFF}',
            '\u{00A0}',
            '\u{3000}',
            '\u{FE0F}',
            '\u{3164}',
            '\u{E000}',
            '\u{061C}',
        ] {
            assert!(!is_visible(c), "{:X}", c as u32);
        }
        for c in ['a', 'Z', '~', ' ', '拒', '，', '„', '’', 'é', '\u{301}'] {
            assert!(is_visible(c), "{:X}", c as u32);
        }
        assert!(needs_escape('`'));
    }

    #[test]
    fn word_characters_are_letters_marks_and_numbers() {
        assert!(is_word_char('拒') && is_word_char('é') && is_word_char('7'));
        assert!(!is_word_char('„') && !is_word_char('’') && !is_word_char('\u{200B}'));
        assert!(!is_word_char('-') && !is_word_char('–'));
    }
}
