//! The pure predicate: does a settled call carry the Windows ACL backend's
//! `…NamedSecurityInfoW failed (Win32 <n>): …` line, in a shape only the
//! producer writes?
//!
//! The line is accepted only where the producer puts it: at the start of a line
//! of a failure's message or rendered content, optionally behind the `Error: `
//! envelope, behind the runner's `windows-acl-run: ` prefix, or as the detail
//! after ` Runner failure: ` in the `SandboxUnavailableError` sentence. A line
//! that mentions it mid-sentence, a success that quotes it, and the members of
//! an aggregate error are never read.

use advisor_core::{Observation, Outcome, Untrusted};

/// The text both recognized APIs share; a necessary condition of [`recognize`]
/// (32 bytes, so `str::contains` takes its vectorized short-needle path).
pub(crate) const NEEDLE: &str = "NamedSecurityInfoW failed (Win32";

/// The envelope a host may leave on a message (`Error: <message>`).
const ENVELOPE: &str = "Error: ";
/// What separates the API name from the code in a `Win32Error` message.
const FAILED_WIN32: &str = " failed (Win32 ";
/// What separates the code from the detail.
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
/// `ERROR_ACCESS_DENIED`.
pub(crate) const ACCESS_DENIED: u32 = 5;

/// The Win32 function the line names. Only these two are classified.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Api {
    /// The apply: the merged DACL (and, from 0.1.7-alpha.1, label) write.
    SetNamedSecurityInfoW,
    /// The read of the directory's current descriptor, before any merge.
    GetNamedSecurityInfoW,
}

impl Api {
    fn from_name(name: &str) -> Option<Self> {
        match name {
            "SetNamedSecurityInfoW" => Some(Api::SetNamedSecurityInfoW),
            "GetNamedSecurityInfoW" => Some(Api::GetNamedSecurityInfoW),
            _ => None,
        }
    }

    /// The function's name as the message spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Api::SetNamedSecurityInfoW => "SetNamedSecurityInfoW",
            Api::GetNamedSecurityInfoW => "GetNamedSecurityInfoW",
        }
    }
}

/// The step of the backend that failed (the `label` of `<label>(<path>)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Label {
    /// Adding the sandbox's write grant.
    GrantWrite,
    /// Taking a grant back.
    RevokeWrite,
}

impl Label {
    /// The label as the message spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Label::GrantWrite => "grantWrite",
            Label::RevokeWrite => "revokeWrite",
        }
    }
}

/// Which advisory the finding gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AclClass {
    /// `SetNamedSecurityInfoW` refused with `ERROR_ACCESS_DENIED` (5): the reported case.
    ApplyDenied,
    /// `SetNamedSecurityInfoW` failed with any other code.
    ApplyOther,
    /// `GetNamedSecurityInfoW` failed: nothing was written.
    ReadDenied,
}

impl AclClass {
    /// The kebab-case class name.
    pub fn as_str(self) -> &'static str {
        match self {
            AclClass::ApplyDenied => "apply-denied",
            AclClass::ApplyOther => "apply-other",
            AclClass::ReadDenied => "read-denied",
        }
    }
}

/// How the line reached the session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Carrier {
    /// The session path: the provider's `Win32Error` propagated out of `confine()` unchanged.
    Session,
    /// The agentless path: the runner's line inside a `SandboxUnavailableError` message.
    SandboxUnavailable,
    /// A bare `windows-acl-run: ` runner line.
    RunnerLine,
}

impl Carrier {
    /// The kebab-case carrier name.
    pub fn as_str(self) -> &'static str {
        match self {
            Carrier::Session => "session",
            Carrier::SandboxUnavailable => "sandbox-unavailable",
            Carrier::RunnerLine => "runner-line",
        }
    }
}

/// Which text of the failure held the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// The error's message.
    Message,
    /// The rendered content (a host may settle an error with the text only there).
    Content,
}

