//! acl-aggregate-failure end to end: the sentence as a thrown AggregateError's
//! message reaches the adapter, which delivers once per agent without asking
//! the resolver, never quotes the aggregate's members, and stays silent on the
//! sibling sentences.
#![cfg(feature = "acl-aggregate")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;

use advisor_core::testing::{
    CountingPolicy, failure, failure_with, foreground, host, only, success,
};
use advisor_core::{
    AgentId, Config, Observation, Platform, PostDecision, Registry, RegistryBuilder, SandboxMode,
    SessionId,
};
use family_acl_aggregate::{AclAggregateFailure, ID, TEMP_SENTENCE, WORKSPACE_SENTENCE};
use host_adapter::{HostAdapter, PolicyDefaults, PostExecute, SessionPolicy, standard_registry};

const TEMP_DIR: &str = r"C:\Users\u\AppData\Local\Temp\dsh-Ab12Cd";

struct Rig {
    adapter: HostAdapter,
    counting: Arc<CountingPolicy>,
}

impl Rig {
    fn lookups(&self) -> usize {
        self.counting.calls()
    }

    async fn post(&self, observation: Observation) -> PostDecision {
        ours(
            self.adapter
                .post_execute(PostExecute {
                    observation,
                    approved_mode: None,
                })
                .await,
        )
    }
}

fn rig_over(platform: Platform, registry: RegistryBuilder) -> Rig {
    let policy = Arc::new(SessionPolicy::new(PolicyDefaults {
        default_mode: Some(SandboxMode::ReadOnly),
        fallback_root: None,
        platform,
    }));
    policy.open_session(&SessionId::new("s1"), r"D:\ws");
    policy.set_mode(&SessionId::new("s1"), SandboxMode::WorkspaceWrite);
    let counting = Arc::new(CountingPolicy::new(policy));
    let adapter = HostAdapter::builder()
        .host(host(platform))
        .policy(counting.clone())
        .config(Config::default())
        .registry(registry)
        .build()
        .unwrap();
    Rig { adapter, counting }
}

/// The standard registry (families picked by features).
fn windows() -> Rig {
    rig_over(Platform::Win32, standard_registry())
}

/// This family alone, so the resolver's count is this family's own.
fn counted() -> Rig {
    rig_over(
        Platform::Win32,
        Registry::builder().family(AclAggregateFailure),
    )
}

/// The temp half as the tool pipeline settles it: message = the sentence,
/// content = `Error: <sentence>`, members = the inner errors the session never sees.
fn temp_half() -> Observation {
    let grant = format!("SetNamedSecurityInfoW failed (Win32 5): grantWrite({TEMP_DIR})");
    let rmdir = format!("EPERM: operation not permitted, rmdir '{TEMP_DIR}'");
    failure_with(
        TEMP_SENTENCE,
        &format!("Error: {TEMP_SENTENCE}"),
        &[
            grant.as_str(),
            "AclWriteGrant dispose completed with 1 cleanup failure(s)",
            rmdir.as_str(),
        ],
    )
}

fn workspace_half() -> Observation {
    failure_with(
        WORKSPACE_SENTENCE,
        &format!("Error: {WORKSPACE_SENTENCE}"),
        &[
            r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(E:\data\ws-7f3e)",
            "AclWriteGrant dispose completed with 1 cleanup failure(s)",
        ],
    )
}

/// This family's share of a decision (with default features, other families'
/// pre-flight disclosures may ride on the same call).
fn ours(decision: PostDecision) -> PostDecision {
    only(ID, decision)
}

fn silent(decision: &PostDecision) -> bool {
    decision.additional_contexts.is_empty() && decision.withheld.is_empty()
}

#[tokio::test]
async fn speaks_once_per_agent_and_never_quotes_the_members() {
    let rig = windows();
    let first = rig.post(temp_half()).await;
    assert_eq!(first.additional_contexts.len(), 1);
    let advisory = &first.additional_contexts[0];
    assert_eq!(advisory.family.as_str(), "acl-aggregate-failure");
    assert!(advisory.detail.contains("This is the temp half"));
    for leaked in [
        TEMP_DIR,
        "dsh-Ab12Cd",
        "SetNamedSecurityInfoW",
        "Win32 5",
        "EPERM",
    ] {
        assert!(!advisory.detail.contains(leaked), "{leaked:?} leaked");
        assert!(
            !advisory.summary.as_str().contains(leaked),
            "{leaked:?} leaked"
        );
    }
    // Once per agent and family: the other half from the same agent is silent.
    assert!(silent(&rig.post(workspace_half()).await));
    let mut other = workspace_half();
    other.agent = AgentId::new("a2");
    let second = rig.post(other).await;
    assert_eq!(second.additional_contexts.len(), 1);
    assert!(
        second.additional_contexts[0]
            .detail
            .contains("This is the workspace half")
    );
    assert!(!second.additional_contexts[0].detail.contains("ws-7f3e"));
}

#[tokio::test]
async fn the_resolver_is_never_asked() {
    let rig = counted();
    assert_eq!(rig.post(temp_half()).await.additional_contexts.len(), 1);
    let mut agentless = workspace_half();
    agentless.session = None;
    agentless.agent = AgentId::new("a2");
    assert_eq!(rig.post(agentless).await.additional_contexts.len(), 1);
    assert_eq!(rig.lookups(), 0);
}

#[tokio::test]
async fn no_policy_service_does_not_silence_it() {
    let adapter = HostAdapter::builder()
        .host(host(Platform::Win32))
        .build()
        .unwrap();
    let decision = ours(
        adapter
            .post_execute(PostExecute {
                observation: temp_half(),
                approved_mode: None,
            })
            .await,
    );
    assert_eq!(decision.additional_contexts.len(), 1);
    assert!(decision.withheld.is_empty());
}

#[tokio::test]
async fn siblings_and_quotes_stay_silent() {
    let rig = counted();
    let runner = format!(
        "sandbox mode \"workspace-write\" is requested but no sandbox backend is usable on this host; refusing to run the command unconfined. Install bubblewrap or run a Landlock-enforcing kernel (Linux), ensure sandbox-exec is usable (macOS), or ensure the ACL restricted-token runner can start (Windows) — otherwise switch the consumer to danger-full-access. Runner failure: windows-acl-run: {TEMP_SENTENCE}"
    );
    let quoted = format!("previous run: {TEMP_SENTENCE}");
    let mut printed = success(
        foreground(0, &format!("{TEMP_SENTENCE}\n"), "", None),
        TEMP_SENTENCE,
    );
    printed.tool = "pwsh".into();
    for observation in [
        failure("AclSandbox init failed and 1 cleanup operation(s) also failed"),
        failure("AclSandbox dispose completed with 2 cleanup failure(s)"),
        failure("AclWriteGrant dispose completed with 1 cleanup failure(s)"),
        failure("PTY backend startup and cleanup both failed"),
        failure(&runner),
        failure(&quoted),
        printed,
    ] {
        assert!(silent(&rig.post(observation).await));
    }
    assert_eq!(rig.lookups(), 0);
}
