//! # family-native-init: a confined child that never started
//!
//! ## What it detects
//!
//! A shell command that ran through the sandbox and exited with
//! `0xC0000142` (`STATUS_DLL_INIT_FAILED`): the Windows loader ended the
//! process while its DLLs were initializing, before the program's entry point.
//! The producer never marks this an error: the runner-failure rule admits only
//! exit 127, so the harness settles the call as a success and renders
//! `[exit code: …]`. The family therefore reads the success result's canonical
//! value — the shipped shell projection, `kind: "foreground"` with an integer
//! `exitCode` — and compares the code modulo 2^32, so the runner's unsigned
//! spelling (3221225794) and the signed one PowerShell and cmd print
//! (-1073741502) both match.
//!
//! ## Why it matters
//!
//! The status names no cause and the command printed nothing of its own, so a
//! model retries a call that can never start. The advisory names the three
//! producers measured under a confining mode (an MSYS2 / Git-Bash program, a
//! runner that owns no console, the restricted token's own input), the check
//! that separates them, and the one conversion the model can make itself.
//!
//! ## What it refuses
//!
//! - Anything but a success value in the shell projection: a failure whose
//!   message carries the code, a command that prints `[exit code: -1073741502]`
//!   while exiting with another code, a `background` or `promoted` value, a
//!   value of another tool that happens to carry `exitCode`, an exit code
//!   written as a string or a float.
//! - Sibling statuses: `0xC0000409` (the MSYS2 runtime's deliberate fast-fail),
//!   `0xC0000135` (a missing DLL), exit 127 (the runner-failure rule owns it).
//! - A value the executor stamped `runnerFailed`: the runner failed, not a child.
//! - It withholds (disclosed once) when the mode cannot be resolved, when the
//!   resolved mode or the executor's stamp is `danger-full-access` (the command
//!   was not spawned through the sandbox), or when the stamp names an unknown
//!   mode. There is no platform gate: the 32-bit status is the evidence, and a
//!   recorded session or a remote runner may deliver it to another OS.

mod advise;
mod gate;
mod producers;
mod recognize;

use advisor_core::{
    Advisory, Anchors, Environment, Family, FamilyDoc, FamilyId, Gate, Observation,
};

pub use gate::{ModeSource, RanUnder, UNRECOGNIZED_STAMP_MODE, ran_under};
pub use recognize::{
    Finding, MSYS2_SIGNAL_PIPE, STATUS_DLL_INIT_FAILED, Stamp, is_dll_init_failed,
};

/// The family's stable id.
pub const ID: FamilyId = FamilyId::new("native-init");

/// A confined child that died with `STATUS_DLL_INIT_FAILED` before its entry point.
#[derive(Debug, Default, Clone, Copy)]
pub struct NativeInit;

impl Family for NativeInit {
    type Finding = Finding;

    fn id(&self) -> FamilyId {
        ID
    }

    fn doc(&self) -> FamilyDoc {
        FamilyDoc {
            recognizes: "a shell command's success value (kind foreground, integer exitCode) whose \
                         exit code is 0xC0000142 STATUS_DLL_INIT_FAILED, signed or unsigned",
            refuses: "printed exit-code markers, failure results, other value shapes, string or \
                      float codes, 0xC0000409, 0xC0000135, exit 127 and runner failures; \
                      withholds when the mode is unresolved or does not confine",
        }
    }

    fn anchors(&self) -> Anchors {
        Anchors::ForegroundRun {
            failed_exit: true,
            denied_stamp: false,
            stderr_needles: &[],
        }
    }

    fn recognize(&self, observation: &Observation) -> Option<Finding> {
        recognize::recognize(observation)
    }

    fn gate(&self, finding: &Finding, env: &Environment) -> Gate {
        gate::gate(finding, env)
    }

    fn advise(&self, finding: &Finding, env: &Environment) -> Advisory {
        advise::advise(finding, env)
    }
}