/// What the recognizer extracted: the facts the gate and the advisory use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AclFinding {
    /// The Win32 function that failed.
    pub api: Api,
    /// The Win32 code, as the message gave it (decimal, non-zero).
    pub code: u32,
    /// The backend step, for `SetNamedSecurityInfoW`; `None` for the read.
    pub label: Option<Label>,
    /// The `Win32Error` message itself, from the API name to the end of the
    /// line: untrusted text, shown only as a quote block.
    pub line: Untrusted,
    /// The directory, exactly as the error spelled it: untrusted text, shown
    /// only through a rendering (an inline mention, a command-line path slot).
    path: Untrusted,
    /// How it reached the session.
    pub carrier: Carrier,
    /// Which text held it.
    pub field: Field,
}

impl AclFinding {
    /// The directory, exactly as the error spelled it (untrusted text).
    pub fn path(&self) -> &Untrusted {
        &self.path
    }

    /// The advisory class: the code is kept, not flattened.
    pub fn class(&self) -> AclClass {
        match self.api {
            Api::GetNamedSecurityInfoW => AclClass::ReadDenied,
            Api::SetNamedSecurityInfoW if self.code == ACCESS_DENIED => AclClass::ApplyDenied,
            Api::SetNamedSecurityInfoW => AclClass::ApplyOther,
        }
    }
}

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
        path: Untrusted::new(p.path),
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
    path: &'a str,
    line: &'a str,
    carrier: Carrier,
}

fn parse_line(raw: &str) -> Option<Parsed<'_>> {
    let line = raw.trim_end();
    let (carrier, rest) = strip_carrier(strip_envelope(line))?;
    let (name, after) = rest.split_once(FAILED_WIN32)?;
    let api = Api::from_name(name)?;
    let (digits, detail) = after.split_once(CODE_END)?;
    let code = decimal_code(digits)?;
    let (label, path) = match api {
        Api::SetNamedSecurityInfoW => labelled_path(detail)?,
        Api::GetNamedSecurityInfoW => (None, bare_path(detail)?),
    };
    Some(Parsed {
        api,
        code,
        label,
        path,
        line: rest,
        carrier,
    })
}

/// Drops up to two `Error: ` envelopes (content renders `Error: <message>`, and
/// a host may have left one on the message as well).
fn strip_envelope(line: &str) -> &str {
    let once = line.strip_prefix(ENVELOPE).unwrap_or(line);
    once.strip_prefix(ENVELOPE).unwrap_or(once)
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

/// The code as `Win32Error` writes it: decimal digits only, non-zero.
fn decimal_code(digits: &str) -> Option<u32> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse::<u32>().ok().filter(|code| *code != 0)
}

/// `grantWrite(<path>)` or `revokeWrite(<path>)`, and nothing after the parenthesis.
fn labelled_path(detail: &str) -> Option<(Option<Label>, &str)> {
    let (label, rest) = if let Some(rest) = detail.strip_prefix("grantWrite(") {
        (Label::GrantWrite, rest)
    } else {
        (Label::RevokeWrite, detail.strip_prefix("revokeWrite(")?)
    };
    let path = rest.strip_suffix(')')?;
    (!path.is_empty()).then_some((Some(label), path))
}

/// The read's detail is the bare path: no label.
fn bare_path(detail: &str) -> Option<&str> {
    let labelled = detail.starts_with("grantWrite(") || detail.starts_with("revokeWrite(");
    (!detail.is_empty() && !labelled).then_some(detail)
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
                path: r"D:\ws",
                line: r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)",
                carrier: Carrier::Session,
            })
        );
    }

    #[test]
    fn path_keeps_inner_parentheses() {
        let p = parse_line(
            r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\Program Files (x86)\ws)",
        );
        assert_eq!(p.map(|p| p.path), Some(r"D:\Program Files (x86)\ws"));
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
    fn envelope_is_stripped_at_most_twice() {
        assert_eq!(strip_envelope("Error: Error: x"), "x");
        assert_eq!(strip_envelope("Error: Error: Error: x"), "Error: x");
    }
}
