//! The mode gate where a fixture cannot reach it: a policy never consulted,
//! the policy need, and the budget role. Every resolved and unresolved mode
//! is a fixture (`ctl-bash-exit-*`, `pos-*-read-only`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use advisor_core::testing::{Case, Verdict, verdict};
use advisor_core::{Family, PolicyNeed, PolicyState};
use family_pty::PtyStartup;

fn case(name: &str) -> Case {
    Case::named(env!("CARGO_MANIFEST_DIR"), name).expect("the fixture loads")
}

/// A policy never consulted is not a mode: withhold, never assume a default.
#[test]
fn unconsulted_policy_withholds() {
    let case = case("pos-msys-bash-electron");
    let observation = case.observation().expect("an observation");
    let env = case.environment(false);
    assert_eq!(env.policy, PolicyState::NotConsulted);
    assert_eq!(
        verdict(&PtyStartup, observation, &env),
        Verdict::Withhold("no-policy-service")
    );
}

/// The gate needs the mode the call ran under, so the resolver is always consulted.
#[test]
fn the_policy_is_always_required() {
    for name in ["pos-msys-bash-electron", "pos-bash-exit-linux"] {
        let case = case(name);
        let finding = PtyStartup
            .recognize(case.observation().expect("an observation"))
            .expect("recognized");
        assert_eq!(
            PtyStartup.policy_need(&finding, &case.host),
            PolicyNeed::Required,
            "{name}"
        );
    }
}

/// Not covered by the fail-fast budget, by type: `PtyStartup` does not
/// implement `FailFast` (the compile-time half is a `compile_fail` doctest in
/// the README; this probe lets a test binary see it too).
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
        .expect("one family registers");
    assert_eq!(registry.fail_fast_family(), None);
}
