//! The mode gate: speak only under the confining mode the failing call ran under.

mod common;

use advisor_core::{
    Environment, Family, HostBinary, Platform, PolicyNeed, PolicyState, SandboxMode, Unresolved,
};
use common::{Expect, check, desktop, env, load, unresolvable};
use family_pty::PtyStartup;

#[test]
fn workspace_write_speaks() {
    check(
        "pos-bash-exit",
        &desktop(SandboxMode::WorkspaceWrite),
        Expect::Speak,
    );
}

#[test]
fn read_only_speaks() {
    check(
        "pos-bash-exit",
        &desktop(SandboxMode::ReadOnly),
        Expect::Speak,
    );
}

#[test]
fn confining_mode_speaks_on_a_host_that_is_not_electron() {
    let e = env(
        SandboxMode::WorkspaceWrite,
        HostBinary::NotElectron,
        Platform::Win32,
    );
    check("pos-pwsh-exit", &e, Expect::Speak);
}

#[test]
fn danger_full_access_withholds() {
    check(
        "pos-bash-exit",
        &desktop(SandboxMode::DangerFullAccess),
        Expect::Withhold("unconfined-mode"),
    );
}

#[test]
fn no_policy_service_withholds() {
    check(
        "pos-bash-exit",
        &unresolvable(Unresolved::NoPolicyService),
        Expect::Withhold("no-policy-service"),
    );
}

#[test]
fn no_session_withholds() {
    check(
        "pos-bash-exit",
        &unresolvable(Unresolved::NoSession),
        Expect::Withhold("no-session"),
    );
}

#[test]
fn resolver_error_withholds() {
    check(
        "pos-bash-exit",
        &unresolvable(Unresolved::ResolverError("boom".into())),
        Expect::Withhold("resolver-error"),
    );
}

/// A policy never consulted is not a mode: withhold, never assume a default.
#[test]
fn unconsulted_policy_withholds() {
    let e = Environment {
        policy: PolicyState::NotConsulted,
        ..desktop(SandboxMode::WorkspaceWrite)
    };
    check("pos-bash-exit", &e, Expect::Withhold("no-policy-service"));
}

/// The gate needs the mode the call ran under, so the resolver is always consulted.
#[test]
fn the_policy_is_always_required() {
    let finding = PtyStartup.recognize(&load("pos-bash-exit")).unwrap();
    for e in [
        desktop(SandboxMode::WorkspaceWrite),
        env(
            SandboxMode::ReadOnly,
            HostBinary::NotElectron,
            Platform::Linux,
        ),
    ] {
        assert_eq!(
            PtyStartup.policy_need(&finding, &e.host),
            PolicyNeed::Required
        );
    }
}

/// Not covered by the fail-fast budget, by type: `PtyStartup` does not
/// implement `FailFast` (the compile-time half is a `compile_fail` doctest in
/// `src/lib.rs`; this probe lets a test binary see it too).
#[test]
fn is_not_a_fail_fast_family() {
    use std::marker::PhantomData;
    struct Probe<T>(PhantomData<T>);
    #[allow(dead_code)] // chosen only when `T: FailFast`
    trait Specific {
        fn fail_fast(&self) -> bool {
            true
        }
    }
    impl<T: advisor_core::FailFast> Specific for Probe<T> {}
    trait General {
        fn fail_fast(&self) -> bool {
            false
        }
    }
    impl<T> General for &Probe<T> {}
    assert!(!(&Probe::<PtyStartup>(PhantomData)).fail_fast());
    let registry = advisor_core::Registry::builder()
        .family(PtyStartup)
        .build()
        .unwrap();
    assert_eq!(registry.fail_fast_family(), None);
}
