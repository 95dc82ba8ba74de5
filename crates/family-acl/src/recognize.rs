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

use advisor_core::{Observation, Outcome, Untrusted, envelope};

use crate::finding::{AclFinding, Api, Carrier, Field, Label};

/// The text both recognized APIs share; a necessary condition of [`recognize`]
/// (32 bytes, so `str::contains` takes its vectorized short-needle path).
pub(crate) const NEEDLE: &str = "NamedSecurityInfoW failed (Win32";

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

fn scan(text: &str, field: Field) -> Option<AclFinding> {
    if !text.contains(NEEDLE) {
        return None;
    }
    text.lines().find_map(parse_line).map(|p| AclFinding {
        api: p.api,
        code: p.code,
        label: p.label,
        line: Untrusted::new(p.line),
        tag: p.tag.map(Untrusted::new),
        path: p.path.map(Untrusted::new),
        carrier: p.carrier,
        field,
    })
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
    let (name, after) = rest.split_once(FAILED_WIN32)?;
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

/// Finds where the `Win32Error` message starts, and names the carrier.
fn strip_carrier(line: &str) -> Option<(Carrier, &str)> {
    if let Some(after_head) = line.strip_prefix(UNAVAILABLE_HEAD) {
        let (_mode, sentence) = after_head.split_once(UNAVAILABLE_AFTER_MODE)?;
        let (_, detail) = sentence.split_once(RUNNER_FAILURE)?;
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
        .and_then(|after| after.split_once("] "))
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
    match after.split_once(CODE_END) {
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
