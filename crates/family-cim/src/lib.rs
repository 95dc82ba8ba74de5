//! # family-cim — `cim-wmi-denial`
//!
//! ## What it detects
//! A finished shell command (the success carrier: a refused cmdlet is a
//! non-zero exit, which the shell tools report rather than error) whose
//! captured **stderr field** carries `0x80041003` (`WBEM_E_ACCESS_DENIED`)
//! together with at least one of the product's untranslated names:
//! `HRESULT 0x80041003`, `WBEM_E_ACCESS_DENIED`, `CimException`, `CimCmdlets`,
//! `cimv2`. This is PowerShell's own CIM error record; no harness code writes it.
//!
//! ## Why it matters
//! Under a confining Windows mode the ACL backend's restricted token fails the
//! WMI namespace security check, so every CIM cmdlet is refused. Upstream
//! documents that boundary, but the error does not name it, and two neighbouring
//! shapes answer with a wrong value and no error. The advisory quotes upstream's
//! statement, hands over the measured non-CIM substitutes (#9272), names the
//! gap and the silent shapes, and offers no repair.
//!
//! ## What it refuses
//! - The localized sentence as a key (`Access is denied`, `拒绝访问`): the key is the code.
//! - The code without a product name (a quoted or grepped line), and a code
//!   embedded in a longer token (`0x800410031`).
//! - The record anywhere but the value's stderr field: stdout, the rendered
//!   content, a failure result.
//! - Any host but Windows and any mode that does not confine: withheld and
//!   disclosed, as is a mode that cannot be resolved.
//!
//! The registry puts this family before `workspace-denial`, which an English
//! record also satisfies through the executor's `denied: true` stamp.

mod advise;
mod gate;
mod recognize;

use advisor_core::{
    Advisory, Anchors, Environment, Family, FamilyDoc, FamilyId, Gate, HostFacts, Observation,
    PolicyNeed,
};

pub use advise::UPSTREAM_STATEMENT;
pub use recognize::{CODE, CODE_UPPER_X, CimRefusal, PRODUCT_NAMES};

/// The family's stable id.
pub const ID: FamilyId = FamilyId::new("cim-wmi-denial");

/// CIM/WMI refused to the Windows sandbox's restricted token (`0x80041003`).
#[derive(Debug, Default, Clone, Copy)]
pub struct CimWmiDenial;

impl Family for CimWmiDenial {
    type Finding = CimRefusal;

    fn id(&self) -> FamilyId {
        ID
    }

    fn doc(&self) -> FamilyDoc {
        FamilyDoc {
            recognizes: "a finished shell command whose captured stderr carries 0x80041003 with a CIM/WMI product name (HRESULT 0x80041003, WBEM_E_ACCESS_DENIED, CimException, CimCmdlets, cimv2)",
            refuses: "the localized sentence as a key, the code without a product name, the record in stdout, rendered text or a failure, and non-Windows hosts or unconfined modes (withheld)",
        }
    }

    fn anchors(&self) -> Anchors {
        // No exit-code or stamp condition: the recognizer has none either.
        Anchors::ForegroundRun {
            failed_exit: false,
            denied_stamp: false,
            stderr_needles: &[CODE, CODE_UPPER_X],
        }
    }

    fn recognize(&self, observation: &Observation) -> Option<CimRefusal> {
        recognize::recognize(observation)
    }

    fn policy_need(&self, _finding: &CimRefusal, host: &HostFacts) -> PolicyNeed {
        gate::policy_need(host)
    }

    fn gate(&self, _finding: &CimRefusal, env: &Environment) -> Gate {
        gate::gate(env)
    }

    fn advise(&self, finding: &CimRefusal, env: &Environment) -> Advisory {
        advise::advise(finding, env)
    }
}
