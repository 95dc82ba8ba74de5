//! The family registered as the fail-fast family, driven through the core
//! advisor: what it feeds the budget, and what it must never feed it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::future::Future;
use std::pin::pin;
use std::task::{Poll, Waker};

use advisor_core::testing::{StaticPolicy, failure, foreground, host, success};
use advisor_core::{
    Advisor, AgentId, CallId, Config, Context, Observation, PendingCall, Platform, PostDecision,
    Registry, SessionId, ToolName, Unresolved,
};
use serde_json::{Value, json};

const LINE: &str = r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)";

/// Polls a future that never waits (the family never consults the resolver).
fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut cx = std::task::Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(value) = future.as_mut().poll(&mut cx) {
            return value;
        }
    }
}

fn advisor() -> Advisor {
    let registry = family_acl::register(Registry::builder()).build().unwrap();
    Advisor::new(
        registry,
        Config::from_json(json!({"enforceAfter": 2})).unwrap(),
    )
}

fn args() -> Value {
    json!({"command": "npm test", "cwd": "D:\\ws"})
}

fn call(id: &str, arguments: Value, outcome: Observation) -> Observation {
    Observation {
        call: CallId::new(id),
        arguments,
        ..outcome
    }
}

fn post(advisor: &Advisor, observation: &Observation) -> PostDecision {
    let host = host(Platform::Win32);
    let policy = StaticPolicy(Err(Unresolved::NoPolicyService));
    let ctx = Context {
        host: &host,
        policy: &policy,
    };
    block_on(advisor.post_execute(observation, None, &ctx))
}

fn pre(advisor: &Advisor, id: &str, arguments: Value) -> Option<String> {
    advisor
        .pre_execute(&PendingCall {
            agent: AgentId::new("a1"),
            session: Some(SessionId::new("s1")),
            call: CallId::new(id),
            tool: ToolName::new("bash"),
            arguments,
        })
        .refusal
        .map(|r| r.reason)
}

#[test]
fn registered_as_the_fail_fast_family() {
    let registry = family_acl::register(Registry::builder()).build().unwrap();
    assert_eq!(registry.fail_fast_family(), Some(family_acl::ID));
}

#[test]
fn two_failures_refuse_the_identical_call() {
    let advisor = advisor();
    let first = post(&advisor, &call("c1", args(), failure(LINE)));
    assert_eq!(first.additional_contexts.len(), 1);
    assert!(first.withheld.is_empty());
    assert_eq!(
        pre(&advisor, "c2", args()),
        None,
        "one failure is not enough"
    );
    let second = post(&advisor, &call("c2", args(), failure(LINE)));
    assert!(second.additional_contexts.is_empty(), "once per agent");
    let reordered = json!({"cwd": "D:\\ws", "command": "npm test"});
    assert!(pre(&advisor, "c3", reordered.clone()).is_some());
    assert_eq!(pre(&advisor, "c4", json!({"command": "dir"})), None);
    assert!(pre(&advisor, "c5", reordered.clone()).is_some());
    assert_eq!(pre(&advisor, "c6", reordered), None, "maxDenials spent");
}

#[test]
fn success_quoting_the_line_rearms_instead_of_counting() {
    let advisor = advisor();
    post(&advisor, &call("c1", args(), failure(LINE)));
    post(&advisor, &call("c2", args(), failure(LINE)));
    assert!(pre(&advisor, "c3", args()).is_some());
    assert!(pre(&advisor, "c4", args()).is_some());
    assert_eq!(pre(&advisor, "c5", args()), None);
    // The call went through and succeeded; its output happens to quote an old log.
    let log = format!("build.log:\n{LINE}\n");
    post(
        &advisor,
        &call("c5", args(), success(foreground(0, &log, "", None), &log)),
    );
    assert_eq!(pre(&advisor, "c6", args()), None, "no longer watched");
    post(&advisor, &call("c6", args(), failure(LINE)));
    assert!(pre(&advisor, "c7", args()).is_some(), "re-armed");
}

#[test]
fn refusals_own_failure_is_not_answered() {
    let advisor = advisor();
    post(&advisor, &call("c1", args(), failure(LINE)));
    post(&advisor, &call("c2", args(), failure(LINE)));
    let reason = pre(&advisor, "c3", args()).unwrap();
    let denied = post(&advisor, &call("c3", args(), failure(&reason)));
    assert_eq!(denied, PostDecision::default());
}

/// Issue 13: a line thrown without a detail still feeds the budget, and
/// neither its advisory nor the refusal that follows names a directory or
/// fakes a fix line for one.
#[test]
fn a_line_without_a_detail_refuses_without_a_fix_line() {
    const BARE: &str = "SetNamedSecurityInfoW failed (Win32 5)";
    let advisor = advisor();
    let first = post(&advisor, &call("c1", args(), failure(BARE)));
    let advisory = &first.additional_contexts[0].text;
    assert!(advisory.contains("The error names no directory"));
    assert!(advisory.contains("icacls <dir> /grant"));
    post(&advisor, &call("c2", args(), failure(BARE)));
    let reason = pre(&advisor, "c3", args()).expect("refused like any other provisioning failure");
    for faked in ["icacls", "<dir>", ":\\", "/grant", "Get-Acl"] {
        assert!(
            !reason.contains(faked),
            "{faked:?} in the refusal: {reason}"
        );
    }
}

/// Issue 23 item 10: a tool's class decides whether its text can be a
/// provisioning failure. Three identical calls fail with an HTTP 429 body
/// that quotes the line at the start of a line; for a network tool nothing is
/// advised, nothing counted and nothing refused; for a shell, the same text
/// is advised once and the third call is refused.
#[test]
fn only_a_process_tool_carries_a_provisioning_failure() {
    let body = format!("HTTP 429 Too Many Requests\n{LINE}\nRetry-After: 30");
    // (tool, advisories over the three calls, refusals of the third)
    for (tool, advised, refused) in [
        ("web_fetch", 0, false),
        ("WebFetch", 0, false),
        ("pwsh", 1, true),
        ("bash", 1, true),
    ] {
        let advisor = advisor();
        let arguments = json!({"url": "https://example.org/", "command": "x"});
        let mut spoken = 0;
        let mut third = None;
        for id in ["c1", "c2", "c3"] {
            let pending = PendingCall {
                agent: AgentId::new("a1"),
                session: Some(SessionId::new("s1")),
                call: CallId::new(id),
                tool: ToolName::new(tool),
                arguments: arguments.clone(),
            };
            third = advisor.pre_execute(&pending).refusal;
            if third.is_some() {
                break;
            }
            let mut o = call(id, arguments.clone(), failure(&body));
            o.tool = ToolName::new(tool);
            spoken += post(&advisor, &o).additional_contexts.len();
        }
        assert_eq!(spoken, advised, "{tool}: advisories");
        assert_eq!(third.is_some(), refused, "{tool}: the third call refused");
    }
}
