//! The sizes free text is kept at, so that one line cannot repeat megabytes
//! into every later answer, log line or report, nor into the advisor's memory
//! of every agent and session (`docs/protocol.md`, "Sizes").

pub use advisor_core::{ID_MAX_BYTES, short_id};

/// The longest `policy-unavailable` message kept, in bytes (with its `…`).
pub const MESSAGE_MAX_BYTES: usize = 1024;

/// `text` cut to at most `max` bytes at a character boundary, ending in `…`
/// when anything was cut.
pub fn capped(mut text: String, max: usize) -> String {
    if text.len() <= max {
        return text;
    }
    let ellipsis = '…'.len_utf8();
    text.truncate(floor_boundary(&text, max.saturating_sub(ellipsis)));
    text.push('…');
    text
}

/// The largest character boundary of `text` at or below `at`.
fn floor_boundary(text: &str, at: usize) -> usize {
    let mut end = at.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_message_is_capped_at_a_character_boundary() {
        assert_eq!(capped("abc".into(), 3), "abc");
        let cut = capped("é".repeat(2000), MESSAGE_MAX_BYTES);
        assert!(
            cut.len() <= MESSAGE_MAX_BYTES && cut.ends_with('…'),
            "{cut}"
        );
        assert_eq!(capped("abcdef".into(), 5), "ab…");
    }
}
