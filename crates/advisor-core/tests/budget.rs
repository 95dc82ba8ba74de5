//! The fail-fast budget: episodes, re-arming, the bound, the canonical call key,
//! the self-feeding guard, and that only the fail-fast family feeds it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use advisor_core::{
    Advisor, AgentId, CallId, Config, NoPolicyService, PendingCall, Registry, SessionId,
};
use serde_json::{Value, json};
use support::*;

fn budgeted(config: Value) -> Advisor {
    advisor(
        Registry::builder()
            .fail_fast_family(Provisioning)
            .family(ALPHA),
        Config::from_json(config).unwrap(),
    )
}

fn pending(call: &str, arguments: Value) -> PendingCall {
    PendingCall {
        agent: AgentId::new("a1"),
        session: Some(SessionId::new("s1")),
        call: CallId::new(call),
        tool: "bash".into(),
        arguments,
    }
}

fn failed(call: &str, arguments: Value, message: &str) -> advisor_core::Observation {
    let mut o = fail("a1", call, message);
    o.arguments = arguments;
    o
}

fn succeeded(call: &str, arguments: Value) -> advisor_core::Observation {
    let mut o = advisor_core::testing::success(json!({"kind": "foreground", "exitCode": 0}), "ok");
    o.call = call.into();
    o.arguments = arguments;
    o
}

fn refused(advisor: &Advisor, call: &str, arguments: Value) -> bool {
    advisor
        .pre_execute(&pending(call, arguments))
        .refusal
        .is_some()
}

#[test]
fn refuses_a_watched_call_after_enforce_after_failures_at_most_max_denials_times() {
    let advisor = budgeted(json!({"enforceAfter": 2, "maxDenials": 2}));
    let (host, policy) = (linux(), NoPolicyService);
    let c = ctx(&host, &policy);
    let x = json!({"command": "npm test", "cwd": "D:\\ws"});
    run(async {
        advisor
            .post_execute(&failed("c1", x.clone(), "PROVISIONING"), None, &c)
            .await;
        assert!(
            !refused(&advisor, "c2", x.clone()),
            "one failure is below enforceAfter"
        );
        advisor
            .post_execute(&failed("c2", x.clone(), "PROVISIONING"), None, &c)
            .await;
        assert!(
            refused(
                &advisor,
                "c3",
                json!({"cwd": "D:\\ws", "command": "npm test"})
            ),
            "key order is irrelevant"
        );
        assert!(refused(&advisor, "c4", x.clone()));
        assert!(
            !refused(&advisor, "c5", x.clone()),
            "maxDenials spent: the call goes through"
        );
        assert!(
            !refused(&advisor, "c6", json!({"command": "ls"})),
            "a call never watched is never refused"
        );
    });
}

#[test]
fn a_watched_call_that_succeeds_stops_being_a_target_and_rearms_the_budget() {
    let advisor = budgeted(json!({"enforceAfter": 1, "maxDenials": 1}));
    let (host, policy) = (linux(), NoPolicyService);
    let c = ctx(&host, &policy);
    let x = json!({"command": "npm test"});
    run(async {
        advisor
            .post_execute(&failed("c1", x.clone(), "PROVISIONING"), None, &c)
            .await;
        assert!(refused(&advisor, "c2", x.clone()));
        assert!(!refused(&advisor, "c3", x.clone()), "budget of one spent");
        advisor
            .post_execute(&succeeded("c3", x.clone()), None, &c)
            .await;
        assert!(
            !refused(&advisor, "c4", x.clone()),
            "no longer a target after it succeeded"
        );
        // The environment breaks again: a new episode, with a fresh budget.
        advisor
            .post_execute(&failed("c4", x.clone(), "PROVISIONING"), None, &c)
            .await;
        assert!(
            refused(&advisor, "c5", x.clone()),
            "re-armed: refused again"
        );
    });
}

