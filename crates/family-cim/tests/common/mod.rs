//! The one helper every test goes through: load a fixture, run it through a
//! registry holding only this family (so the anchors' prefilter is exercised),
//! and compare the outcome with what the test expects.

#![allow(dead_code)]

use std::path::Path;

use advisor_core::testing::{host, observation};
use advisor_core::{
    Advisory, Environment, Failure, Family, Gate, Observation, Outcome, Platform, PolicyNeed,
    PolicyState, Registry, ResolvedPolicy, SandboxMode, Success, ToolName, Unresolved,
};
use family_cim::CimWmiDenial;
use serde_json::Value;

/// Where the call ran, as far as the gate can know.
pub struct Env {
    platform: Platform,
    policy: Result<SandboxMode, Unresolved>,
    href: Option<&'static str>,
}

/// A Windows host whose session resolved to `mode`.
pub fn windows(mode: SandboxMode) -> Env {
    Env {
        platform: Platform::Win32,
        policy: Ok(mode),
        href: None,
    }
}

/// A Windows host whose session's mode cannot be resolved.
pub fn windows_unresolved(why: Unresolved) -> Env {
    Env {
        platform: Platform::Win32,
        policy: Err(why),
        href: None,
    }
}

/// Another host; the policy would resolve to workspace-write if it were asked.
pub fn elsewhere(platform: Platform) -> Env {
    Env {
        platform,
        policy: Ok(SandboxMode::WorkspaceWrite),
        href: None,
    }
}

impl Env {
    /// The same environment with a configured `href`.
    pub fn with_href(mut self, href: &'static str) -> Self {
        self.href = Some(href);
        self
    }
}

/// What a fixture must come to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    /// Not recognized (neither by the prefilter nor by the recognizer).
    Refused,
    /// Recognized and withheld with this reason code; `policy` is what the
    /// family asked for before the gate ran.
    Withheld {
        reason: &'static str,
        policy: PolicyNeed,
    },
    /// Recognized, gated through, advised.
    Speaks,
}

/// Loads `tests/fixtures/<name>.json` into an observation.
pub fn load(name: &str) -> Observation {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(format!("{name}.json"));
    let raw = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let v: Value = serde_json::from_str(&raw).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let text = |key: &str| v[key].as_str().unwrap_or_default().to_owned();
    let outcome = match v["outcome"].as_str() {
        Some("success") => Outcome::Success(Success {
            value: v["value"].clone(),
            content: text("content"),
        }),
        Some("failure") => Outcome::Failure(Failure {
            message: text("message"),
            members: v["members"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
            content: text("content"),
            code: None,
        }),
        other => panic!("{name}: unknown outcome {other:?}"),
    };
    let mut obs = observation(outcome);
    obs.tool = ToolName::new(v["tool"].as_str().unwrap_or("pwsh"));
    obs.arguments = v["arguments"].clone();
    obs
}

/// Runs `fixture` under `env` and asserts `expect`; returns the advisory when it speaks.
pub fn check(fixture: &str, env: Env, expect: Expect) -> Option<Advisory> {
    let obs = load(fixture);
    let registry = Registry::builder().family(CimWmiDenial).build().unwrap();
    let direct = CimWmiDenial.recognize(&obs);
    let owner = registry.owner(&obs);
    assert_eq!(
        direct.is_some(),
        owner.is_some(),
        "{fixture}: the anchors must be a necessary condition of the recognizer"
    );
    let Some(owner) = owner else {
        assert_eq!(expect, Expect::Refused, "{fixture}: not recognized");
        return None;
    };
    assert_ne!(expect, Expect::Refused, "{fixture}: recognized");
    let facts = host(env.platform);
    let need = owner.finding.policy_need(&facts);
    let policy = match (need, env.policy) {
        (PolicyNeed::NotNeeded, _) => PolicyState::NotConsulted,
        (PolicyNeed::Required, Ok(mode)) => PolicyState::Resolved(ResolvedPolicy {
            mode,
            workspace_root: None,
        }),
        (PolicyNeed::Required, Err(why)) => PolicyState::Unresolved(why),
    };
    let environment = Environment {
        host: facts,
        policy,
        href: env.href.map(str::to_owned),
    };
    let gate = owner.finding.gate(&environment);
    match (expect, gate) {
        (Expect::Withheld { reason, policy }, Gate::Withhold(got)) => {
            assert_eq!(got.code(), reason, "{fixture}: withhold reason");
            assert_eq!(need, policy, "{fixture}: policy need");
            None
        }
        (Expect::Speaks, Gate::Speak) => {
            let advisory = owner.finding.advise(&environment);
            assert_eq!(advisory.family, family_cim::ID);
            Some(advisory)
        }
        (expect, gate) => panic!("{fixture}: expected {expect:?}, gate said {gate:?}"),
    }
}

/// The advisory as a reviewer reads it: summary, then text.
pub fn render(advisory: &Advisory) -> String {
    format!(
        "summary: {}\n\n{}",
        advisory.summary.as_str(),
        advisory.text
    )
}
