//! The predicate: is this failure the Windows Job runner's own report that it
//! exited before proving its managed range empty (or its forced-termination
//! sibling)?
//!
//! The producer (`@deepseek-ai/dsh-subprocess-local`, `src/windows-job.ts`,
//! `launchWindowsJob`) throws a plain `Error` whose message is one line:
//! [`EXITED_PREFIX`], the status, [`EXITED_TAIL`], and in a newer build an
//! optional [`BOOTSTRAP_PREFIX`] with one code from a closed list. The same
//! build throws [`FORCED`] when a forced termination is not confirmed. The
//! message is read through the one envelope rule
//! ([`advisor_core::envelope::unwrap`]) and must be that line and nothing else.
//!
//! The search tools' wrapper sentence (`glob` or `grep`, then
//! [`SEARCH_WRAPPER_TAIL`]; [`GLOB_WRAPPER`] is glob's) is reported for the
//! same failure, but it names no cause of its own (a packaged `rg.exe` that
//! cannot start gives the same sentence), so it counts only when the runner's
//! own sentence is on a later line of the same message.

use advisor_core::{Observation, Untrusted, envelope};

/// The runner report's fixed head.
pub const EXITED_PREFIX: &str = "subprocess-local: Windows Job runner exited with ";

/// The runner report's fixed tail, before any bootstrap hint.
pub const EXITED_TAIL: &str = " before proving its managed range empty";

/// What a newer build appends when the helper's stderr named a known code.
pub const BOOTSTRAP_PREFIX: &str = "; helper bootstrap: ";

/// The forced-termination sibling, byte for byte.
pub const FORCED: &str = "subprocess-local: Windows runner did not confirm managed-range exit \
                          after forced termination; ownership remains unknown";

/// What the search tools write after their own name when ripgrep's
/// subprocess failed before reporting (`@deepseek-ai/dsh-tool-fs-search`,
/// `${toolName} subprocess failed …`).
pub const SEARCH_WRAPPER_TAIL: &str =
    " subprocess failed before reporting an outcome (ripgrep provider failure)";

/// The search tools that write [`SEARCH_WRAPPER_TAIL`].
const SEARCH_TOOLS: [&str; 2] = ["glob", "grep"];

/// The glob tool's wrapper sentence, whole.
pub const GLOB_WRAPPER: &str =
    "glob subprocess failed before reporting an outcome (ripgrep provider failure)";

/// True when `line` is a search tool's wrapper sentence, whole.
fn is_search_wrapper(line: &str) -> bool {
    line.strip_suffix(SEARCH_WRAPPER_TAIL)
        .is_some_and(|tool| SEARCH_TOOLS.contains(&tool))
}

/// The longest signal name read (`SIG` and up to 12 capitals or digits).
const SIGNAL_MAX_CHARS: usize = 15;

/// How the runner ended, as the producer spelled it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// `exit code <n>`: a decimal exit code, within what a 32-bit status can be spelled as.
    ExitCode(i64),
    /// `signal <SIG>`: a signal name (`SIG` and capitals or digits).
    Signal(Untrusted),
    /// `without an exit status`.
    NoStatus,
}

impl Status {
    /// The exit code as the unsigned 32-bit status Windows holds (`-1` and
    /// `4294967295` are the same status); `None` for a signal or no status.
    pub fn unsigned(&self) -> Option<u32> {
        match self {
            Status::ExitCode(code) => u32::try_from(code.rem_euclid(1 << 32)).ok(),
            Status::Signal(_) | Status::NoStatus => None,
        }
    }

    /// Reads the producer's status spelling; `None` for anything else.
    pub fn parse(raw: &str) -> Option<Self> {
        if raw == "without an exit status" {
            return Some(Status::NoStatus);
        }
        if let Some(name) = raw.strip_prefix("signal ") {
            let rest = name.strip_prefix("SIG")?;
            let ok = !rest.is_empty()
                && name.len() <= SIGNAL_MAX_CHARS
                && rest
                    .bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit());
            return ok.then(|| Status::Signal(Untrusted::new(name)));
        }
        let digits = raw.strip_prefix("exit code ")?;
        let magnitude = digits.strip_prefix('-').unwrap_or(digits);
        let plain = !magnitude.is_empty()
            && magnitude.len() <= 10
            && magnitude.bytes().all(|b| b.is_ascii_digit())
            && (magnitude == "0" || !magnitude.starts_with('0'))
            && digits != "-0";
        if !plain {
            return None;
        }
        let code: i64 = digits.parse().ok()?;
        (i64::from(i32::MIN)..=i64::from(u32::MAX))
            .contains(&code)
            .then_some(Status::ExitCode(code))
    }
}