#[test]
fn the_harness_materialized_refusal_is_not_counted_or_answered() {
    let advisor = budgeted(json!({"enforceAfter": 1, "maxDenials": 5}));
    let (host, policy) = (linux(), NoPolicyService);
    let c = ctx(&host, &policy);
    let x = json!({"command": "npm test"});
    run(async {
        let first = advisor
            .post_execute(&failed("c1", x.clone(), "PROVISIONING"), None, &c)
            .await;
        assert_eq!(first.additional_contexts.len(), 1);
        let refusal = advisor
            .pre_execute(&pending("c2", x.clone()))
            .refusal
            .unwrap();
        assert!(
            !refusal.reason.contains("PROVISIONING"),
            "the reason must not re-trigger recognition"
        );
        // The harness turns the deny into a failure of call c2 and runs post-execute on it.
        // Whatever text it carries, the advisor must not answer its own refusal.
        let echoed = failed("c2", x.clone(), &format!("ALPHA {}", refusal.reason));
        let d = advisor.post_execute(&echoed, None, &c).await;
        assert!(
            d.additional_contexts.is_empty() && d.withheld.is_empty(),
            "answered its own refusal: {d:?}"
        );
        // Only that one echo is swallowed: the same call id failing for real later is seen again.
        let real = advisor
            .post_execute(&failed("c2", x.clone(), "ALPHA"), None, &c)
            .await;
        assert_eq!(real.additional_contexts.len(), 1);
    });
}

#[test]
fn enforce_after_zero_never_refuses() {
    let advisor = budgeted(json!({}));
    let (host, policy) = (linux(), NoPolicyService);
    let x = json!({"command": "npm test"});
    run(async {
        for i in 0..5 {
            advisor
                .post_execute(
                    &failed(&format!("c{i}"), x.clone(), "PROVISIONING"),
                    None,
                    &ctx(&host, &policy),
                )
                .await;
        }
    });
    assert!(!refused(&advisor, "c9", x));
}

#[test]
fn only_the_fail_fast_family_feeds_the_budget() {
    let advisor = budgeted(json!({"enforceAfter": 1}));
    let (host, policy) = (linux(), NoPolicyService);
    let x = json!({"command": "npm test"});
    run(async {
        for i in 0..3 {
            advisor
                .post_execute(
                    &failed(&format!("c{i}"), x.clone(), "ALPHA"),
                    None,
                    &ctx(&host, &policy),
                )
                .await;
        }
    });
    assert!(!refused(&advisor, "c9", x));
}

#[test]
fn an_untracked_tool_is_never_refused() {
    let advisor = budgeted(json!({"enforceAfter": 1, "exclude": ["bash"]}));
    let (host, policy) = (linux(), NoPolicyService);
    let x = json!({"command": "npm test"});
    run(async {
        advisor
            .post_execute(
                &failed("c1", x.clone(), "PROVISIONING"),
                None,
                &ctx(&host, &policy),
            )
            .await;
    });
    assert!(!refused(&advisor, "c2", x));
}

#[test]
fn refusals_whose_failure_never_arrives_do_not_accumulate() {
    let advisor = budgeted(json!({"enforceAfter": 1, "maxDenials": 1}));
    let (host, policy) = (linux(), NoPolicyService);
    let c = ctx(&host, &policy);
    let x = json!({"command": "npm test"});
    run(async {
        // Each episode: a failure, one refusal (never posted back), a success that re-arms.
        for i in 0..40 {
            advisor
                .post_execute(
                    &failed(&format!("f{i}"), x.clone(), "PROVISIONING"),
                    None,
                    &c,
                )
                .await;
            assert!(
                refused(&advisor, &format!("r{i}"), x.clone()),
                "episode {i}"
            );
            advisor
                .post_execute(&succeeded(&format!("s{i}"), x.clone()), None, &c)
                .await;
        }
        // The oldest refusals were forgotten: their late echo is an ordinary failure now,
        // while the most recent refusal's echo is still swallowed.
        let late = advisor
            .post_execute(&failed("r0", x.clone(), "ALPHA"), None, &c)
            .await;
        assert_eq!(
            late.additional_contexts.len(),
            1,
            "a forgotten refusal id is an ordinary call"
        );
        let recent = advisor
            .post_execute(&failed("r39", x.clone(), "ALPHA again"), None, &c)
            .await;
        assert!(recent.additional_contexts.is_empty() && recent.withheld.is_empty());
    });
}

