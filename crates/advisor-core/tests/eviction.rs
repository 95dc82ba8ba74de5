//! Exactly-once under eviction: a bounded ledger forgets only agents that other
//! agents have outranked, never one that is still being touched.
//!
//! The rule (README, `Config::ledger_capacity`): an agent is forgotten only after
//! `ledgerCapacity` other agents were touched since its own last touch. Every
//! ledger answer about an agent touches it: the has-spoken check of a recognized
//! failure, a pre-flight seat check, a fail-fast check before dispatch.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use advisor_core::{
    AgentId, Config, PendingCall, PolicyQuery, PolicySource, Registry, ResolvedPolicy, SandboxMode,
    SessionId, Unresolved,
};
use serde_json::json;
use support::*;

const CAPACITY: usize = 16;
/// The most agents held: `16 + max(1, 16 / 8)`.
const LIMIT: usize = 18;

const PRE: Fake = Fake {
    id: "pre",
    needle: "PRE-FAIL",
    rule: Rule::Speak,
    preflight: Some("checked before anything ran"),
};

/// Every session confines, so the pre-flight family advises at session start.
struct Confining;

#[async_trait::async_trait]
impl PolicySource for Confining {
    async fn resolve(&self, _query: PolicyQuery<'_>) -> Result<ResolvedPolicy, Unresolved> {
        Ok(ResolvedPolicy {
            mode: SandboxMode::WorkspaceWrite,
            workspace_root: None,
        })
    }
}

fn capacity(extra: serde_json::Value) -> Config {
    let mut config = json!({ "ledgerCapacity": CAPACITY });
    if let (Some(map), Some(extra)) = (config.as_object_mut(), extra.as_object()) {
        map.extend(extra.clone());
    }
    Config::from_json(config).unwrap()
}

/// The reproduction: with ledgerCapacity 16, an agent that posts the
/// same failure on every other line (a new agent on each line between) heard its
/// advisory again whenever the has-spoken check, which did not refresh recency,
/// let it age out by first insertion.
#[test]
fn an_agent_posting_every_other_line_hears_its_advisory_once() {
    let advisor = advisor(Registry::builder().family(ALPHA), capacity(json!({})));
    let (host, policy) = (linux(), Confining);
    let c = ctx(&host, &policy);
    run(async {
        let mut heard = 0;
        for i in 0..2_000 {
            let own = advisor
                .post_execute(&fail("active", &format!("a{i}"), "ALPHA"), None, &c)
                .await;
            heard += own.additional_contexts.len();
            let other = advisor
                .post_execute(&fail(&format!("other-{i}"), "c", "ALPHA"), None, &c)
                .await;
            assert_eq!(other.additional_contexts.len(), 1, "a new agent hears it");
        }
        assert_eq!(
            heard, 1,
            "the active agent heard the same advisory {heard} times"
        );
        assert_eq!(advisor.ledger().limit(), LIMIT);
        assert!(advisor.ledger().len() <= LIMIT);
    });
}

/// The pre-flight seat check is a read: it must refresh recency too.
#[test]
fn an_agent_whose_only_touch_is_the_preflight_check_hears_it_once() {
    let advisor = advisor(Registry::builder().family(PRE), capacity(json!({})));
    let (host, policy) = (linux(), Confining);
    let c = ctx(&host, &policy);
    let mut call = fail("active", "c", "matches nothing");
    call.session = Some(SessionId::new("s1"));
    run(async {
        let mut heard = 0;
        for i in 0..2_000 {
            call.call = format!("a{i}").as_str().into();
            heard += advisor
                .post_execute(&call, None, &c)
                .await
                .additional_contexts
                .len();
            let other = advisor
                .session_start(
                    &AgentId::new(format!("other-{i}")),
                    Some(&SessionId::new("s1")),
                    &c,
                )
                .await;
            assert_eq!(other.additional_contexts.len(), 1);
        }
        assert_eq!(heard, 1, "the pre-flight advisory was heard {heard} times");
    });
}

/// The fail-fast check before dispatch touches the agent: its budget and its
/// spoken seat survive while it keeps retrying.
#[test]
fn an_agent_touched_only_before_dispatch_keeps_its_budget_and_seat() {
    let advisor = advisor(
        Registry::builder().fail_fast_family(Provisioning),
        capacity(json!({"enforceAfter": 1, "maxDenials": 100_000})),
    );
    let (host, policy) = (linux(), Confining);
    let c = ctx(&host, &policy);
    let x = json!({"command": "npm test"});
    let mut failed = fail("active", "c0", "PROVISIONING");
    failed.arguments = x.clone();
    run(async {
        let first = advisor.post_execute(&failed, None, &c).await;
        assert_eq!(first.additional_contexts.len(), 1);
        for i in 0..1_000 {
            let pending = PendingCall {
                agent: AgentId::new("active"),
                session: None,
                call: format!("p{i}").as_str().into(),
                tool: "bash".into(),
                arguments: x.clone(),
            };
            assert!(
                advisor.pre_execute(&pending).refusal.is_some(),
                "round {i}: the budget was forgotten"
            );
            advisor
                .post_execute(&fail(&format!("other-{i}"), "c", "PROVISIONING"), None, &c)
                .await;
        }
        failed.call = "late".into();
        let late = advisor.post_execute(&failed, None, &c).await;
        assert!(late.additional_contexts.is_empty(), "heard twice");
    });
}

/// What "forgotten" means, at the engine: an agent not touched while 16 others
/// were is still remembered; one left untouched while more than the ledger's
/// limit of others arrive is forgotten, and then hears its advisory again.
#[test]
fn an_agent_is_forgotten_only_after_capacity_others_were_touched() {
    let advisor = advisor(Registry::builder().family(ALPHA), capacity(json!({})));
    let (host, policy) = (linux(), Confining);
    let c = ctx(&host, &policy);
    run(async {
        let alpha = |agent: &str| fail(agent, "c", "ALPHA");
        assert_eq!(
            advisor
                .post_execute(&alpha("a"), None, &c)
                .await
                .additional_contexts
                .len(),
            1
        );
        for i in 0..CAPACITY {
            advisor
                .post_execute(&alpha(&format!("o{i}")), None, &c)
                .await;
        }
        assert!(
            advisor
                .post_execute(&alpha("a"), None, &c)
                .await
                .additional_contexts
                .is_empty(),
            "forgotten although only {CAPACITY} others were touched since"
        );
        assert_eq!(advisor.ledger().limit(), LIMIT);
        for i in 0..LIMIT {
            advisor
                .post_execute(&alpha(&format!("n{i}")), None, &c)
                .await;
        }
        assert_eq!(
            advisor
                .post_execute(&alpha("a"), None, &c)
                .await
                .additional_contexts
                .len(),
            1,
            "an agent left untouched past the limit is forgotten"
        );
    });
}
