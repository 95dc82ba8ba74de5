//! The producer's shape, for the tests that walk every registered family (feature `testing`).

use advisor_core::Observation;
use advisor_core::testing::{ProducerSample, SampleShape, foreground, success};
use serde_json::json;

/// A confined child that never started: the shell projection with exit
/// `-1073741502` under a workspace-write stamp, its command the operand.
fn dll_init_failed(command: &str) -> Observation {
    let stamp = json!({"mode": "workspace-write", "denied": false, "enforcement": "partial"});
    let mut o = success(
        foreground(-1_073_741_502, "", "", Some(stamp)),
        "(no output)\n[exit code: -1073741502]",
    );
    o.arguments = json!({ "command": command });
    o
}

/// The shell's settled value; the family reads only the value, never the
/// rendered `[exit code: …]` line.
pub fn sample() -> ProducerSample {
    ProducerSample {
        shape: SampleShape::Value(dll_init_failed),
        quoted: &["[exit code: -1073741502]", "[exit code: 3221225794]"],
    }
}
