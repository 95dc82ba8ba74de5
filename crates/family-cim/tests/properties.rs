//! Properties over arbitrary stderr: no code, no finding; the record is found
//! wherever it sits in the stream; nothing panics.

#![allow(clippy::unwrap_used, clippy::panic)] // test helpers outside #[test] fns

use advisor_core::Family;
use advisor_core::testing::{foreground, success};
use family_cim::CimWmiDenial;
use proptest::prelude::*;

const RECORD: &str = "Get-CimInstance : Access is denied\n+ CategoryInfo : PermissionDenied: (root\\cimv2:Win32_OperatingSystem) [Get-CimInstance], CimException\n+ FullyQualifiedErrorId : HRESULT 0x80041003,Microsoft.Management.Infrastructure.CimCmdlets.GetCimInstanceCommand";

fn recognized(stderr: &str, stdout: &str) -> bool {
    let obs = success(foreground(1, stdout, stderr, None), "");
    CimWmiDenial.recognize(&obs).is_some()
}

proptest! {
    #[test]
    fn stderr_without_the_code_is_never_recognized(stderr in any::<String>(), stdout in any::<String>()) {
        prop_assume!(!stderr.contains("80041003"));
        let stdout = format!("{stdout}\n{RECORD}");
        prop_assert!(!recognized(&stderr, &stdout));
    }

    #[test]
    fn the_record_is_found_between_other_lines(before in "[ -~]{0,80}", after in "[ -~]{0,80}") {
        let stderr = format!("{before}\n{RECORD}\n{after}");
        prop_assert!(recognized(&stderr, ""));
    }
}
