#![doc = include_str!("../README.md")]

mod advise;
mod brief;
mod gate;
mod recognize;
#[cfg(feature = "testing")]
pub mod testing;

use advisor_core::{Anchors, FamilyId};

pub use advise::UPSTREAM_STATEMENT;
pub use recognize::{CODE, CODE_UPPER_X, CimRefusal, PRODUCT_NAMES};

/// The family's stable id.
pub const ID: FamilyId = FamilyId::new("cim-wmi-denial");

/// The family's structured diagnosis: the cmdlet ran and WMI refused the restricted token; the same query fails the same way under this mode.
pub const DIAGNOSIS: advisor_core::Diagnosis = advisor_core::Diagnosis {
    category: advisor_core::diagnosis::Category::FileAccessDenied,
    phase: advisor_core::diagnosis::Phase::Execute,
    confidence: advisor_core::diagnosis::Confidence::Confirmed,
    source: advisor_core::diagnosis::Source::ShellErrorRecord,
    command_started: advisor_core::diagnosis::CommandStarted::Yes,
    effects: advisor_core::diagnosis::Effects::None,
    retry: advisor_core::diagnosis::Retry::Never,
    remedy_owner: advisor_core::diagnosis::RemedyOwner::User,
};

advisor_core::family! {
    /// CIM/WMI refused to the Windows sandbox's restricted token (`0x80041003`).
    pub struct CimWmiDenial {
        id: ID,
        finding: CimRefusal,
        readme: include_str!("../README.md"),
        // No exit-code or stamp condition: the recognizer has none either.
        anchors: Anchors::ForegroundRun {
            failed_exit: false,
            denied_stamp: false,
            stderr_needles: &[CODE, CODE_UPPER_X],
        },
        recognize: recognize::recognize,
        gate: gate::gate,
        advise: advise::advise,
        policy_need: gate::policy_need,
        diagnose: |_, _| DIAGNOSIS,
        sample: testing::sample(),
    }
}