/// The reproduction: the same `post` sent twice (one call id) counted as
/// two failures, so a refusal followed one real failure.
#[test]
fn the_same_post_twice_counts_once() {
    let advisor = budgeted(json!({"enforceAfter": 2, "maxDenials": 2}));
    let (host, policy) = (linux(), NoPolicyService);
    let c = ctx(&host, &policy);
    let x = json!({"command": "npm test"});
    run(async {
        let post = failed("c1", x.clone(), "PROVISIONING");
        advisor.post_execute(&post, None, &c).await;
        advisor.post_execute(&post, None, &c).await;
        assert!(
            !refused(&advisor, "c2", x.clone()),
            "one real failure, posted twice, is below enforceAfter 2"
        );
        advisor
            .post_execute(&failed("c3", x.clone(), "PROVISIONING"), None, &c)
            .await;
        assert!(
            refused(&advisor, "c4", x.clone()),
            "two distinct calls count twice"
        );
    });
}

/// The reproduction: a refused call id that is never posted back, then
/// reused by an unrelated failing call (another tool, other arguments), swallowed
/// that failure's advisory. A refusal matches on call id and on tool + arguments.
#[test]
fn a_refused_call_id_reused_by_an_unrelated_failure_is_answered() {
    let advisor = budgeted(json!({"enforceAfter": 1, "maxDenials": 5}));
    let (host, policy) = (linux(), NoPolicyService);
    let c = ctx(&host, &policy);
    let x = json!({"command": "npm test"});
    run(async {
        advisor
            .post_execute(&failed("c1", x.clone(), "PROVISIONING"), None, &c)
            .await;
        assert!(refused(&advisor, "c2", x.clone()));
        // The refusal of c2 is never posted back; a later, unrelated call reuses the id.
        let mut unrelated = failed("c2", json!({"command": "Get-Date"}), "ALPHA");
        unrelated.tool = "pwsh".into();
        let d = advisor.post_execute(&unrelated, None, &c).await;
        assert_eq!(
            d.additional_contexts.len(),
            1,
            "the unrelated failure's advisory was swallowed"
        );
        // The same id with the same tool but other arguments is unrelated too.
        assert!(refused(&advisor, "c3", x.clone()));
        let other_args = failed("c3", json!({"command": "ls"}), "PROVISIONING");
        let d = advisor.post_execute(&other_args, None, &c).await;
        assert!(
            d.additional_contexts.is_empty(),
            "already heard provisioning"
        );
        assert!(
            refused(&advisor, "c4", json!({"command": "ls"})),
            "the failure of other arguments was counted and watched, not swallowed"
        );
    });
}

/// A refusal's materialized failure settles its call id: the same echo posted
/// again (here carrying a provisioning message) is not counted, so it cannot
/// put back on watch a call that has since succeeded.
#[test]
fn a_refusal_echo_posted_twice_counts_nothing() {
    let advisor = budgeted(json!({"enforceAfter": 1, "maxDenials": 5}));
    let (host, policy) = (linux(), NoPolicyService);
    let c = ctx(&host, &policy);
    let x = json!({"command": "npm test"});
    run(async {
        advisor
            .post_execute(&failed("c1", x.clone(), "PROVISIONING"), None, &c)
            .await;
        assert!(refused(&advisor, "c2", x.clone()));
        let echo = failed("c2", x.clone(), "PROVISIONING (refused)");
        advisor.post_execute(&echo, None, &c).await;
        advisor
            .post_execute(&succeeded("c3", x.clone()), None, &c)
            .await;
        assert!(!refused(&advisor, "c4", x.clone()), "no longer watched");
        advisor.post_execute(&echo, None, &c).await;
        assert!(
            !refused(&advisor, "c5", x.clone()),
            "a duplicate echo put the call back on watch"
        );
    });
}

/// Issue 23 item 10, at the budget itself: the fail-fast family here reads
/// every tool (its scope is `Any`), yet a network or file tool's failure is
/// never counted and its call never refused; a shell's identical failures are.
#[test]
fn only_a_process_tool_feeds_or_meets_the_budget() {
    let (host, policy) = (linux(), NoPolicyService);
    let c = ctx(&host, &policy);
    let x = json!({"command": "npm test"});
    for (tool, refused) in [
        ("web_fetch", false),
        ("read_file", false),
        ("bash", true),
        ("exec_command", true),
    ] {
        let advisor = budgeted(json!({"enforceAfter": 1, "maxDenials": 2}));
        let mut o = failed("c1", x.clone(), "PROVISIONING");
        o.tool = tool.into();
        run(async {
            advisor.post_execute(&o, None, &c).await;
        });
        let mut call = pending("c2", x.clone());
        call.tool = tool.into();
        assert_eq!(
            advisor.pre_execute(&call).refusal.is_some(),
            refused,
            "{tool}"
        );
    }
}
