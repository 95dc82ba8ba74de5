//! The engine's promises, driven through hand-written family doubles:
//! once per agent per family, disclosure once, include/exclude, precedence,
//! never defaulting an unresolvable policy, and fault isolation.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use advisor_core::testing::{StaticPolicy, success};
use advisor_core::{
    AgentId, Config, Explanation, NoPolicyService, PolicyQuery, PolicySource, Registry,
    ResolvedPolicy, SandboxMode, Unresolved, disclosure,
};
use serde_json::json;
use support::*;

/// [`support::run`], one at a time in this binary.
///
/// tracing caches each call site's interest for the whole process: an
/// advisor run on another test's thread, hitting a site for the first time
/// while a [`LogCapture`] is in place, could leave it cached without the
/// capture, which then missed every line
/// (`a_spoken_advisory_is_logged_once_with_its_summary` saw 0 lines in 11 of
/// 20 runs beside the other tests here, none when serial). Each run
/// recomputes the interests once it holds the turn. These tests keep no
/// time, so taking turns changes nothing else.
fn run<F: std::future::Future>(f: F) -> F::Output {
    static TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _turn = TURN
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    tracing::callsite::rebuild_interest_cache();
    support::run(f)
}

/// The question the resolver was asked, owned so mockall can match on it.
#[derive(Debug, Clone, PartialEq)]
pub struct Asked {
    session: Option<String>,
    approved_mode: Option<SandboxMode>,
}

#[mockall::automock]
trait Resolve {
    fn resolve(&self, asked: Asked) -> Result<ResolvedPolicy, Unresolved>;
}

#[async_trait::async_trait]
impl PolicySource for MockResolve {
    async fn resolve(&self, query: PolicyQuery<'_>) -> Result<ResolvedPolicy, Unresolved> {
        let asked = Asked {
            session: query.session.map(|s| s.to_string()),
            approved_mode: query.approved_mode,
        };
        Resolve::resolve(self, asked)
    }
}

type MockPolicy = MockResolve;

fn workspace_write() -> StaticPolicy {
    StaticPolicy(Ok(ResolvedPolicy {
        mode: SandboxMode::WorkspaceWrite,
        workspace_root: None,
    }))
}

#[test]
fn once_per_agent_per_family() {
    let advisor = two_families();
    let (host, policy) = (linux(), NoPolicyService);
    let c = ctx(&host, &policy);
    run(async {
        let first = advisor
            .post_execute(&fail("a1", "c1", "ALPHA"), None, &c)
            .await;
        assert_eq!(first.additional_contexts.len(), 1);
        let again = advisor
            .post_execute(&fail("a1", "c2", "ALPHA again"), None, &c)
            .await;
        assert!(
            again.additional_contexts.is_empty(),
            "a second call of the same agent hears nothing"
        );
        let other_agent = advisor
            .post_execute(&fail("a2", "c3", "ALPHA"), None, &c)
            .await;
        assert_eq!(
            other_agent.additional_contexts.len(),
            1,
            "another agent hears it too"
        );
    });
}

#[test]
fn two_families_one_agent_hears_both_once_each() {
    let advisor = two_families();
    let (host, policy) = (linux(), NoPolicyService);
    let c = ctx(&host, &policy);
    run(async {
        let mut families = Vec::new();
        for (i, msg) in ["ALPHA", "BETA", "ALPHA", "BETA"].iter().enumerate() {
            let d = advisor
                .post_execute(&fail("a1", &format!("c{i}"), msg), None, &c)
                .await;
            families.extend(d.additional_contexts.iter().map(|a| a.family.as_str()));
        }
        assert_eq!(families, ["alpha", "beta"]);
    });
}

#[test]
fn agent_end_forgets_the_agent() {
    let advisor = two_families();
    let (host, policy) = (linux(), NoPolicyService);
    let c = ctx(&host, &policy);
    run(async {
        assert_eq!(
            advisor
                .post_execute(&fail("a1", "c1", "ALPHA"), None, &c)
                .await
                .additional_contexts
                .len(),
            1
        );
        advisor.agent_end(&AgentId::new("a1"));
        assert_eq!(advisor.ledger().len(), 0);
        assert_eq!(
            advisor
                .post_execute(&fail("a1", "c2", "ALPHA"), None, &c)
                .await
                .additional_contexts
                .len(),
            1
        );
    });
}

