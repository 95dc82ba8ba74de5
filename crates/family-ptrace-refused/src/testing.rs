//! The producer's shape, for the tests that walk every registered family (feature `testing`).

use advisor_core::testing::{ProducerSample, SampleShape};
use advisor_core::{Failure, Observation};
use serde_json::json;

/// strace refused under Gemini CLI's sandbox, as `hook --dialect gemini-cli`
/// reads it: the output as the message, Gemini's mark as the code. The
/// operand is the traced program.
fn refused(program: &str) -> Observation {
    let output = format!(
        "strace: test_ptrace_get_syscall_info: PTRACE_TRACEME: Operation not permitted\n{}",
        crate::TRACEME
    );
    let mut o = advisor_core::testing::failure(&output);
    if let advisor_core::Outcome::Failure(f) = &mut o.outcome {
        *f = Failure {
            content: output.clone(),
            message: output,
            members: Vec::new(),
            code: Some(crate::MARKER.to_owned()),
        };
    }
    o.arguments = json!({ "command": format!("strace -f -o /dev/null {program}") });
    o
}

/// The refusal; its line quoted in a log is not recognized.
pub fn sample() -> ProducerSample {
    ProducerSample {
        shape: SampleShape::Value(refused),
        quoted: &[crate::TRACEME],
    }
}
