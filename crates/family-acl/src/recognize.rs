//! The pure predicate: does a settled call carry the Windows ACL backend's
//! `…NamedSecurityInfoW failed (Win32 <n>)[: …]` line, in a shape only the
//! producer writes?
//!
//! The line is accepted only where the producer puts it: at the start of a line
//! of a failure's message or rendered content, after the one envelope rule of
//! [`advisor_core::envelope::unwrap`], either bare or behind one short framing
//! tag (see [`strip_tag`]), behind the runner's `windows-acl-run: ` prefix, or
//! as the detail after ` Runner failure: ` in the `SandboxUnavailableError`
//! sentence. A line that mentions it mid-sentence, a success that quotes it,
//! and the members of an aggregate error are never read.

use std::sync::LazyLock;

use advisor_core::{Observation, Outcome, envelope};
use memchr::memmem::Finder;

use crate::finding::{AclFinding, Api, Carrier, Field, Label, Texts};

/// The text both recognized APIs share; a necessary condition of [`recognize`]:
/// only a line that holds it is parsed.
pub(crate) const NEEDLE: &str = "NamedSecurityInfoW failed (Win32";

/// The searcher for [`NEEDLE`], built once per process.
static NEEDLE_FINDER: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(NEEDLE));

/// What separates the API name from the code in a `Win32Error` message.
const FAILED_WIN32: &str = " failed (Win32 ";
/// What separates the code from the detail, when a detail was given.
const CODE_END: &str = "): ";
/// The prefix of every runner-side failure line.
const RUNNER_PREFIX: &str = "windows-acl-run: ";
/// The head of the `SandboxUnavailableError` message, up to the mode.
const UNAVAILABLE_HEAD: &str = "sandbox mode \"";
/// What follows the mode in that message.
const UNAVAILABLE_AFTER_MODE: &str =
    "\" is requested but no sandbox backend is usable on this host; ";
/// What introduces the runner's line inside that message.
const RUNNER_FAILURE: &str = " Runner failure: ";
/// The longest framing tag, in bytes between the brackets.
pub(crate) const TAG_MAX: usize = 32;
/// Recognizes the producer's line in a failure, or returns `None` without allocating.
pub(crate) fn recognize(observation: &Observation) -> Option<AclFinding> {
    let failure = match &observation.outcome {
        Outcome::Failure(failure) => failure,
        Outcome::Success(_) => return None,
    };
    scan(&failure.message, Field::Message).or_else(|| scan(&failure.content, Field::Content))
}

/// The first line of `text` (as [`str::lines`] splits it) that parses. Only
/// the lines holding [`NEEDLE`] are looked at: every line that parses holds it.
fn scan(text: &str, field: Field) -> Option<AclFinding> {
    let mut rest = text;
    while let Some(at) = NEEDLE_FINDER.find(rest.as_bytes()) {
        let (line, after) = line_around(rest, at);
        if let Some(p) = parse_line(line) {
            return Some(finding(p, field));
        }
        rest = after;
    }
    None
}

/// The line of `text` that holds byte `at`, without its line ending (`\n`
/// or `\r\n`, as [`str::lines`] strips them), and the text after it.
fn line_around(text: &str, at: usize) -> (&str, &str) {
    let bytes = text.as_bytes();
    let start = memchr::memrchr(b'\n', bytes.get(..at).unwrap_or_default()).map_or(0, |i| i + 1);
    let (end, next) = match memchr::memchr(b'\n', bytes.get(at..).unwrap_or_default()) {
        Some(i) => (at + i, at + i + 1),
        None => (text.len(), text.len()),
    };
    let line = text.get(start..end).unwrap_or_default();
    let line = match next > end {
        true => line.strip_suffix('\r').unwrap_or(line),
        false => line,
    };
    (line, text.get(next..).unwrap_or_default())
}

/// The finding, owning its texts (see [`Texts`]).
fn finding(p: Parsed<'_>, field: Field) -> AclFinding {
    AclFinding {
        api: p.api,
        code: p.code,
        label: p.label,
        texts: Texts::new(p.line, p.tag, p.path),
        carrier: p.carrier,
        field,
    }
}

/// One recognized line, borrowed from the text.
#[derive(Debug, PartialEq, Eq)]
struct Parsed<'a> {
    api: Api,
    code: u32,
    label: Option<Label>,
    path: Option<&'a str>,
    line: &'a str,
    tag: Option<&'a str>,
    carrier: Carrier,
}

