//! No platform or mode gate: the sentence states both; the resolver is never asked.

#![allow(clippy::unwrap_used, clippy::panic)] // test helpers outside #[test] fns

mod common;

use advisor_core::Platform;
use common::{Expect, check, on};

#[test]
fn speaks_without_a_policy_on_windows() {
    check("temp_half", on(Platform::Win32), Expect::Speaks);
    check("workspace_half", on(Platform::Win32), Expect::Speaks);
}

#[test]
fn speaks_without_a_platform_gate() {
    // The producer is Windows-only; a host reporting another platform changes nothing.
    for platform in [Platform::Linux, Platform::Macos] {
        check("temp_half", on(platform), Expect::Speaks);
    }
}
