//! The predicate: a finished shell command whose own captured stderr carries
//! WMI's access-denied code next to one of the product's untranslated names.
//!
//! Only the value's `stderr` field is read — never `stdout`, never the rendered
//! content — so a command that merely prints a CIM record (a grepped log, a
//! re-raised transcript) is left alone by construction. The localized sentence
//! (`Access is denied`, `拒绝访问`, …) is never part of the key.

use advisor_core::shell::ForegroundRun;
use advisor_core::{Observation, Untrusted};

/// `WBEM_E_ACCESS_DENIED`, as PowerShell prints it in the record's
/// `FullyQualifiedErrorId`. The hex digits are all decimal, so the only case
/// question is the `x`; both `0x` and `0X` are accepted (see `find_code`).
pub const CODE: &str = "0x80041003";

/// The upper-case-`X` spelling of [`CODE`], accepted as the same code.
pub const CODE_UPPER_X: &str = "0X80041003";

/// The code's digits, which both spellings share.
const CODE_DIGITS: &str = "80041003";

/// The product's own names, which no display language translates. At least one
/// must occur in the same stderr as the code; each is matched exactly as written.
pub const PRODUCT_NAMES: [&str; 5] = [
    "HRESULT 0x80041003",
    "WBEM_E_ACCESS_DENIED",
    "CimException",
    "CimCmdlets",
    "cimv2",
];

/// What the recognizer read from the command's stderr.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CimRefusal {
    /// The stderr line that carries the code, exactly as the command printed
    /// it (indentation and all) without its line ending: the command's own
    /// text, which leaves the advisory only as a `> ` quote block.
    pub code_line: Untrusted,
    /// The first product name (in [`PRODUCT_NAMES`] order) found in the stderr.
    pub product_name: &'static str,
    /// The executor stamped the run `denied: true` (the English sentence is in
    /// the Windows backend's file-denial dialect; a localized one is not).
    pub stamped_denied: bool,
}

/// Recognizes a CIM/WMI refusal from a success result's captured stderr, or
/// returns `None` without allocating.
///
/// No exit-code condition: a script that continues after a refused cmdlet
/// (`Get-CimInstance …; 'done'`) exits 0 with the same record on stderr, and
/// that query was refused just the same. An exit code the value does not
/// report (absent, null, not an integer) is read by no one here either.
pub fn recognize(observation: &Observation) -> Option<CimRefusal> {
    let success = observation.success()?;
    let run = ForegroundRun::read(&success.value)?;
    let stderr = captured_stderr(&run)?;
    let at = find_code(stderr)?;
    let product_name = PRODUCT_NAMES
        .iter()
        .copied()
        .find(|name| stderr.contains(name))?;
    Some(CimRefusal {
        code_line: Untrusted::new(line_at(stderr, at)),
        product_name,
        stamped_denied: run.sandbox.is_some_and(|stamp| stamp.denied),
    })
}

/// The one text this family reads: the value's captured stderr field.
fn captured_stderr<'a>(run: &ForegroundRun<'a>) -> Option<&'a str> {
    run.stderr
}

/// The byte offset of the first occurrence of the code (`0x` or `0X`) that
/// stands as its own token: not preceded by a word character and not followed
/// by one, so `0x800410031` or `a0x80041003` is not the code.
pub fn find_code(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    text.match_indices(CODE_DIGITS).find_map(|(digits, _)| {
        let start = digits.checked_sub(2)?;
        let prefixed =
            bytes.get(start) == Some(&b'0') && matches!(bytes.get(start + 1), Some(b'x' | b'X'));
        let open_before = !start
            .checked_sub(1)
            .and_then(|i| bytes.get(i))
            .is_some_and(is_word);
        let open_after = !bytes.get(digits + CODE_DIGITS.len()).is_some_and(is_word);
        (prefixed && open_before && open_after).then_some(start)
    })
}

fn is_word(byte: &u8) -> bool {
    byte.is_ascii_alphanumeric() || *byte == b'_'
}

/// The line of `text` that contains byte offset `at`, without its line
/// ending (`\n` or `\r\n`) and otherwise untouched.
fn line_at(text: &str, at: usize) -> &str {
    let (head, tail) = text.split_at_checked(at).unwrap_or((text, ""));
    let start = head.rfind('\n').map_or(0, |i| i + 1);
    let end = tail.find('\n').map_or(text.len(), |i| at + i);
    let line = text.get(start..end).unwrap_or(text);
    line.strip_suffix('\r').unwrap_or(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_is_a_token() {
        assert_eq!(find_code("HRESULT 0x80041003,Microsoft"), Some(8));
        assert_eq!(find_code("(0X80041003)"), Some(1));
        assert_eq!(find_code("0x80041003"), Some(0));
        assert_eq!(find_code("0x800410031"), None);
        assert_eq!(find_code("a0x80041003"), None);
        assert_eq!(find_code("0x80041003_x"), None);
        assert_eq!(find_code("x80041003"), None);
        assert_eq!(find_code("80041003"), None);
        assert_eq!(find_code("id 80041003"), None);
        assert_eq!(find_code("0y80041003"), None);
        assert_eq!(find_code("0x8004100e"), None);
    }

    #[test]
    fn a_later_token_is_found_after_an_embedded_one() {
        assert_eq!(find_code("0x800410030 then 0x80041003"), Some(17));
    }

    #[test]
    fn the_code_line_is_the_whole_line_as_printed() {
        let text = "first\r\n    + Id : HRESULT 0x80041003,X \r\nlast";
        let at = find_code(text).unwrap();
        assert_eq!(line_at(text, at), "    + Id : HRESULT 0x80041003,X ");
        assert_eq!(line_at("0x80041003", 0), "0x80041003");
        assert_eq!(line_at("a\n0x80041003", 2), "0x80041003");
        assert_eq!(line_at("0x80041003\nb", 0), "0x80041003");
        assert_eq!(line_at("a\n 0x80041003\r\nb\nc", 3), " 0x80041003");
        assert_eq!(line_at("ab\ncd 0x80041003 ef\ngh", 6), "cd 0x80041003 ef");
    }
}