fn parse_line(raw: &str) -> Option<Parsed<'_>> {
    let (carrier, after_carrier) = strip_carrier(envelope::unwrap(raw))?;
    let (tag, rest) = match carrier {
        Carrier::Session => strip_tag(after_carrier),
        Carrier::SandboxUnavailable | Carrier::RunnerLine => (None, after_carrier),
    };
    let (name, after) = split_at_first(rest, FAILED_WIN32)?;
    let api = Api::from_name(name)?;
    let (digits, detail) = split_code(after)?;
    let code = decimal_code(digits)?;
    let (label, path) = match (api, detail) {
        (_, None) => (None, None),
        (Api::SetNamedSecurityInfoW, Some(detail)) => {
            let (label, path) = labelled_path(detail)?;
            (Some(label), Some(path))
        }
        (Api::GetNamedSecurityInfoW, Some(detail)) => read_path(detail)?,
    };
    Some(Parsed {
        api,
        code,
        label,
        path,
        line: rest,
        tag,
        carrier,
    })
}

/// What [`str::split_once`] gives for a literal `pattern`, found by trying
/// each occurrence of its first byte: on a line this short (and with the
/// pattern near its start) that costs less than the two-way searcher
/// `str::split_once` builds for a `&str` on every call.
fn split_at_first<'a>(text: &'a str, pattern: &str) -> Option<(&'a str, &'a str)> {
    let first = *pattern.as_bytes().first()?;
    let bytes = text.as_bytes().iter().enumerate();
    bytes.filter(|(_, b)| **b == first).find_map(|(at, _)| {
        let after = text.get(at..)?.strip_prefix(pattern)?;
        Some((text.get(..at)?, after))
    })
}

/// Finds where the `Win32Error` message starts, and names the carrier.
fn strip_carrier(line: &str) -> Option<(Carrier, &str)> {
    if let Some(after_head) = line.strip_prefix(UNAVAILABLE_HEAD) {
        let (_mode, sentence) = split_at_first(after_head, UNAVAILABLE_AFTER_MODE)?;
        let (_, detail) = split_at_first(sentence, RUNNER_FAILURE)?;
        let runner_line = detail.strip_prefix(RUNNER_PREFIX)?;
        return Some((Carrier::SandboxUnavailable, runner_line));
    }
    if let Some(runner_line) = line.strip_prefix(RUNNER_PREFIX) {
        return Some((Carrier::RunnerLine, runner_line));
    }
    Some((Carrier::Session, line))
}

/// Splits off one short framing tag a tool may put in front of the provider's
/// line: `[`, 1 to [`TAG_MAX`] bytes each an ASCII letter, digit or one of
/// `-_.:/`, then `] ` (one space) and the line itself. Anything else — a
/// space or a quote inside, a second tag, no space or two after it — is not a
/// tag, and the line is returned whole (and then fails to parse, because it
/// does not start with the API name).
fn strip_tag(line: &str) -> (Option<&str>, &str) {
    let Some((inner, rest)) = line
        .strip_prefix('[')
        .and_then(|after| split_at_first(after, "] "))
    else {
        return (None, line);
    };
    let fits = (1..=TAG_MAX).contains(&inner.len())
        && inner
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.:/".contains(&b));
    if fits {
        (Some(&line[..inner.len() + 2]), rest)
    } else {
        (None, line)
    }
}

/// `<digits>): <detail>`, or `<digits>)` at the end of the line when the error
/// was thrown without a detail (the `Win32Error` format appends `: <detail>`
/// only when one was given).
fn split_code(after: &str) -> Option<(&str, Option<&str>)> {
    match split_at_first(after, CODE_END) {
        Some((digits, detail)) => Some((digits, Some(detail))),
        None => after.strip_suffix(')').map(|digits| (digits, None)),
    }
}

/// The code as `Win32Error` writes it: decimal digits only, non-zero.
fn decimal_code(digits: &str) -> Option<u32> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse::<u32>().ok().filter(|code| *code != 0)
}

/// The label a detail starts with, and what follows its parenthesis.
fn label_prefix(detail: &str) -> Option<(Label, &str)> {
    if let Some(rest) = detail.strip_prefix("grantWrite(") {
        return Some((Label::GrantWrite, rest));
    }
    detail
        .strip_prefix("revokeWrite(")
        .map(|rest| (Label::RevokeWrite, rest))
}

/// `grantWrite(<path>)` or `revokeWrite(<path>)`, and nothing after the parenthesis.
fn labelled_path(detail: &str) -> Option<(Label, &str)> {
    let (label, rest) = label_prefix(detail)?;
    let path = rest.strip_suffix(')')?;
    (!path.is_empty()).then_some((label, path))
}

