//! The producer's shape, for the tests that walk every registered family (feature `testing`).

use advisor_core::testing::{ProducerSample, SampleShape};

/// The provider's throw around a workspace operand, with the temp root inside it.
/// The family reads the failure's message under core's one envelope rule; any
/// other prefix means something is quoting it.
pub fn sample() -> ProducerSample {
    ProducerSample {
        shape: SampleShape::Message(|dir| {
            format!(
                "Windows ACL temp root must be outside the workspace: workspace={dir}; temp={dir}\\tmp"
            )
        }),
        quoted: &[
            r"Windows ACL temp root must be outside the workspace: workspace=D:\ws; temp=D:\ws\tmp",
        ],
    }
}
