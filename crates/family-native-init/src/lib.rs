#![doc = include_str!("../README.md")]

mod advise;
mod gate;
mod producers;
mod recognize;
#[cfg(feature = "testing")]
pub mod testing;

use advisor_core::{Anchors, FamilyId};

pub use gate::{ModeSource, RanUnder, UNRECOGNIZED_STAMP_MODE, ran_under};
pub use recognize::{
    Finding, MSYS2_SIGNAL_PIPE, STATUS_DLL_INIT_FAILED, Stamp, is_dll_init_failed,
};

/// The family's stable id.
pub const ID: FamilyId = FamilyId::new("native-init");

advisor_core::family! {
    /// A confined child that died with `STATUS_DLL_INIT_FAILED` before its entry point.
    pub struct NativeInit {
        id: ID,
        finding: Finding,
        readme: include_str!("../README.md"),
        anchors: Anchors::ForegroundRun {
            failed_exit: true,
            denied_stamp: false,
            stderr_needles: &[],
        },
        recognize: recognize::recognize,
        gate: gate::gate,
        advise: advise::advise,
        sample: testing::sample(),
    }
}
