//! The producer's shape, for the tests that walk every registered family (feature `testing`).

use advisor_core::testing::{ProducerSample, SampleShape};

/// The provider's `Win32Error` for the apply, around the directory it refused.
pub fn sample() -> ProducerSample {
    ProducerSample {
        shape: SampleShape::Message(|path| {
            format!("SetNamedSecurityInfoW failed (Win32 5): grantWrite({path})")
        }),
        quoted: &[
            r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)",
            r"GetNamedSecurityInfoW failed (Win32 5): D:\ws",
            r"windows-acl-run: SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)",
        ],
    }
}
