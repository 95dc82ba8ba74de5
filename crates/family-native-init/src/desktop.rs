//! The desktop app's part of this family (issue 24).
//!
//! 1. On the Electron desktop app, `0xC0000142` on every one-shot `pwsh` call
//!    is a desktop bug (desktop issue 971 and its duplicates): Electron owns no
//!    console, so Windows builds the restricted child's console host with the
//!    restricted token, which fails. Desktop 2.0.11 starts the runner through
//!    a trampoline that allocates (and hides) a console first (desktop PR 990).
//!    [`update_line`] says so, with the version branch.
//! 2. That trampoline has failure lines of its own. Each is written as a
//!    `windows-acl-run:` line with exit 127, so it arrives as the detail of a
//!    `SandboxUnavailableError`. [`recognize`] reads the two lines; they were
//!    read in source and have never been seen in a report.

use advisor_core::brief::fill;
use advisor_core::{
    Environment, HostBinary, HostVersion, Locale, Observation, Platform, SandboxMode, Untrusted,
    VersionFact, envelope,
};

/// The first desktop release whose runner gets a console from the trampoline.
pub const CONSOLE_FIX_IN: HostVersion = HostVersion::new(2, 0, 11);

/// `SandboxUnavailableError`'s message up to the mode.
const UNAVAILABLE_HEAD: &str = "sandbox mode \"";

/// `SandboxUnavailableError`'s message from the mode to its detail.
const UNAVAILABLE_TAIL: &str = "\" is requested but no sandbox backend is usable on this host; \
refusing to run the command unconfined. Install bubblewrap or run a Landlock-enforcing kernel \
(Linux), ensure sandbox-exec is usable (macOS), or ensure the ACL restricted-token runner can \
start (Windows) — otherwise switch the consumer to danger-full-access. Runner failure: ";

/// What the trampoline writes in front of its own failure's message.
pub const TRAMPOLINE_MARKER: &str = "windows-acl-run: desktop trampoline: ";

/// The console allocation failure, up to its Win32 code.
pub const NO_CONSOLE_HEAD: &str = "could not allocate a console for the Windows ACL runner (Win32 ";

/// The runner-path check's failure.
pub const UNEXPECTED_RUNNER: &str = "desktop trampoline received an unexpected ACL runner";

/// Which trampoline line it was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrampolineLine {
    /// `AllocConsole` failed; the Win32 code `GetLastError` returned.
    NoConsole {
        /// The decimal Win32 error code.
        win32: u32,
    },
    /// The runner path it was handed is not the one it resolves itself.
    UnexpectedRunner,
}

/// A trampoline line read from a runner failure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrampolineFinding {
    /// The line.
    pub line: TrampolineLine,
    /// The mode the error names.
    pub mode: SandboxMode,
    /// The runner's line (`windows-acl-run: …`), the evidence quoted.
    pub detail: Untrusted,
}

/// Reads a failure whose message is a `SandboxUnavailableError` carrying one of
/// the trampoline's two lines as its whole detail; `None` for anything else.
pub fn recognize(observation: &Observation) -> Option<TrampolineFinding> {
    let message = envelope::unwrap(&observation.failure()?.message);
    let rest = message.strip_prefix(UNAVAILABLE_HEAD)?;
    let (mode, detail) = rest.split_once(UNAVAILABLE_TAIL)?;
    let mode = SandboxMode::ALL.into_iter().find(|m| m.as_str() == mode)?;
    let line = match detail.strip_prefix(TRAMPOLINE_MARKER)? {
        UNEXPECTED_RUNNER => TrampolineLine::UnexpectedRunner,
        other => {
            let code = other.strip_prefix(NO_CONSOLE_HEAD)?.strip_suffix(')')?;
            let plain = !code.is_empty()
                && code.len() <= 10
                && code.bytes().all(|b| b.is_ascii_digit())
                && (code == "0" || !code.starts_with('0'));
            if !plain {
                return None;
            }
            TrampolineLine::NoConsole {
                win32: code.parse().ok()?,
            }
        }
    };
    Some(TrampolineFinding {
        line,
        mode,
        detail: Untrusted::new(detail),
    })
}

/// True on the Electron desktop app on Windows, where the update applies.
pub fn on_desktop(env: &Environment) -> bool {
    env.host.platform == Platform::Win32 && env.host.binary == HostBinary::Electron
}

