//! Every fixture in `tests/fixtures/` through the family, one snapshot each;
//! then what a snapshot cannot show: the policy is looked up only where the
//! gate needs it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test helpers may fail loudly

use advisor_core::testing::{Case, host};
use advisor_core::{Family, Platform, PolicyNeed, Registry};
use family_workspace_denial::{Finding, WorkspaceDenial};

/// The family's finding on a fixture's observation.
fn finding(name: &str) -> Finding {
    let case = Case::named(env!("CARGO_MANIFEST_DIR"), name).unwrap();
    WorkspaceDenial
        .recognize(case.observation().expect("an observation"))
        .unwrap_or_else(|| panic!("{name} must be recognized"))
}

#[test]
fn fixtures() {
    advisor_core::testing::check(
        Registry::builder().family(WorkspaceDenial),
        env!("CARGO_MANIFEST_DIR"),
    );
}

/// A non-Windows host is declined before any policy lookup: the resolver is
/// never asked (the fixtures show the decline, even under a failing resolver).
#[test]
fn a_non_windows_host_is_declined_before_any_policy_lookup() {
    let finding = finding("pos-pwsh-set-content-vendor");
    for platform in [Platform::Linux, Platform::Macos] {
        assert_eq!(
            WorkspaceDenial.policy_need(&finding, &host(platform)),
            PolicyNeed::NotNeeded
        );
    }
}

#[test]
fn a_windows_workspace_write_denial_needs_the_policy() {
    let finding = finding("pos-pwsh-set-content-vendor");
    assert_eq!(
        WorkspaceDenial.policy_need(&finding, &host(Platform::Win32)),
        PolicyNeed::Required
    );
}

/// The stamped mode, the runner marker and the named paths alone decide
/// these without the resolver.
#[test]
fn stamped_refusals_need_no_policy() {
    for name in [
        "ctl-read-only-mode",
        "ctl-danger-full-access-denied",
        "ctl-runner-failed",
        "ctl-relative-only",
        "ctl-variable-rooted-path",
        "ctl-trailing-space-escape",
        "ctl-too-many-paths",
    ] {
        assert_eq!(
            WorkspaceDenial.policy_need(&finding(name), &host(Platform::Win32)),
            PolicyNeed::NotNeeded,
            "{name}"
        );
    }
}

#[test]
fn paths_are_read_only_where_the_gate_could_speak() {
    // Each of these names the same inside path; only a workspace-write stamp
    // without a runner failure is worth the scan.
    for (name, scanned) in [
        ("pos-pwsh-set-content-vendor", true),
        ("ctl-read-only-mode", false),
        ("ctl-danger-full-access-denied", false),
        ("ctl-runner-failed", false),
    ] {
        assert_eq!(!finding(name).named.paths.is_empty(), scanned, "{name}");
    }
}
