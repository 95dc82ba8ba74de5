//! The pure predicate: a finished foreground command whose exit code is
//! `STATUS_DLL_INIT_FAILED`, read from the success value and nowhere else.

use advisor_core::shell::ForegroundRun;
use advisor_core::{Observation, Outcome, SandboxMode, Untrusted};

/// `STATUS_DLL_INIT_FAILED`, the 32-bit NTSTATUS this family recognizes.
pub const STATUS_DLL_INIT_FAILED: u32 = 0xC000_0142;

/// The line the MSYS2 runtime wrote to stderr in the Git-Bash measurement (#7877).
pub const MSYS2_SIGNAL_PIPE: &str = "couldn't create signal pipe";

/// What the recognizer read from a confined child that never started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The exit code exactly as the value carried it (signed or unsigned spelling).
    pub reported: i64,
    /// The executor's record of the mode the call ran under.
    pub stamp: Stamp,
    /// True when stderr carries the MSYS2 runtime's signal-pipe line (#7877).
    pub msys2_signal_pipe: bool,
    /// The command that never started, when the arguments name one. It is the
    /// caller's text, so it is held as [`Untrusted`] and shown only as a quote
    /// block.
    pub command: Option<Untrusted>,
}

/// The `sandbox` stamp's mode, as the executor wrote it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stamp {
    /// The value carries no sandbox stamp.
    Absent,
    /// The stamp names a mode of the harness's vocabulary.
    Mode(SandboxMode),
    /// The stamp names a mode outside that vocabulary.
    Unrecognized,
}

impl Stamp {
    fn read(mode: Option<&str>) -> Self {
        match mode {
            None => Stamp::Absent,
            Some(raw) => SandboxMode::ALL
                .into_iter()
                .find(|m| m.as_str() == raw)
                .map_or(Stamp::Unrecognized, Stamp::Mode),
        }
    }
}

/// True when `code` is a 32-bit spelling of `STATUS_DLL_INIT_FAILED`.
///
/// The runner mirrors the child's status unsigned (3221225794); PowerShell and
/// cmd print the signed view (-1073741502). The code is compared modulo 2^32,
/// and only within the range a 32-bit status can be spelled in, so a number no
/// Windows exit status can be is never read as one.
pub fn is_dll_init_failed(code: i64) -> bool {
    (i64::from(i32::MIN)..=i64::from(u32::MAX)).contains(&code)
        && code.rem_euclid(1 << 32) == i64::from(STATUS_DLL_INIT_FAILED)
}

/// The exit code and projection of a success's shell value; nothing from a failure.
fn foreground_exit(outcome: &Outcome) -> Option<(i64, ForegroundRun<'_>)> {
    match outcome {
        Outcome::Success(success) => {
            let run = ForegroundRun::read(&success.value)?;
            Some((run.exit_code?, run))
        }
        Outcome::Failure(_) => None,
    }
}

/// Recognizes a confined child that died with `STATUS_DLL_INIT_FAILED`.
///
/// Reads only a success result's canonical value, only in the shipped shell
/// projection (`kind: "foreground"`, integer `exitCode`). The rendered text is
/// never read, so a command that prints an exit-code marker is not this family.
/// A value the executor stamped `runnerFailed` is the runner's own failure, not
/// a child that never started, and is refused. Allocates only on a match.
pub fn recognize(observation: &Observation) -> Option<Finding> {
    let (code, run) = foreground_exit(&observation.outcome)?;
    if !is_dll_init_failed(code) {
        return None;
    }
    if run.sandbox.is_some_and(|s| s.runner_failed) {
        return None;
    }
    let msys2_signal_pipe = run.stderr.is_some_and(|e| e.contains(MSYS2_SIGNAL_PIPE));
    let command = observation
        .arguments
        .get("command")
        .and_then(|c| c.as_str())
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(Untrusted::new);
    Some(Finding {
        reported: code,
        stamp: Stamp::read(run.sandbox.map(|s| s.mode)),
        msys2_signal_pipe,
        command,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_spellings_are_the_same_status() {
        assert!(is_dll_init_failed(-1_073_741_502));
        assert!(is_dll_init_failed(3_221_225_794));
    }

    #[test]
    fn sibling_statuses_are_refused() {
        for code in [
            -1_073_740_791, // 0xC0000409 signed
            3_221_226_505,  // 0xC0000409 unsigned
            -1_073_741_515, // 0xC0000135 signed
            3_221_225_781,  // 0xC0000135 unsigned
            -1_073_741_790, // 0xC0000022 signed
            127,
            1,
            0,
            0x0142,
        ] {
            assert!(!is_dll_init_failed(code), "{code} must be refused");
        }
    }

    #[test]
    fn numbers_outside_32_bits_are_refused() {
        assert!(!is_dll_init_failed(3_221_225_794 + (1 << 32)));
        assert!(!is_dll_init_failed(-1_073_741_502 - (1 << 32)));
        assert!(!is_dll_init_failed(i64::MIN));
        assert!(!is_dll_init_failed(i64::MAX));
    }

    #[test]
    fn stamp_modes_are_read_without_guessing() {
        assert_eq!(Stamp::read(None), Stamp::Absent);
        assert_eq!(
            Stamp::read(Some("workspace-write")),
            Stamp::Mode(SandboxMode::WorkspaceWrite)
        );
        assert_eq!(Stamp::read(Some("Workspace-Write")), Stamp::Unrecognized);
    }
}
