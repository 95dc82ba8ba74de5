#![doc = include_str!("../README.md")]

mod advise;
mod brief;
pub mod desktop;
mod found;
mod gate;
mod producers;
mod recognize;
#[cfg(feature = "testing")]
pub mod testing;
mod trampoline;

use advisor_core::{Anchors, FamilyId, ToolScope};

pub use desktop::{CONSOLE_FIX_IN, TrampolineFinding, TrampolineLine};
pub use found::Found;
pub use gate::{ModeSource, RanUnder, UNRECOGNIZED_STAMP_MODE, ran_under};
pub use recognize::{
    Finding, MSYS2_SIGNAL_PIPE, STATUS_DLL_INIT_FAILED, Stamp, is_dll_init_failed,
};

/// The family's stable id.
pub const ID: FamilyId = FamilyId::new("native-init");

/// The family's structured diagnosis: the process was created but died in the loader before its entry point; one of several producers fits, so the check decides.
pub const DIAGNOSIS: advisor_core::Diagnosis = advisor_core::diagnosis!(
    category: CommandFailed, phase: Spawn, confidence: Suspected, source: Runner,
    command_started: No, effects: None, retry: AfterRemedy, remedy_owner: User
);

advisor_core::family! {
    /// A confined child that died with `STATUS_DLL_INIT_FAILED` before its entry point.
    pub struct NativeInit {
        id: ID,
        finding: Found,
        readme: include_str!("../README.md"),
        hosts: &[advisor_core::Host::Dsh],
        // Two carriers: a success value and, since issue 24, the desktop
        // trampoline's line inside a runner failure.
        anchors: Anchors::ForegroundRunOrFailureText {
            failed_exit: true,
            denied_stamp: false,
            stderr_needles: &[],
            needles: &[desktop::TRAMPOLINE_MARKER],
        },
        recognize: found::recognize,
        gate: found::gate,
        advise: found::advise,
        tools: ToolScope::SandboxProcess,
        policy_need: found::policy_need,
        diagnose: |_, _| DIAGNOSIS,
        sample: testing::sample(),
    }
}
