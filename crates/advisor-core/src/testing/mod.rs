//! What family crates' tests are made of (feature `testing`): the one fixture
//! format ([`fixture`]), the one [`check`] helper, producer samples, and
//! builders for observations and environments.
//!
//! Observations default to agent `a1`, session `s1`, call `c1`, tool `bash`.

mod case;
mod check;
pub mod fixture;
mod sample;
pub mod store;

pub use case::{Case, Subject};
pub use check::{Outcome as Checked, Verdict, check, decide, fixture_files, verdict};
pub use fixture::{Arm, ChecksSpec, Decision, Fixture, FixtureError};
pub use sample::{ProducerSample, SampleShape};

use async_trait::async_trait;
use serde_json::{Value, json};

use crate::environment::{
    Environment, HostBinary, HostFacts, Platform, PolicyQuery, PolicySource, PolicyState,
    ResolvedPolicy, SandboxMode, Unresolved, WorkspaceRoot,
};
use crate::ids::{AgentId, CallId, SessionId, ToolName};
use crate::observation::{Failure, Observation, Outcome, Success};
use crate::paths::HostPath;

/// A failure whose message is `message` and whose content is `Error: <message>`.
pub fn failure(message: &str) -> Observation {
    failure_with(message, &format!("Error: {message}"), &[])
}

/// A failure with an explicit rendered content and aggregate members.
pub fn failure_with(message: &str, content: &str, members: &[&str]) -> Observation {
    observation(Outcome::Failure(Failure {
        message: message.to_owned(),
        members: members.iter().map(|m| (*m).to_owned()).collect(),
        content: content.to_owned(),
        code: None,
    }))
}

/// A success with a canonical value and its rendering.
pub fn success(value: Value, content: &str) -> Observation {
    observation(Outcome::Success(Success {
        value,
        content: content.to_owned(),
    }))
}

/// The shell tools' foreground projection.
pub fn foreground(exit_code: i64, stdout: &str, stderr: &str, sandbox: Option<Value>) -> Value {
    let mut v = json!({
        "kind": "foreground", "exitCode": exit_code, "signal": null, "timedOut": false, "aborted": false,
        "timeoutMs": 120000,
        "stdout": {"text": stdout, "truncated": false},
        "stderr": {"text": stderr, "truncated": false},
    });
    if let (Some(sandbox), Some(map)) = (sandbox, v.as_object_mut()) {
        map.insert("sandbox".into(), sandbox);
    }
    v
}

/// An observation with the default identities.
pub fn observation(outcome: Outcome) -> Observation {
    Observation {
        agent: AgentId::new("a1"),
        session: Some(SessionId::new("s1")),
        call: CallId::new("c1"),
        tool: ToolName::new("bash"),
        arguments: json!({"command": "echo hi"}),
        outcome,
    }
}

/// Host facts for a platform (the DeepSeek harness, not Electron, no temp dir).
pub fn host(platform: Platform) -> HostFacts {
    HostFacts {
        kind: crate::Host::Dsh,
        platform,
        binary: HostBinary::NotElectron,
        temp_dir: None,
    }
}

/// An environment with a resolved policy (`root` read with the platform's grammar).
pub fn resolved(platform: Platform, mode: SandboxMode, root: Option<&str>) -> Environment {
    let workspace_root =
        root.map(|r| WorkspaceRoot::new(HostPath::lexical(platform.path_style(), r)));
    Environment {
        host: host(platform),
        policy: PolicyState::Resolved(ResolvedPolicy {
            mode,
            workspace_root,
        }),
        href: None,
        locale: crate::Locale::En,
        host_version: None,
        checks: crate::HostChecks::default(),
    }
}

/// An environment whose policy could not be resolved.
pub fn unresolved(platform: Platform, why: Unresolved) -> Environment {
    Environment {
        host: host(platform),
        policy: PolicyState::Unresolved(why),
        href: None,
        locale: crate::Locale::En,
        host_version: None,
        checks: crate::HostChecks::default(),
    }
}

/// A policy source that always answers the same.
#[derive(Debug, Clone)]
pub struct StaticPolicy(pub Result<ResolvedPolicy, Unresolved>);

#[async_trait]
impl PolicySource for StaticPolicy {
    async fn resolve(&self, _query: PolicyQuery<'_>) -> Result<ResolvedPolicy, Unresolved> {
        self.0.clone()
    }
}

/// A policy source that counts how often it was asked, delegating to another.
pub struct CountingPolicy {
    inner: std::sync::Arc<dyn PolicySource>,
    calls: std::sync::atomic::AtomicUsize,
}

impl CountingPolicy {
    /// Wraps `inner`.
    pub fn new(inner: std::sync::Arc<dyn PolicySource>) -> Self {
        Self {
            inner,
            calls: std::sync::atomic::AtomicUsize::new(0),
        }
    }

    /// How many times the resolver was asked.
    pub fn calls(&self) -> usize {
        self.calls.load(std::sync::atomic::Ordering::SeqCst)
    }
}

#[async_trait]
impl PolicySource for CountingPolicy {
    async fn resolve(&self, query: PolicyQuery<'_>) -> Result<ResolvedPolicy, Unresolved> {
        self.calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        self.inner.resolve(query).await
    }
}

/// One family's share of a decision (other compiled-in families, such as the
/// temp-root pre-flight on a Windows host, may add their own to the same call).
pub fn only(family: crate::FamilyId, mut decision: crate::PostDecision) -> crate::PostDecision {
    decision.additional_contexts.retain(|a| a.family == family);
    decision.withheld.retain(|w| w.family == family);
    decision
}

/// Asserts that each of `parts` occurs in `text`, in this order, each after the
/// end of the one before (for a brief's six parts); `label` names the case.
#[allow(clippy::panic)]
pub fn assert_in_order(label: &str, text: &str, parts: &[&str]) {
    let mut from = 0;
    for part in parts {
        match text[from..].find(part) {
            Some(at) => from += at + part.len(),
            None => panic!("{label}: {part:?} missing or out of order in\n{text}"),
        }
    }
}

/// True when `text` holds a CJK unified ideograph (a Chinese sentence).
pub fn has_chinese(text: &str) -> bool {
    text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}
