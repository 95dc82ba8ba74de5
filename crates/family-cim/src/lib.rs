#![doc = include_str!("../README.md")]

mod advise;
mod brief;
mod facts;
mod gate;
mod recognize;
#[cfg(feature = "testing")]
pub mod testing;

use advisor_core::{Anchors, FamilyId, ToolScope};

pub use advise::UPSTREAM_STATEMENT;
pub use recognize::{CODE, CODE_UPPER_X, CimRefusal, PRODUCT_NAMES};

/// The family's stable id.
pub const ID: FamilyId = FamilyId::new("cim-wmi-denial");

/// The family's structured diagnosis: the cmdlet ran and WMI refused the restricted token; the same query fails the same way under this mode.
pub const DIAGNOSIS: advisor_core::Diagnosis = advisor_core::diagnosis!(
    category: FileAccessDenied, phase: Execute, confidence: Confirmed, source: ShellErrorRecord,
    command_started: Yes, effects: None, retry: Never, remedy_owner: User
);

advisor_core::family! {
    /// CIM/WMI refused to the Windows sandbox's restricted token (`0x80041003`).
    pub struct CimWmiDenial {
        id: ID,
        finding: CimRefusal,
        readme: include_str!("../README.md"),
        hosts: &[advisor_core::Host::Dsh],
        // No exit-code or stamp condition: the recognizer has none either.
        anchors: Anchors::ForegroundRun {
            failed_exit: false,
            denied_stamp: false,
            stderr_needles: &[CODE, CODE_UPPER_X],
        },
        recognize: recognize::recognize,
        gate: gate::gate,
        advise: advise::advise,
        tools: ToolScope::SandboxProcess,
        policy_need: gate::policy_need,
        diagnose: |_, _| DIAGNOSIS,
        sample: testing::sample(),
    }
}