/// The read's detail: the bare path the producer's call site writes, or the
/// labelled form; a detail that starts like a label must be one, whole.
fn read_path(detail: &str) -> Option<(Option<Label>, Option<&str>)> {
    if label_prefix(detail).is_some() {
        let (label, path) = labelled_path(detail)?;
        return Some((Some(label), Some(path)));
    }
    // Never empty: the line's trailing white space is gone, so `): ` cannot end it.
    Some((None, Some(detail)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const FRAGMENTS: &[&str] = &[
        r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)",
        "GetNamedSecurityInfoW failed (Win32 2)",
        NEEDLE,
        "\n",
        "\r\n",
        "\r",
        "Error: ",
        "windows-acl-run: ",
        "[tag] ",
        "): ",
        ")",
        " ",
        "é",
    ];

    proptest! {
        /// The scan finds the line `str::lines` would find first, and the
        /// split the one `str::split_once` gives.
        #[test]
        fn scan_and_split_agree_with_the_standard_library(
            parts in prop::collection::vec(prop::sample::select(FRAGMENTS), 0..10),
            pattern in prop::sample::select(&FRAGMENTS[3..]),
        ) {
            let text = parts.concat();
            let want = text.lines().find_map(parse_line);
            let got = scan(&text, Field::Message);
            let path = |p: Option<&advisor_core::Untrusted>| p.map(|p| p.inspect().to_owned());
            prop_assert_eq!(
                got.as_ref().map(|f| (f.line().inspect(), path(f.path()))),
                want.map(|p| (p.line, p.path.map(str::to_owned)))
            );
            prop_assert_eq!(split_at_first(&text, pattern), text.split_once(pattern));
        }
    }

    /// A line that holds the needle but does not parse hides neither the
    /// line after it nor its own `\r`.
    #[test]
    fn each_line_holding_the_needle_is_tried_in_turn() {
        let text = format!("x {NEEDLE}\r\nGetNamedSecurityInfoW failed (Win32 2)\r\nz");
        let found =
            scan(&text, Field::Content).map(|f| (f.api, f.code, f.line().inspect().to_owned()));
        let line = "GetNamedSecurityInfoW failed (Win32 2)".to_owned();
        assert_eq!(found, Some((Api::GetNamedSecurityInfoW, 2, line)));
        assert!(scan(&format!("{NEEDLE} 5)\n{NEEDLE} 5)"), Field::Message).is_none());
    }

    #[test]
    fn parses_the_bare_session_line() {
        let p = parse_line(r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)");
        assert_eq!(
            p,
            Some(Parsed {
                api: Api::SetNamedSecurityInfoW,
                code: 5,
                label: Some(Label::GrantWrite),
                path: Some(r"D:\ws"),
                line: r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)",
                tag: None,
                carrier: Carrier::Session,
            })
        );
    }

    #[test]
    fn path_keeps_inner_parentheses() {
        let p = parse_line(
            r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\Program Files (x86)\ws)",
        );
        assert_eq!(p.map(|p| p.path), Some(Some(r"D:\Program Files (x86)\ws")));
    }

    #[test]
    fn code_must_be_plain_nonzero_decimal() {
        assert_eq!(decimal_code("5"), Some(5));
        assert_eq!(decimal_code("1332"), Some(1332));
        assert_eq!(decimal_code("+5"), None);
        assert_eq!(decimal_code("0x5"), None);
        assert_eq!(decimal_code("0"), None);
        assert_eq!(decimal_code(""), None);
        assert_eq!(decimal_code("99999999999"), None);
    }

    #[test]
    fn the_detail_is_optional_but_never_empty() {
        assert_eq!(split_code("5): D:\\ws"), Some(("5", Some("D:\\ws"))));
        assert_eq!(split_code("5)"), Some(("5", None)));
        assert_eq!(split_code("5):"), None);
        assert_eq!(split_code("5"), None);
    }

    #[test]
    fn a_tag_is_one_short_bracketed_token_and_one_space() {
        let line = "SetNamedSecurityInfoW failed (Win32 5)";
        let tagged = |tag: &str| format!("{tag} {line}");
        for ok in [
            "[provider]",
            "[a]",
            "[dsh:sandbox/local-1.2_x]",
            &format!("[{}]", "t".repeat(TAG_MAX)),
        ] {
            let text = tagged(ok);
            assert_eq!(strip_tag(&text), (Some(ok), line), "{ok}");
        }
        for bad in [
            "[]",
            "[two words]",
            "[\"q\"]",
            "[a]]",
            &format!("[{}]", "t".repeat(TAG_MAX + 1)),
        ] {
            let text = tagged(bad);
            assert_eq!(strip_tag(&text), (None, text.as_str()), "{bad}");
        }
        assert_eq!(strip_tag("[provider]  x"), (Some("[provider]"), " x"));
        assert_eq!(strip_tag("[provider]x"), (None, "[provider]x"));
    }
}
