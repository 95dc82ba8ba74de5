//! The producer's shape, for the tests that walk every registered family (feature `testing`).

use advisor_core::Observation;
use advisor_core::testing::{ProducerSample, SampleShape, foreground, success};
use serde_json::json;

/// A `pwsh` write to `path` that the executor stamped denied under
/// `workspace-write` (exit 1, the backend's refusal in stderr).
fn denied_write(path: &str) -> Observation {
    let stamp = json!({"mode": "workspace-write", "denied": true, "enforcement": "partial"});
    let mut o = success(
        foreground(1, "", "Access is denied.\r\n", Some(stamp)),
        "[stderr]\nAccess is denied.\r\n[sandbox: file access denied under workspace-write mode]\n[exit code: 1]",
    );
    o.arguments = json!({ "command": format!("Set-Content {path} -Value x") });
    o
}

/// The executor's stamp on a finished shell command; the family reads only the
/// value, never the rendered markers quoted in `quoted`.
pub fn sample() -> ProducerSample {
    ProducerSample {
        shape: SampleShape::Value(denied_write),
        quoted: &[
            "[sandbox: file access denied under workspace-write mode]",
            r#"sandbox: { mode: "workspace-write", denied: true }"#,
            r#"{"sandbox":{"mode":"workspace-write","denied":true,"enforcement":"partial"}}"#,
        ],
    }
}