#[test]
fn withheld_is_disclosed_once_per_reason_and_logged() {
    let advisor = advisor(
        Registry::builder().family(Fake::new("gated", "GATED", Rule::Confining)),
        Config::default(),
    );
    let host = linux();
    let log = LogCapture::default();
    log.scoped(|| {
        run(async {
            let unresolved = NoPolicyService;
            let c = ctx(&host, &unresolved);
            let first = advisor
                .post_execute(&fail("a1", "c1", "GATED"), None, &c)
                .await;
            assert_eq!(first.withheld.len(), 1);
            assert_eq!(first.withheld[0].reason.code(), "no-policy-service");
            assert!(first.additional_contexts.is_empty());
            let second = advisor
                .post_execute(&fail("a1", "c2", "GATED"), None, &c)
                .await;
            assert!(second.withheld.is_empty(), "disclosed once");
            let danger = StaticPolicy(Ok(ResolvedPolicy {
                mode: SandboxMode::DangerFullAccess,
                workspace_root: None,
            }));
            let c = ctx(&host, &danger);
            let third = advisor
                .post_execute(&fail("a1", "c3", "GATED"), None, &c)
                .await;
            assert_eq!(
                third.withheld[0].reason.code(),
                "unconfined-mode",
                "a new reason is disclosed"
            );
        })
    });
    assert_eq!(log.count(disclosure::WITHHELD_TARGET), 2, "{}", log.text());
}

#[test]
fn a_spoken_advisory_is_logged_once_with_its_summary() {
    let advisor = two_families();
    let (host, policy) = (linux(), NoPolicyService);
    let log = LogCapture::default();
    log.scoped(|| {
        run(async {
            let c = ctx(&host, &policy);
            advisor
                .post_execute(&fail("a1", "c1", "ALPHA"), None, &c)
                .await;
            advisor
                .post_execute(&fail("a1", "c2", "ALPHA"), None, &c)
                .await;
        })
    });
    assert_eq!(log.count(disclosure::ADVISORY_TARGET), 1, "{}", log.text());
    assert!(log.text().contains("alpha summary"));
    assert!(log.text().contains("INFO"));
}

#[test]
fn an_untracked_call_is_transparent_to_every_family() {
    let config = Config::from_json(json!({"include": ["b*"], "exclude": ["bash-legacy"]})).unwrap();
    let advisor = advisor(
        Registry::builder()
            .family(ALPHA)
            .family(Fake::new("gated", "GATED", Rule::Confining)),
        config,
    );
    let (host, policy) = (linux(), NoPolicyService);
    let c = ctx(&host, &policy);
    run(async {
        let mut call = fail("a1", "c1", "ALPHA GATED");
        call.tool = "bash-legacy".into();
        let d = advisor.post_execute(&call, None, &c).await;
        assert!(
            d.additional_contexts.is_empty() && d.withheld.is_empty(),
            "excluded: {d:?}"
        );
        call.tool = "read_file".into();
        let d = advisor.post_execute(&call, None, &c).await;
        assert!(
            d.additional_contexts.is_empty() && d.withheld.is_empty(),
            "not included: {d:?}"
        );
        call.tool = "bash".into();
        assert_eq!(
            advisor
                .post_execute(&call, None, &c)
                .await
                .additional_contexts
                .len(),
            1,
            "included"
        );
    });
}

#[test]
fn the_first_family_in_precedence_order_owns_the_observation() {
    let (host, policy) = (linux(), NoPolicyService);
    let c = ctx(&host, &policy);
    run(async {
        let both = fail("a1", "c1", "ALPHA BETA");
        let ab = advisor(
            Registry::builder().family(ALPHA).family(BETA),
            Config::default(),
        );
        let d = ab.post_execute(&both, None, &c).await;
        assert_eq!(
            d.additional_contexts
                .iter()
                .map(|a| a.family.as_str())
                .collect::<Vec<_>>(),
            ["alpha"]
        );
        let ba = advisor(
            Registry::builder().family(BETA).family(ALPHA),
            Config::default(),
        );
        let d = ba.post_execute(&both, None, &c).await;
        assert_eq!(
            d.additional_contexts
                .iter()
                .map(|a| a.family.as_str())
                .collect::<Vec<_>>(),
            ["beta"]
        );
    });
}

#[test]
fn an_owner_that_declines_keeps_the_observation_silent() {
    let advisor = advisor(
        Registry::builder()
            .family(Fake::new("decliner", "ALPHA", Rule::Decline))
            .family(ALPHA),
        Config::default(),
    );
    let (host, policy) = (linux(), NoPolicyService);
    let c = ctx(&host, &policy);
    run(async {
        let d = advisor
            .post_execute(&fail("a1", "c1", "ALPHA"), None, &c)
            .await;
        assert!(
            d.additional_contexts.is_empty() && d.withheld.is_empty(),
            "{d:?}"
        );
    });
}

