//! Identifiers (agent, call, tool) as they cross from JavaScript: bounded
//! before they are copied, read losslessly, and kept at the CLI's size.
//!
//! Pure: no Node-API here, so the conversion is tested in Rust
//! (`tests/ids.rs` includes this file) as well as through Node.
//!
//! - **Bounded.** A JS string's length is asked first (no copy); one longer
//!   than [`ID_READ_MAX_UNITS`] UTF-16 code units is refused, naming the
//!   argument and the bound, before any of it is copied.
//! - **Lossless.** A JS string is UTF-16 and may hold a lone surrogate
//!   (`'\ud800'`), which UTF-8 cannot; reading it as UTF-8 would make every
//!   lone surrogate U+FFFD, so `'\ud800'` and `'\udfff'` would be one agent.
//!   [`from_utf16`] is injective instead: a valid string is itself, a lone
//!   surrogate becomes [`ESCAPE`] and its four hex digits, and an [`ESCAPE`]
//!   in the string is doubled. So different strings are different ids, and
//!   equal strings the same.
//! - **Kept at every surface's size.** An id longer than
//!   [`ID_MAX_BYTES`](advisor_core::ID_MAX_BYTES) takes the short form the CLI
//!   gives it, through the same function ([`advisor_core::short_id`]; see
//!   `docs/protocol.md`, "Sizes").

/// The longest JS string read as an identifier, in UTF-16 code units (at
/// most 2 MiB copied, 3 MiB as UTF-8); a longer one is refused unread.
pub const ID_READ_MAX_UNITS: usize = 1024 * 1024;

use advisor_core::short_id;

/// The escape of a lone surrogate: U+FFFF, a noncharacter (reserved for a
/// program's internal use, so it does not occur in a real id). A lone
/// surrogate `D800` is `U+FFFF` then `d800`; a U+FFFF of the id is doubled.
pub const ESCAPE: char = '\u{FFFF}';

/// Why an identifier argument was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooLong {
    /// The argument (`agent`, `call`, `tool`).
    pub argument: &'static str,
    /// Its length in UTF-16 code units.
    pub units: usize,
}

impl std::fmt::Display for TooLong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "argument `{}` is a string of {} UTF-16 code units, longer than the {} an \
             identifier may have; it was not read",
            self.argument, self.units, ID_READ_MAX_UNITS
        )
    }
}

/// Whether an identifier of `units` UTF-16 code units may be read.
pub fn check_length(argument: &'static str, units: usize) -> Result<(), TooLong> {
    if units > ID_READ_MAX_UNITS {
        Err(TooLong { argument, units })
    } else {
        Ok(())
    }
}

/// A JS string's UTF-16 code units as the identifier the advisor keeps:
/// lossless ([`ESCAPE`]), then shortened past [`ID_MAX_BYTES`](advisor_core::ID_MAX_BYTES).
pub fn from_utf16(units: &[u16]) -> String {
    short_id(lossless(units))
}

/// `units` as text, injectively: see [`ESCAPE`].
pub fn lossless(units: &[u16]) -> String {
    let mut text = String::with_capacity(units.len());
    for decoded in char::decode_utf16(units.iter().copied()) {
        match decoded {
            Ok(ESCAPE) => {
                text.push(ESCAPE);
                text.push(ESCAPE);
            }
            Ok(c) => text.push(c),
            Err(lone) => {
                text.push(ESCAPE);
                text.push_str(&format!("{:04x}", lone.unpaired_surrogate()));
            }
        }
    }
    text
}
