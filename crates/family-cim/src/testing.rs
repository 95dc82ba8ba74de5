//! The producer's shape, for the tests that walk every registered family (feature `testing`).

use advisor_core::Observation;
use advisor_core::testing::{ProducerSample, SampleShape, foreground, success};
use serde_json::json;

/// PowerShell's own CIM error record, as #9272 reported it.
const RECORD: &str = "Get-CimInstance : Access is denied\n+ CategoryInfo : PermissionDenied: (root\\cimv2:Win32_OperatingSystem) [Get-CimInstance], CimException\n+ FullyQualifiedErrorId : HRESULT 0x80041003,Microsoft.Management.Infrastructure.CimCmdlets.GetCimInstanceCommand";

/// A refused `Get-CimInstance`: the record on stderr, the operand on the line after it.
fn refused(detail: &str) -> Observation {
    let stamp = json!({"mode": "workspace-write", "denied": true, "enforcement": "partial"});
    let stderr = format!("{RECORD}\n{detail}");
    let mut o = success(
        foreground(1, "", &stderr, Some(stamp)),
        &format!("[stderr]\n{stderr}\n[exit code: 1]"),
    );
    o.arguments = json!({"command": "Get-CimInstance Win32_OperatingSystem"});
    o
}

/// The shell's settled value; the family reads only its stderr field, never
/// the rendered content.
pub fn sample() -> ProducerSample {
    ProducerSample {
        shape: SampleShape::Value(refused),
        quoted: &[RECORD],
    }
}
