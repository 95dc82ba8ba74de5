//! The one driver every native-init test goes through: `check(fixture, env, expected)`.
//!
//! Every fixture goes through a registry holding only this family, so the
//! anchors' prefilter runs before the recognizer exactly as in production.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use advisor_core::testing::{failure_with, resolved, success};
use advisor_core::{
    Advisory, CallId, Environment, Gate, HostBinary, Observation, Platform, Registry, SandboxMode,
};
use family_native_init::NativeInit;
use serde_json::Value;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    /// The recognizer (or its prefilter) does not match.
    Refused,
    /// Recognized, and withheld with this code.
    Withheld(&'static str),
    /// Recognized, and the gate speaks.
    Speaks,
}

pub fn load(fixture: &str) -> Observation {
    let path = format!(
        "{}/tests/fixtures/{fixture}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let raw = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let doc: Value = serde_json::from_str(&raw).unwrap();
    let text = |k: &str| doc[k].as_str().unwrap_or_default().to_owned();
    let mut obs = match doc["outcome"].as_str() {
        Some("success") => success(doc["value"].clone(), &text("content")),
        Some("failure") => failure_with(&text("message"), &text("content"), &[]),
        other => panic!("{fixture}: unknown outcome {other:?}"),
    };
    obs.arguments = doc["arguments"].clone();
    obs.call = CallId::new(fixture);
    obs
}

/// Drives one fixture through recognize → gate → advise and checks the outcome.
///
/// The recognizer is asked twice: behind the registry's prefilter (production)
/// and without it (as `explain` asks). The two must agree, so the anchors never
/// decide anything the recognizer would not, and the recognizer never relies
/// on the anchors to refuse a shape.
pub fn check(fixture: &str, env: &Environment, expect: Expect) -> Option<Advisory> {
    let registry = Registry::builder().family(NativeInit).build().unwrap();
    let unfiltered = Registry::builder()
        .family(NativeInit)
        .build()
        .unwrap()
        .without_prefilter();
    let obs = load(fixture);
    assert_eq!(
        registry.owner(&obs).is_some(),
        unfiltered.owner(&obs).is_some(),
        "{fixture}: the prefilter and the recognizer disagree"
    );
    let Some(owner) = registry.owner(&obs) else {
        assert_eq!(expect, Expect::Refused, "{fixture}: not recognized");
        return None;
    };
    assert_ne!(expect, Expect::Refused, "{fixture}: recognized");
    match owner.finding.gate(env) {
        Gate::Speak => {
            assert_eq!(expect, Expect::Speaks, "{fixture}: spoke");
            let advisory = owner.finding.advise(env);
            assert_eq!(advisory.family, family_native_init::ID);
            assert!(advisory.summary.as_str().chars().count() <= 120);
            Some(advisory)
        }
        Gate::Withhold(reason) => {
            assert_eq!(
                expect,
                Expect::Withheld(reason.code()),
                "{fixture}: {reason}"
            );
            None
        }
        Gate::Decline(code) => panic!("{fixture}: declined {code}, expected {expect:?}"),
    }
}

pub fn win(mode: SandboxMode) -> Environment {
    resolved(Platform::Win32, mode, Some(r"D:\ws"))
}

pub fn electron(mut env: Environment) -> Environment {
    env.host.binary = HostBinary::Electron;
    env
}

pub fn speak(fixture: &str, env: &Environment) -> Advisory {
    check(fixture, env, Expect::Speaks).unwrap()
}

pub fn snapshot_text(a: &Advisory) -> String {
    format!("summary: {}\n\n{}", a.summary.as_str(), a.text)
}

pub const WW: SandboxMode = SandboxMode::WorkspaceWrite;
pub const RO: SandboxMode = SandboxMode::ReadOnly;
pub const DANGER: SandboxMode = SandboxMode::DangerFullAccess;
