//! The one helper every test goes through: load a fixture, run it through a
//! registry holding only this family (so the anchors' prefilter is exercised),
//! and compare the outcome with what the test expects.

#![allow(dead_code)]

use std::path::Path;

use advisor_core::testing::{host, observation};
use advisor_core::{
    Advisory, Environment, Failure, Family, Gate, Observation, Outcome, Platform, PolicyNeed,
    PolicyState, Registry, Success, ToolName,
};
use family_acl_aggregate::AclAggregateFailure;
use serde_json::Value;

/// Where the call ran. The family asks for no policy, so only the host and `href` matter.
pub struct Env {
    platform: Platform,
    href: Option<&'static str>,
}

/// A host of the given platform.
pub fn on(platform: Platform) -> Env {
    Env {
        platform,
        href: None,
    }
}

/// A Windows host.
pub fn windows() -> Env {
    on(Platform::Win32)
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
    /// Recognized, no policy asked for, gated through, advised.
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
    obs.tool = ToolName::new(v["tool"].as_str().unwrap_or("bash"));
    obs.arguments = v["arguments"].clone();
    obs
}

/// The members a fixture's aggregate carries (what must never be quoted).
pub fn members(name: &str) -> Vec<String> {
    match load(name).outcome {
        Outcome::Failure(f) => f.members,
        Outcome::Success(_) => Vec::new(),
    }
}

/// Runs `fixture` under `env` and asserts `expect`; returns the advisory when it speaks.
pub fn check(fixture: &str, env: Env, expect: Expect) -> Option<Advisory> {
    let obs = load(fixture);
    let registry = Registry::builder()
        .family(AclAggregateFailure)
        .build()
        .unwrap();
    let direct = AclAggregateFailure.recognize(&obs);
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
    assert_eq!(expect, Expect::Speaks, "{fixture}: recognized");
    let facts = host(env.platform);
    let need = owner.finding.policy_need(&facts);
    assert_eq!(need, PolicyNeed::NotNeeded, "{fixture}: no policy lookup");
    let environment = Environment {
        host: facts,
        policy: PolicyState::NotConsulted,
        href: env.href.map(str::to_owned),
    };
    let gate = owner.finding.gate(&environment);
    assert_eq!(gate, Gate::Speak, "{fixture}: gate");
    let advisory = owner.finding.advise(&environment);
    assert_eq!(advisory.family, family_acl_aggregate::ID);
    Some(advisory)
}

/// The advisory as a reviewer reads it: summary, then text.
pub fn render(advisory: &Advisory) -> String {
    format!(
        "summary: {}\n\n{}",
        advisory.summary.as_str(),
        advisory.text
    )
}