#[test]
fn an_unresolvable_policy_is_never_replaced_by_a_default() {
    let advisor = advisor(
        Registry::builder().family(Fake::new("gated", "GATED", Rule::Confining)),
        Config::default(),
    );
    let host = linux();
    run(async {
        let mut policy = MockPolicy::new();
        policy
            .expect_resolve()
            .times(1)
            .returning(|_| Err(Unresolved::ResolverError("down".into())));
        let d = advisor
            .post_execute(&fail("a1", "c1", "GATED"), None, &ctx(&host, &policy))
            .await;
        assert_eq!(d.withheld[0].reason.code(), "resolver-error");
        assert!(d.additional_contexts.is_empty());
    });
}

#[test]
fn an_agentless_call_is_not_resolved_at_all() {
    let advisor = advisor(
        Registry::builder().family(Fake::new("gated", "GATED", Rule::Confining)),
        Config::default(),
    );
    let host = linux();
    run(async {
        let mut policy = MockPolicy::new();
        policy.expect_resolve().times(0);
        let mut call = fail("a1", "c1", "GATED");
        call.session = None;
        let d = advisor
            .post_execute(&call, None, &ctx(&host, &policy))
            .await;
        assert_eq!(d.withheld[0].reason.code(), "no-session");
    });
}

#[test]
fn the_resolver_is_consulted_only_when_the_finding_needs_it() {
    let advisor = two_families();
    let host = linux();
    run(async {
        let mut policy = MockPolicy::new();
        policy.expect_resolve().times(0);
        let c = ctx(&host, &policy);
        assert_eq!(
            advisor
                .post_execute(&fail("a1", "c1", "ALPHA"), None, &c)
                .await
                .additional_contexts
                .len(),
            1
        );
        advisor
            .post_execute(&fail("a1", "c2", "nothing"), None, &c)
            .await;
    });
}

#[test]
fn the_approved_mode_reaches_the_resolver() {
    let advisor = advisor(
        Registry::builder().family(Fake::new("gated", "GATED", Rule::Confining)),
        Config::default(),
    );
    let host = linux();
    run(async {
        let mut policy = MockPolicy::new();
        policy
            .expect_resolve()
            .withf(|q| q.approved_mode == Some(SandboxMode::ReadOnly) && q.session.is_some())
            .times(1)
            .returning(|q| {
                Ok(ResolvedPolicy {
                    mode: q.approved_mode.unwrap(),
                    workspace_root: None,
                })
            });
        let d = advisor
            .post_execute(
                &fail("a1", "c1", "GATED"),
                Some(SandboxMode::ReadOnly),
                &ctx(&host, &policy),
            )
            .await;
        assert_eq!(d.additional_contexts.len(), 1);
    });
}

#[test]
fn a_panicking_family_lets_the_call_through_and_the_others_still_speak() {
    let advisor = advisor(
        Registry::builder().family(Panicky).family(ALPHA),
        Config::default(),
    );
    let (host, policy) = (linux(), workspace_write());
    run(async {
        let d = advisor
            .post_execute(&fail("a1", "c1", "ALPHA"), None, &ctx(&host, &policy))
            .await;
        assert_eq!(d.additional_contexts.len(), 1);
    });
}

#[test]
fn a_success_is_never_a_failure_family_finding() {
    let advisor = two_families();
    let (host, policy) = (linux(), NoPolicyService);
    run(async {
        let quoted = success(json!({"kind": "foreground", "exitCode": 0}), "ALPHA BETA");
        let d = advisor
            .post_execute(&quoted, None, &ctx(&host, &policy))
            .await;
        assert!(d.additional_contexts.is_empty());
    });
}

#[test]
fn explain_lists_every_family_and_who_owns_it() {
    let advisor = advisor(
        Registry::builder()
            .family(ALPHA)
            .family(BETA)
            .family(Fake::new("gated", "ALPHA", Rule::Confining)),
        Config::default(),
    );
    let (host, policy) = (linux(), NoPolicyService);
    run(async {
        let out = advisor
            .explain(&fail("a1", "c1", "ALPHA"), None, &ctx(&host, &policy))
            .await;
        assert!(matches!(out[0].1, Explanation::Speaks(_)));
        assert_eq!(out[1].1, Explanation::NotRecognized);
        assert_eq!(
            out[2].1,
            Explanation::Outranked(advisor_core::FamilyId::new("alpha"))
        );
    });
}

#[test]
fn registry_refuses_duplicates_and_malformed_ids() {
    assert!(
        Registry::builder()
            .family(ALPHA)
            .family(ALPHA)
            .build()
            .is_err()
    );
    assert!(
        Registry::builder()
            .family(Fake::new("Bad_Id", "x", Rule::Speak))
            .build()
            .is_err()
    );
    assert!(
        Registry::builder()
            .fail_fast_family(Provisioning)
            .fail_fast_family(Provisioning)
            .build()
            .is_err()
    );
}
