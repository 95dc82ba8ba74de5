//! The pre-flight seat: at session start or on the session's first tracked
//! call, once per agent, resolver asked once per session, disclosure when the
//! session cannot be answered, and a separate seat from the failure half.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};

use advisor_core::{
    AgentId, Config, NoPolicyService, PolicyQuery, PolicySource, Registry, ResolvedPolicy,
    SandboxMode, SessionId, Unresolved,
};
use support::*;

const PRE: Fake = Fake {
    id: "pre",
    needle: "PRE-FAIL",
    rule: Rule::Speak,
    preflight: Some("checked before anything ran"),
};

#[derive(Default)]
struct Counting(AtomicUsize);

#[async_trait::async_trait]
impl PolicySource for Counting {
    async fn resolve(&self, _query: PolicyQuery<'_>) -> Result<ResolvedPolicy, Unresolved> {
        self.0.fetch_add(1, Ordering::SeqCst);
        Ok(ResolvedPolicy {
            mode: SandboxMode::WorkspaceWrite,
            workspace_root: None,
        })
    }
}

#[test]
fn session_start_advises_each_agent_once_and_resolves_once_per_session() {
    let advisor = advisor(Registry::builder().family(PRE), Config::default());
    let (host, policy) = (linux(), Counting::default());
    let c = ctx(&host, &policy);
    let s1 = SessionId::new("s1");
    run(async {
        let a1 = advisor
            .session_start(&AgentId::new("a1"), Some(&s1), &c)
            .await;
        assert_eq!(a1.additional_contexts.len(), 1);
        assert_eq!(
            a1.additional_contexts[0].text,
            "checked before anything ran"
        );
        let again = advisor
            .post_execute(&fail("a1", "c1", "unrelated"), None, &c)
            .await;
        assert!(
            again.additional_contexts.is_empty(),
            "the agent already heard the pre-flight"
        );
        let a2 = advisor
            .post_execute(&fail("a2", "c2", "unrelated"), None, &c)
            .await;
        assert_eq!(
            a2.additional_contexts.len(),
            1,
            "another agent of the session hears it on its first call"
        );
        let a3 = advisor
            .session_start(&AgentId::new("a3"), Some(&s1), &c)
            .await;
        assert_eq!(
            a3.additional_contexts.len(),
            1,
            "and a third at its own session start"
        );
    });
    assert_eq!(
        policy.0.load(Ordering::SeqCst),
        1,
        "the verdict is remembered per session"
    );
}

#[test]
fn the_failure_half_is_a_second_seat() {
    let advisor = advisor(Registry::builder().family(PRE), Config::default());
    let (host, policy) = (linux(), Counting::default());
    let c = ctx(&host, &policy);
    run(async {
        let first = advisor
            .post_execute(&fail("a1", "c1", "PRE-FAIL"), None, &c)
            .await;
        let texts: Vec<_> = first
            .additional_contexts
            .iter()
            .map(|a| a.summary.as_str().to_owned())
            .collect();
        assert_eq!(
            texts,
            ["pre-flight", "pre summary"],
            "pre-flight on the first call, then the failure's own advisory"
        );
        let second = advisor
            .post_execute(&fail("a1", "c2", "PRE-FAIL"), None, &c)
            .await;
        assert!(second.additional_contexts.is_empty());
    });
}

#[test]
fn an_unanswerable_session_is_disclosed_once_not_passed_off_as_clear() {
    let advisor = advisor(Registry::builder().family(PRE), Config::default());
    let (host, policy) = (linux(), NoPolicyService);
    let c = ctx(&host, &policy);
    run(async {
        let d = advisor
            .session_start(&AgentId::new("a1"), Some(&SessionId::new("s1")), &c)
            .await;
        assert_eq!(d.withheld.len(), 1);
        assert_eq!(d.withheld[0].reason.code(), "no-policy-service");
        let d = advisor
            .post_execute(&fail("a1", "c1", "unrelated"), None, &c)
            .await;
        assert!(d.withheld.is_empty(), "disclosed once");
    });
}

/// Counts resolutions of one session only.
struct CountsOne(&'static str, AtomicUsize);

#[async_trait::async_trait]
impl PolicySource for CountsOne {
    async fn resolve(&self, query: PolicyQuery<'_>) -> Result<ResolvedPolicy, Unresolved> {
        if query.session.map(SessionId::as_str) == Some(self.0) {
            self.1.fetch_add(1, Ordering::SeqCst);
        }
        Ok(ResolvedPolicy {
            mode: SandboxMode::WorkspaceWrite,
            workspace_root: None,
        })
    }
}

/// The pre-flight memo is bounded by `sessionCapacity`, and a session whose
/// verdict is consulted on every other call is never the one forgotten (its
/// verdict is computed once).
#[test]
fn the_preflight_memo_is_bounded_and_keeps_an_active_session() {
    let config = Config::from_json(serde_json::json!({"sessionCapacity": 8})).unwrap();
    let advisor = advisor(Registry::builder().family(PRE), config);
    let (host, policy) = (linux(), CountsOne("active", AtomicUsize::new(0)));
    let c = ctx(&host, &policy);
    let active = SessionId::new("active");
    run(async {
        for i in 0..2_000 {
            let mut call = fail(&format!("a{i}"), "c", "unrelated");
            call.session = Some(active.clone());
            advisor.post_execute(&call, None, &c).await;
            let other = SessionId::new(format!("s{i}"));
            advisor
                .session_start(&AgentId::new(format!("o{i}")), Some(&other), &c)
                .await;
            assert!(advisor.remembered_sessions() <= 9);
        }
    });
    assert_eq!(
        policy.1.load(Ordering::SeqCst),
        1,
        "the active session was forgotten"
    );
}

/// Issue 36 item 6: the pre-flight seat asks only the host's own families,
/// as the failure seat does. A harness family's pre-flight never speaks in a
/// Claude Code or Codex session, and its session's policy is never asked.
#[test]
fn a_preflight_family_is_asked_only_on_its_own_host() {
    for (kind, heard) in [
        (advisor_core::Host::ClaudeCode, 0),
        (advisor_core::Host::Codex, 0),
        (advisor_core::Host::Dsh, 1),
    ] {
        let advisor = advisor(Registry::builder().family(PRE), Config::default());
        let host = advisor_core::HostFacts { kind, ..linux() };
        let policy = Counting::default();
        let c = ctx(&host, &policy);
        let s1 = SessionId::new("s1");
        run(async {
            let start = advisor
                .session_start(&AgentId::new("a1"), Some(&s1), &c)
                .await;
            let call = advisor
                .post_execute(&fail("a2", "c1", "unrelated"), None, &c)
                .await;
            assert_eq!(
                (
                    start.additional_contexts.len(),
                    call.additional_contexts.len()
                ),
                (heard, heard),
                "{kind:?}"
            );
            assert!(start.withheld.is_empty() && call.withheld.is_empty());
        });
        assert_eq!(policy.0.load(Ordering::SeqCst), heard, "{kind:?}");
    }
}