/// The update remedy for the desktop app, with its version branch: `Some`
/// on the Electron desktop app when the configured version lacks the fix or
/// is unknown; `None` on any other host or when the fix is known present
/// ([`fix_present_note`] speaks then).
pub fn update_line(env: &Environment) -> Option<String> {
    if !on_desktop(env) {
        return None;
    }
    let zh = env.locale == Locale::ZhCn;
    match env.desktop_version(CONSOLE_FIX_IN) {
        VersionFact::Before(v) => Some(fill(
            if zh {
                "先把 Desktop 更新到 2.0.11 或更高版本（配置的版本是 {v}）：从 2.0.11 起，\
                 桌面应用先为 runner 分配一个控制台再启动它（desktop PR 990），修复了这个状态。"
            } else {
                "Update Desktop to 2.0.11 or later (configured: {v}): from 2.0.11 the app \
                 gives the runner a console first (desktop PR 990)."
            },
            &[("v", &v.to_string())],
        )),
        VersionFact::AtOrAfter(_) => None,
        VersionFact::Unknown => Some(
            if zh {
                "Desktop 2.0.11 之前：更新到 2.0.11 或更高版本，它先为 runner 分配控制台\
                 （desktop PR 990）。2.0.11 及以后：该修复已在，请检查其他成因。"
            } else {
                "On Desktop before 2.0.11: update to 2.0.11 or later, which gives the runner a \
                 console (desktop PR 990). On 2.0.11 or later: check the other causes."
            }
            .to_owned(),
        ),
    }
}

/// On the desktop app with a configured version that has the fix: say that
/// updating will not help. `None` otherwise.
pub fn fix_present_note(env: &Environment) -> Option<String> {
    if !on_desktop(env) {
        return None;
    }
    match env.desktop_version(CONSOLE_FIX_IN) {
        VersionFact::AtOrAfter(v) => Some(fill(
            if env.locale == Locale::ZhCn {
                "配置的版本 {v} 已包含 2.0.11 的控制台修复，更新无济于事；请按上面的检查找出成因。"
            } else {
                "The configured version, {v}, already has the console fix of 2.0.11, so \
                 updating will not help; the checks above tell the cause."
            },
            &[("v", &v.to_string())],
        )),
        VersionFact::Before(_) | VersionFact::Unknown => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use advisor_core::testing::failure as observation_failure;

    fn read(detail: &str) -> Option<TrampolineLine> {
        let message = format!("sandbox mode \"workspace-write{UNAVAILABLE_TAIL}{detail}");
        recognize(&observation_failure(&message)).map(|f| f.line)
    }

    #[test]
    fn both_lines_and_nothing_else() {
        for (detail, expected) in [
            (
                "windows-acl-run: desktop trampoline: could not allocate a console for the Windows ACL runner (Win32 5)",
                Some(TrampolineLine::NoConsole { win32: 5 }),
            ),
            (
                "windows-acl-run: desktop trampoline: desktop trampoline received an unexpected ACL runner",
                Some(TrampolineLine::UnexpectedRunner),
            ),
            (
                "windows-acl-run: desktop trampoline: could not allocate a console for the Windows ACL runner (Win32 )",
                None,
            ),
            (
                "windows-acl-run: desktop trampoline: could not allocate a console for the Windows ACL runner (Win32 05)",
                None,
            ),
            (
                "windows-acl-run: desktop trampoline: could not allocate a console for the Windows ACL runner (Win32 5) x",
                None,
            ),
            (
                "windows-acl-run: desktop trampoline: could not allocate a console for the Windows ACL runner (Win32 -5)",
                None,
            ),
            (
                "windows-acl-run: desktop trampoline: could not allocate a console for the Windows ACL runner (Win32 99999999999)",
                None,
            ),
            (
                "windows-acl-run: could not allocate a console for the Windows ACL runner (Win32 5)",
                None,
            ),
            (
                "windows-acl-run: desktop trampoline: desktop trampoline received an unexpected ACL runner.",
                None,
            ),
            (
                "windows-acl-run: desktop trampoline: Cannot find module",
                None,
            ),
            (
                "windows-acl-run: desktop trampoline: could not allocate a console for the Windows ACL runner (Win32 +5)",
                None,
            ),
            (
                "desktop trampoline: desktop trampoline received an unexpected ACL runner",
                None,
            ),
            (
                "[log] desktop trampoline: desktop trampoline received an unexpected ACL runner",
                None,
            ),
        ] {
            assert_eq!(read(detail), expected, "{detail:?}");
        }
    }

    #[test]
    fn the_line_alone_or_under_an_unknown_mode_is_not_the_error() {
        let line = "windows-acl-run: desktop trampoline: desktop trampoline received an unexpected ACL runner";
        assert_eq!(recognize(&observation_failure(line)), None);
        let message = format!("sandbox mode \"full{UNAVAILABLE_TAIL}{line}");
        assert_eq!(recognize(&observation_failure(&message)), None);
        let message = format!("[log] sandbox mode \"read-only{UNAVAILABLE_TAIL}{line}");
        assert_eq!(recognize(&observation_failure(&message)), None);
    }
}
