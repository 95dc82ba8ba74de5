//! What the brief and the detail both read: the known cause a report fits,
//! the release that fixed the desktop one, and how the tool is named.

use advisor_core::{Environment, HostBinary, HostVersion, VersionFact};

use crate::recognize::{Finding, Report, Status};

/// The first desktop release whose Windows runner is started with
/// `ELECTRON_RUN_AS_NODE=1` (harness PRs #927 and #931; Desktop 2.0.9).
pub const FIXED_IN: HostVersion = HostVersion::new(2, 0, 9);

/// `0xFFFFFFFF`: the status of a runner whose `node.exe` was stopped from outside.
pub const STOPPED: u32 = u32::MAX;

/// `0xC0000142` (`STATUS_DLL_INIT_FAILED`), reported once process creation on the host had degraded.
pub const DLL_INIT_FAILED: u32 = 0xC000_0142;

/// The cause a report fits, from the reports the reference collects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// `exit code 0` on the desktop app: its runner started a second GUI
    /// instance instead of Node; fixed in [`FIXED_IN`]. With the version fact.
    DesktopLaunch(VersionFact),
    /// `exit code 4294967295`: the runner's `node.exe` was stopped by another command.
    RunnerStopped,
    /// `exit code 1`: a process left running in the job (an MSVC `vctip.exe` in the report).
    LeftBehind,
    /// `exit code 3221225794`: process creation on the host had degraded for every call.
    HostDegraded,
    /// The forced-termination sibling: a cancelled call whose processes may still run.
    Unconfirmed,
    /// A newer build's bootstrap hint: the helper failed while starting, and
    /// the producer named the code; the status says nothing more.
    HelperBootstrap,
    /// Nothing reported fits; say what is known and stop.
    Unknown,
}

/// The cause this finding fits on this host.
pub fn cause(finding: &Finding, env: &Environment) -> Cause {
    let status = match &finding.report {
        Report::ForcedTermination => return Cause::Unconfirmed,
        Report::Exited {
            bootstrap: Some(_), ..
        } => return Cause::HelperBootstrap,
        Report::Exited { status, .. } => status,
    };
    match status.unsigned() {
        Some(0) if env.host.binary == HostBinary::Electron => {
            Cause::DesktopLaunch(env.desktop_version(FIXED_IN))
        }
        Some(STOPPED) => Cause::RunnerStopped,
        Some(1) => Cause::LeftBehind,
        Some(DLL_INIT_FAILED) => Cause::HostDegraded,
        _ => Cause::Unknown,
    }
}

/// The status as the advisory names it (`exit code 0`, `signal …`, `no exit status`).
pub fn status_of(finding: &Finding) -> Option<&Status> {
    match &finding.report {
        Report::Exited { status, .. } => Some(status),
        Report::ForcedTermination => None,
    }
}

/// The longest tool mention the brief carries, its code span included;
/// a longer name becomes "this tool", so a hostile name cannot eat the budget.
pub const TOOL_MAX_CHARS: usize = 34;

/// The tool as the brief names it: its inline span, or `None` when too long
/// (the brief then says "this tool" in its locale).
pub(crate) fn tool_mention(finding: &Finding) -> Option<String> {
    let span = finding.tool.inline().to_string();
    (span.chars().count() <= TOOL_MAX_CHARS).then_some(span)
}
