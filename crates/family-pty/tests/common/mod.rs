//! The one helper every test goes through: load a fixture, run the family's
//! `recognize` → `gate` → `advise`, and compare with what is expected.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;

use advisor_core::testing::{self, resolved, unresolved};
use advisor_core::{
    Advisory, Environment, Family, Gate, HostBinary, Observation, Platform, SandboxMode, ToolName,
    Unresolved,
};
use family_pty::PtyStartup;
use serde_json::Value;

/// What a fixture should come to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    /// The recognizer does not match.
    NotRecognized,
    /// Recognized, and the gate withholds with this code.
    Withhold(&'static str),
    /// Recognized, and the gate speaks.
    Speak,
}

/// The fixtures directory.
pub fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// Builds the observation a fixture describes.
pub fn load(fixture: &str) -> Observation {
    let path = fixtures_dir().join(format!("{fixture}.json"));
    let raw = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let v: Value = serde_json::from_str(&raw).unwrap();
    let mut obs = if let Some(f) = v.get("failure") {
        let members: Vec<&str> = f["members"]
            .as_array()
            .map(|m| m.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        testing::failure_with(
            f["message"].as_str().unwrap(),
            f["content"].as_str().unwrap(),
            &members,
        )
    } else {
        let s = &v["success"];
        testing::success(s["value"].clone(), s["content"].as_str().unwrap())
    };
    obs.tool = ToolName::new(v["tool"].as_str().unwrap());
    obs
}

/// An environment with a resolved mode, a host binary and a platform.
pub fn env(mode: SandboxMode, binary: HostBinary, platform: Platform) -> Environment {
    let mut env = resolved(platform, mode, Some(r"D:\ws"));
    env.host.binary = binary;
    env
}

/// The usual case: the packaged desktop app on Windows.
pub fn desktop(mode: SandboxMode) -> Environment {
    env(mode, HostBinary::Electron, Platform::Win32)
}

/// An environment whose mode could not be resolved.
pub fn unresolvable(why: Unresolved) -> Environment {
    unresolved(Platform::Win32, why)
}

/// Runs the family on a fixture and asserts the expected outcome; returns the
/// advisory when it speaks.
pub fn check(fixture: &str, env: &Environment, expected: Expect) -> Option<Advisory> {
    run(&load(fixture), env, expected, fixture)
}

/// Like [`check`], for an observation built in the test.
pub fn run(
    obs: &Observation,
    env: &Environment,
    expected: Expect,
    label: &str,
) -> Option<Advisory> {
    let family = PtyStartup;
    let Some(finding) = family.recognize(obs) else {
        assert_eq!(expected, Expect::NotRecognized, "{label}: not recognized");
        return None;
    };
    match family.gate(&finding, env) {
        Gate::Speak => {
            assert_eq!(expected, Expect::Speak, "{label}: spoke");
            Some(family.advise(&finding, env))
        }
        Gate::Withhold(reason) => {
            assert_eq!(
                expected,
                Expect::Withhold(reason.code()),
                "{label}: withheld ({reason})"
            );
            None
        }
        Gate::Decline(code) => panic!("{label}: declined ({code}); this family never declines"),
    }
}

/// The advisory a fixture produces under `env` (asserting that it speaks).
pub fn advisory(fixture: &str, env: &Environment) -> Advisory {
    check(fixture, env, Expect::Speak).unwrap()
}

/// The advisory text a fixture produces under `env` (asserting that it speaks).
pub fn text(fixture: &str, env: &Environment) -> String {
    advisory(fixture, env).text
}

/// Every fixture's name (without `.json`), sorted.
pub fn fixture_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(fixtures_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter_map(|n| n.strip_suffix(".json").map(str::to_owned))
        .collect();
    names.sort();
    names
}

/// The paragraph of `text` that starts with `start`.
pub fn paragraph<'t>(text: &'t str, start: &str) -> &'t str {
    let from = text.find(start).unwrap();
    let rest = &text[from..];
    &rest[..rest.find("\n\n").unwrap_or(rest.len())]
}
