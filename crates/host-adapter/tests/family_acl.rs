//! `acl-provisioning` through the adapter, with the real resolver: both
//! carriers, no mode or platform gate, once per agent, and the fail-fast budget
//! end to end (refusal of the identical call, the bound, a different call, the
//! re-arm on success, and the refusal's own failure neither counted nor answered).
#![cfg(feature = "acl")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;

use advisor_core::testing::{failure, failure_with, foreground, host, success};
use advisor_core::{
    AgentId, CallId, Config, Observation, PendingCall, Platform, PostDecision, SandboxMode,
    SessionId, ToolName,
};
use host_adapter::{HostAdapter, PolicyDefaults, PostExecute, SessionPolicy};
use serde_json::{Value, json};

const SESSION_LINE: &str = r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)";
const AGENTLESS: &str = r#"sandbox mode "workspace-write" is requested but no sandbox backend is usable on this host; refusing to run the command unconfined. Install bubblewrap or run a Landlock-enforcing kernel (Linux), ensure sandbox-exec is usable (macOS), or ensure the ACL restricted-token runner can start (Windows) — otherwise switch the consumer to danger-full-access. Runner failure: windows-acl-run: SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)"#;
const AGGREGATE: &str =
    "sandbox-local windows-acl temp grant materialization failed and its cleanup also failed";

fn policy(mode: SandboxMode) -> Arc<SessionPolicy> {
    let policy = Arc::new(SessionPolicy::new(PolicyDefaults {
        default_mode: Some(SandboxMode::ReadOnly),
        fallback_root: None,
        platform: Platform::Win32,
    }));
    policy.open_session(&SessionId::new("s1"), r"D:\ws");
    policy.set_mode(&SessionId::new("s1"), mode);
    policy
}

fn adapter(config: Value, policy: Option<Arc<SessionPolicy>>) -> HostAdapter {
    let mut builder = HostAdapter::builder()
        .host(host(Platform::Win32))
        .config(Config::from_json(config).unwrap());
    if let Some(policy) = policy {
        builder = builder.policy(policy);
    }
    builder.build().unwrap()
}

fn npm() -> Value {
    json!({"command": "npm test", "cwd": "D:\\ws"})
}

/// One settled call of agent `agent`, in session `s1` unless `agentless`.
fn settled(agent: &str, id: &str, arguments: Value, outcome: Observation) -> Observation {
    Observation {
        agent: AgentId::new(agent),
        call: CallId::new(id),
        tool: ToolName::new("bash"),
        arguments,
        ..outcome
    }
}

/// What this family did with one post-execute: `advised`, `withheld:<code>`, or nothing.
async fn post(adapter: &HostAdapter, observation: Observation) -> Vec<String> {
    let decision: PostDecision = adapter
        .post_execute(PostExecute {
            observation,
            approved_mode: None,
        })
        .await;
    let mut out: Vec<String> = decision
        .additional_contexts
        .iter()
        .filter(|a| a.family == family_acl::ID)
        .map(|a| {
            assert!(a.text.contains(SESSION_LINE), "the line is quoted");
            "advised".to_owned()
        })
        .collect();
    out.extend(
        decision
            .withheld
            .iter()
            .filter(|w| w.family == family_acl::ID)
            .map(|w| format!("withheld:{}", w.reason.code())),
    );
    out
}

/// The refusal reason for a pending call of agent `a1`, if it is refused.
fn pre(adapter: &HostAdapter, id: &str, arguments: Value) -> Option<String> {
    adapter
        .pre_execute(&PendingCall {
            agent: AgentId::new("a1"),
            session: Some(SessionId::new("s1")),
            call: CallId::new(id),
            tool: ToolName::new("bash"),
            arguments,
        })
        .refusal
        .map(|r| {
            assert_eq!(r.family, family_acl::ID);
            r.reason
        })
}

/// The harness materializes a deny as a failure whose message is the reason.
fn denied(id: &str, reason: &str) -> Observation {
    settled("a1", id, npm(), failure(reason))
}

#[tokio::test]
async fn acl_session_carrier_speaks_once_per_agent() {
    let adapter = adapter(json!({}), Some(policy(SandboxMode::WorkspaceWrite)));
    let fail = |agent, id| settled(agent, id, npm(), failure(SESSION_LINE));
    assert_eq!(post(&adapter, fail("a1", "c1")).await, ["advised"]);
    assert!(post(&adapter, fail("a1", "c2")).await.is_empty());
    assert_eq!(post(&adapter, fail("a2", "c3")).await, ["advised"]);
    adapter.agent_end(&AgentId::new("a1"));
    assert_eq!(post(&adapter, fail("a1", "c4")).await, ["advised"]);
}

