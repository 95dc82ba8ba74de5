//! A family from outside this repository's list, registered through the public
//! API only, advises end to end; and the waterfall order keeps a later block.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;

use advisor_core::testing::{failure, host};
use advisor_core::{AgentId, Config, Platform, SandboxMode, SessionId};
use host_adapter::{
    HostAdapter, PolicyDefaults, PostExecute, PostToolDecision, SessionPolicy, standard_registry,
};
use third_party_family::EgressBlocked;

fn adapter(mode: SandboxMode) -> HostAdapter {
    let policy = Arc::new(SessionPolicy::new(PolicyDefaults {
        default_mode: Some(mode),
        fallback_root: None,
        platform: Platform::Linux,
    }));
    policy.open_session(&SessionId::new("s1"), "/ws");
    HostAdapter::builder()
        .host(host(Platform::Linux))
        .policy(policy)
        .config(Config::default())
        .registry(standard_registry().family(EgressBlocked))
        .build()
        .unwrap()
}

fn blocked() -> PostExecute {
    PostExecute {
        observation: failure("egress-guard: blocked example.org"),
        approved_mode: None,
    }
}

#[tokio::test]
async fn third_party_family_advises_once_per_agent() {
    let adapter = adapter(SandboxMode::WorkspaceWrite);
    let first = adapter.post_execute(blocked()).await;
    assert_eq!(first.additional_contexts.len(), 1);
    assert_eq!(first.additional_contexts[0].family, third_party_family::ID);
    assert!(first.additional_contexts[0].text.contains("example.org"));
    assert!(
        adapter
            .post_execute(blocked())
            .await
            .additional_contexts
            .is_empty(),
        "once per agent"
    );
    adapter.agent_end(&AgentId::new("a1"));
    assert_eq!(
        adapter
            .post_execute(blocked())
            .await
            .additional_contexts
            .len(),
        1,
        "forgotten at agent end"
    );
}

#[tokio::test]
async fn third_party_family_gate_withholds_and_discloses_once() {
    let adapter = adapter(SandboxMode::DangerFullAccess);
    let first = adapter.post_execute(blocked()).await;
    assert!(first.additional_contexts.is_empty());
    assert_eq!(first.withheld.len(), 1);
    assert_eq!(first.withheld[0].reason.code(), "unconfined-mode");
    assert!(
        adapter.post_execute(blocked()).await.withheld.is_empty(),
        "disclosed once"
    );
}

#[tokio::test]
async fn waterfall_folds_the_advisory_onto_a_later_block() {
    let adapter = adapter(SandboxMode::WorkspaceWrite);
    let decision = adapter
        .post_execute_around(blocked(), || async {
            PostToolDecision::Block {
                feedback: "blocked by policy".into(),
                additional_contexts: Vec::new(),
            }
        })
        .await;
    match decision {
        PostToolDecision::Block {
            feedback,
            additional_contexts,
        } => {
            assert_eq!(feedback, "blocked by policy");
            assert_eq!(additional_contexts.len(), 1);
        }
        other => panic!("the later listener's block was replaced: {other:?}"),
    }
}
