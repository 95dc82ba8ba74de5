//! Every fixture in `tests/fixtures/` through the family, one snapshot each;
//! then what a snapshot cannot show, over every fixture at once.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use advisor_core::testing::{Case, fixture_files, host, resolved, unresolved};
use advisor_core::{Family, Gate, Platform, PolicyNeed, Registry, SandboxMode, Unresolved};
use family_temp_root::TempRootInsideWorkspace;

#[test]
fn fixtures() {
    advisor_core::testing::check(
        Registry::builder().family(TempRootInsideWorkspace),
        env!("CARGO_MANIFEST_DIR"),
    );
}

/// A recognized refusal needs no policy and speaks under every host and session: the
/// failure half has no platform gate, no mode gate and no policy lookup.
#[test]
fn every_recognized_refusal_speaks_everywhere_without_the_policy() {
    let family = TempRootInsideWorkspace;
    let envs = [
        resolved(
            Platform::Win32,
            SandboxMode::WorkspaceWrite,
            Some(r"C:\Users\u"),
        ),
        resolved(Platform::Win32, SandboxMode::ReadOnly, Some(r"C:\Users\u")),
        resolved(Platform::Win32, SandboxMode::DangerFullAccess, None),
        resolved(Platform::Linux, SandboxMode::WorkspaceWrite, Some("/ws")),
        unresolved(Platform::Win32, Unresolved::NoPolicyService),
        unresolved(Platform::Macos, Unresolved::NoSession),
    ];
    let mut recognized = 0;
    for path in fixture_files(env!("CARGO_MANIFEST_DIR")) {
        let case = Case::load(&path).unwrap();
        let Some(observation) = case.observation() else {
            continue;
        };
        let Some(found) = family.recognize(observation) else {
            continue;
        };
        recognized += 1;
        for platform in [Platform::Win32, Platform::Linux, Platform::Macos] {
            assert_eq!(
                family.policy_need(&found, &host(platform)),
                PolicyNeed::NotNeeded,
                "{}",
                case.name
            );
        }
        for env in &envs {
            assert_eq!(
                family.gate(&found, env),
                Gate::Speak,
                "{} under {env:?}",
                case.name
            );
        }
    }
    assert!(recognized > 0, "no fixture is recognized");
}