/// The code a newer build names after `; helper bootstrap: ` (closed list).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bootstrap {
    /// `uv_os_get_passwd/ENOMEM`: the user-profile lookup failed for memory.
    PasswdEnomem,
    /// `ERR_MODULE_NOT_FOUND`.
    ErrModuleNotFound,
    /// `MODULE_NOT_FOUND`.
    ModuleNotFound,
    /// `ERR_UNKNOWN_FILE_EXTENSION`.
    UnknownFileExtension,
    /// `EACCES`.
    Eacces,
    /// `EPERM`.
    Eperm,
    /// `ENOMEM`.
    Enomem,
    /// `SyntaxError`.
    SyntaxError,
}

impl Bootstrap {
    /// Every code, with the producer's spelling.
    pub const ALL: [(Bootstrap, &'static str); 8] = [
        (Bootstrap::PasswdEnomem, "uv_os_get_passwd/ENOMEM"),
        (Bootstrap::ErrModuleNotFound, "ERR_MODULE_NOT_FOUND"),
        (Bootstrap::ModuleNotFound, "MODULE_NOT_FOUND"),
        (
            Bootstrap::UnknownFileExtension,
            "ERR_UNKNOWN_FILE_EXTENSION",
        ),
        (Bootstrap::Eacces, "EACCES"),
        (Bootstrap::Eperm, "EPERM"),
        (Bootstrap::Enomem, "ENOMEM"),
        (Bootstrap::SyntaxError, "SyntaxError"),
    ];

    /// The producer's spelling.
    pub fn as_str(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(b, _)| *b == self)
            .map_or("", |(_, s)| s)
    }

    fn parse(raw: &str) -> Option<Self> {
        Self::ALL.iter().find(|(_, s)| *s == raw).map(|(b, _)| *b)
    }
}

/// Which of the producer's two sentences was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Report {
    /// The runner exited before it proved its managed range empty.
    Exited {
        /// How it ended.
        status: Status,
        /// The helper's bootstrap code, when the build appends one.
        bootstrap: Option<Bootstrap>,
    },
    /// A forced termination was not confirmed; ownership is unknown.
    ForcedTermination,
}

/// Where the runner's sentence stood.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Carrier {
    /// It was the failure's whole message.
    Own,
    /// Below the glob/grep wrapper sentence, in the same message.
    GlobWrapper,
}

/// A recognized runner report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// What the runner reported.
    pub report: Report,
    /// Where it stood.
    pub carrier: Carrier,
    /// The producer's line without its envelope: the evidence quoted.
    pub line: Untrusted,
    /// The tool that failed (the caller's text).
    pub tool: Untrusted,
}

/// Reads one line (one envelope allowed) as the runner's report.
pub fn report(line: &str) -> Option<Report> {
    bare_report(envelope::unwrap(line))
}

/// Reads a line whose envelope is already gone as the runner's report.
fn bare_report(bare: &str) -> Option<Report> {
    if bare == FORCED {
        return Some(Report::ForcedTermination);
    }
    let rest = bare.strip_prefix(EXITED_PREFIX)?;
    let (status, after) = rest.split_once(EXITED_TAIL)?;
    let bootstrap = match after {
        "" => None,
        hint => Some(Bootstrap::parse(hint.strip_prefix(BOOTSTRAP_PREFIX)?)?),
    };
    Some(Report::Exited {
        status: Status::parse(status)?,
        bootstrap,
    })
}

/// The report and the line it was read from, when `text` is the runner's
/// sentence alone, or the glob wrapper with the runner's sentence on a later line.
fn read(text: &str) -> Option<(Report, Carrier, &str)> {
    let bare = envelope::unwrap(text);
    let mut lines = bare.lines();
    let first = lines.next()?;
    if is_search_wrapper(first) {
        // The wrapper alone names no cause: the runner's own line must follow.
        return lines.find_map(|line| {
            let line = line.trim_end();
            report(line).map(|r| (r, Carrier::GlobWrapper, envelope::unwrap(line)))
        });
    }
    if lines.next().is_some() {
        return None;
    }
    bare_report(first).map(|r| (r, Carrier::Own, first))
}