#[tokio::test]
async fn acl_needs_no_mode_and_no_policy_service() {
    // Agentless, no policy service mounted: the line alone justifies the advice.
    let adapter = adapter(json!({}), None);
    let mut agentless = settled("a1", "c1", npm(), failure(AGENTLESS));
    agentless.session = None;
    assert_eq!(post(&adapter, agentless).await, ["advised"]);
    // A session recorded as read-only: still not a reason to withhold.
    let adapter = self::adapter(json!({}), Some(policy(SandboxMode::ReadOnly)));
    let content_only = failure_with("", &format!("Error: {SESSION_LINE}"), &[]);
    assert_eq!(
        post(&adapter, settled("a1", "c1", npm(), content_only)).await,
        ["advised"]
    );
}

#[tokio::test]
async fn acl_is_silent_on_a_quoting_success_and_on_aggregate_members() {
    let adapter = adapter(json!({}), Some(policy(SandboxMode::WorkspaceWrite)));
    let log = format!("build.log:\n{SESSION_LINE}\n");
    let quoting = success(foreground(0, &log, "", None), &log);
    assert!(
        post(&adapter, settled("a1", "c1", npm(), quoting))
            .await
            .is_empty()
    );
    let aggregate = failure_with(AGGREGATE, &format!("Error: {AGGREGATE}"), &[SESSION_LINE]);
    assert!(
        post(&adapter, settled("a1", "c2", npm(), aggregate))
            .await
            .is_empty()
    );
}

#[tokio::test]
async fn acl_fail_fast_budget_end_to_end() {
    let adapter = adapter(
        json!({"enforceAfter": 2}),
        Some(policy(SandboxMode::WorkspaceWrite)),
    );
    let fail = |id| settled("a1", id, npm(), failure(SESSION_LINE));
    let reordered = json!({"cwd": "D:\\ws", "command": "npm test"});

    // Two provisioning failures of the same call; the first is answered.
    assert_eq!(post(&adapter, fail("c1")).await, ["advised"]);
    assert_eq!(
        pre(&adapter, "c2", npm()),
        None,
        "one failure is below enforceAfter"
    );
    assert!(post(&adapter, fail("c2")).await.is_empty());

    // The identical call, keys in another order, is refused …
    let reason = pre(&adapter, "c3", reordered.clone()).expect("refused");
    // … and the deny's own failure is neither answered nor counted.
    assert!(post(&adapter, denied("c3", &reason)).await.is_empty());
    // A different call is not refused.
    assert_eq!(pre(&adapter, "c4", json!({"command": "dir"})), None);
    // At most maxDenials (2) refusals.
    let reason = pre(&adapter, "c5", reordered.clone()).expect("second refusal");
    assert!(post(&adapter, denied("c5", &reason)).await.is_empty());
    assert_eq!(pre(&adapter, "c6", reordered.clone()), None, "budget spent");

    // The call goes through and succeeds (the user ran the grant): re-armed.
    let ok = success(foreground(0, "ok", "", None), "ok");
    assert!(
        post(&adapter, settled("a1", "c6", npm(), ok))
            .await
            .is_empty()
    );
    assert_eq!(pre(&adapter, "c7", npm()), None, "no longer watched");

    // The environment breaks again: watched again, refusable again, not re-advised.
    assert!(post(&adapter, fail("c7")).await.is_empty());
    assert!(pre(&adapter, "c8", reordered).is_some(), "re-armed budget");
}

#[tokio::test]
async fn acl_refusals_own_failure_does_not_feed_the_budget() {
    let adapter = adapter(
        json!({"enforceAfter": 2}),
        Some(policy(SandboxMode::WorkspaceWrite)),
    );
    let fail = |id| settled("a1", id, npm(), failure(SESSION_LINE));
    assert_eq!(post(&adapter, fail("c1")).await, ["advised"]);
    assert!(post(&adapter, fail("c2")).await.is_empty());
    let first = pre(&adapter, "c3", npm()).expect("refused");
    let second = pre(&adapter, "c4", npm()).expect("refused again");
    // The call goes through and succeeds: no longer watched.
    let ok = success(foreground(0, "ok", "", None), "ok");
    assert!(
        post(&adapter, settled("a1", "c5", npm(), ok))
            .await
            .is_empty()
    );
    // The two denies settle late, and this host's rendering even quotes the
    // earlier line after the reason. Were they read, the call would be watched
    // again and the next identical call refused.
    for (id, reason) in [("c3", first), ("c4", second)] {
        let echoed = format!("{reason}\n{SESSION_LINE}");
        let deny = failure_with(&echoed, &format!("Error: {echoed}"), &[]);
        assert!(
            post(&adapter, settled("a1", id, npm(), deny))
                .await
                .is_empty()
        );
    }
    assert_eq!(
        pre(&adapter, "c6", npm()),
        None,
        "the denies were not counted"
    );
    // The same text on a call that was not refused is an ordinary failure.
    let echoed = format!("an earlier refusal\n{SESSION_LINE}");
    assert!(
        post(&adapter, settled("a1", "c6", npm(), failure(&echoed)))
            .await
            .is_empty()
    );
    assert!(pre(&adapter, "c7", npm()).is_some(), "watched again");
}