/// Recognizes the runner's report; `None` (without allocating) for anything
/// else, a successful result whose output quotes it included.
pub fn recognize(observation: &Observation) -> Option<Finding> {
    let failure = observation.failure()?;
    let text = if failure.message.trim().is_empty() {
        &failure.content
    } else {
        &failure.message
    };
    let (report, carrier, line) = read(text)?;
    Some(Finding {
        report,
        carrier,
        line: Untrusted::new(line),
        tool: Untrusted::new(observation.tool.as_str()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exited(status: Status, bootstrap: Option<Bootstrap>) -> Option<Report> {
        Some(Report::Exited { status, bootstrap })
    }

    fn sentence(status: &str) -> String {
        format!("{EXITED_PREFIX}{status}{EXITED_TAIL}")
    }

    #[test]
    fn every_status_form() {
        for (status, expected) in [
            ("exit code 0", Status::ExitCode(0)),
            ("exit code 1", Status::ExitCode(1)),
            ("exit code 4294967295", Status::ExitCode(4_294_967_295)),
            ("exit code 3221225794", Status::ExitCode(3_221_225_794)),
            ("exit code -1", Status::ExitCode(-1)),
            ("signal SIGKILL", Status::Signal(Untrusted::new("SIGKILL"))),
            ("without an exit status", Status::NoStatus),
        ] {
            assert_eq!(
                report(&sentence(status)),
                exited(expected, None),
                "{status}"
            );
        }
    }

    #[test]
    fn malformed_statuses_are_refused() {
        for status in [
            "exit code ",
            "exit code 01",
            "exit code -0",
            "exit code 4294967296",
            "exit code 99999999999",
            "exit code 1.5",
            "exit code +1",
            "exit code 0x1",
            "signal ",
            "signal SIG",
            "signal sigkill",
            "signal KILL",
            "signal SIGKILL; rm",
            "signal SIGABCDEFGHIJKLMNOP",
            "without exit status",
            "exit  code 0",
        ] {
            assert_eq!(report(&sentence(status)), None, "{status:?}");
        }
    }

    #[test]
    fn the_same_status_in_both_spellings() {
        assert_eq!(Status::ExitCode(-1).unsigned(), Some(u32::MAX));
        assert_eq!(Status::ExitCode(4_294_967_295).unsigned(), Some(u32::MAX));
        assert_eq!(
            Status::ExitCode(-1_073_741_502).unsigned(),
            Some(0xC000_0142)
        );
        assert_eq!(Status::NoStatus.unsigned(), None);
    }

    #[test]
    fn every_bootstrap_code_and_nothing_else() {
        for (code, spelling) in Bootstrap::ALL {
            let line = format!("{}{BOOTSTRAP_PREFIX}{spelling}", sentence("exit code 1"));
            assert_eq!(report(&line), exited(Status::ExitCode(1), Some(code)));
            assert_eq!(code.as_str(), spelling);
        }
        for hint in [
            "; helper bootstrap: ",
            "; helper bootstrap: EIO",
            "; helper: EPERM",
            " EPERM",
        ] {
            let line = format!("{}{hint}", sentence("exit code 1"));
            assert_eq!(report(&line), None, "{hint:?}");
        }
    }

    #[test]
    fn the_forced_termination_sibling() {
        assert_eq!(report(FORCED), Some(Report::ForcedTermination));
        assert_eq!(
            report(&format!("Error: {FORCED}")),
            Some(Report::ForcedTermination)
        );
        assert_eq!(report(&format!("{FORCED}.")), None);
    }

    #[test]
    fn a_longer_line_or_message_is_a_quotation() {
        let own = sentence("exit code 0");
        for text in [
            format!("[log] {own}"),
            format!("{own}."),
            format!("{own}\nmore"),
            format!("note:\n{own}"),
            format!("Error: Error: {own}"),
            format!(" {own}"),
        ] {
            assert_eq!(read(&text).map(|(r, ..)| r), None, "{text:?}");
        }
        assert!(read(&format!("Error: {own}\r\n")).is_some());
    }

    #[test]
    fn the_wrapper_counts_only_with_the_runners_own_sentence() {
        let own = sentence("exit code 0");
        assert_eq!(read(GLOB_WRAPPER), None);
        assert_eq!(read(&format!("{GLOB_WRAPPER}\nsomething else")), None);
        assert_eq!(read(&format!("{GLOB_WRAPPER}\n[log] {own}")), None);
        let wrapped = format!("{GLOB_WRAPPER}\nError: {own}");
        let (r, carrier, line) = read(&wrapped).unwrap();
        assert_eq!(
            (r, carrier, line),
            (
                exited(Status::ExitCode(0), None).unwrap(),
                Carrier::GlobWrapper,
                own.as_str()
            )
        );
        assert_eq!(read(&format!("{own}\n{GLOB_WRAPPER}")), None);
        let grep = GLOB_WRAPPER.replacen("glob", "grep", 1);
        assert!(read(&format!("{grep}\nError: {own}")).is_some());
        assert_eq!(read(&grep), None);
        let other = GLOB_WRAPPER.replacen("glob", "read", 1);
        assert_eq!(read(&format!("{other}\nError: {own}")), None);
    }
}
