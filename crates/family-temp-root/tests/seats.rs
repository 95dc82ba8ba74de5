//! How the core's ledger treats the family's two seats, driven through a real
//! `Advisor`: the pre-flight is computed once per session and delivered once per
//! agent; a later refusal is a second advisory in the failure seat; an
//! unanswerable host is disclosed once in the pre-flight seat, never cleared.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context as TaskContext, Poll, Waker};

use advisor_core::testing::{Case, host};
use advisor_core::{
    Advisor, AgentId, Config, Context, Host, HostFacts, HostPath, PathStyle, Platform, PolicyQuery,
    PolicySource, PostDecision, Registry, ResolvedPolicy, SandboxMode, SessionId, Unresolved,
    WorkspaceRoot,
};
use family_temp_root::TempRootInsideWorkspace;

/// A policy service that answers the same and counts how often it was asked.
struct Counting {
    answer: Result<ResolvedPolicy, Unresolved>,
    asked: AtomicUsize,
}

impl PolicySource for Counting {
    fn resolve<'a, 'b, 'r>(
        &'a self,
        _query: PolicyQuery<'b>,
    ) -> Pin<Box<dyn Future<Output = Result<ResolvedPolicy, Unresolved>> + Send + 'r>>
    where
        'a: 'r,
        'b: 'r,
        Self: 'r,
    {
        self.asked.fetch_add(1, Ordering::SeqCst);
        let answer = self.answer.clone();
        Box::pin(async move { answer })
    }
}

/// Every future here is ready on its first poll (no I/O, no timers).
fn now<T>(future: impl Future<Output = T>) -> T {
    let mut future = std::pin::pin!(future);
    let mut cx = TaskContext::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(value) = future.as_mut().poll(&mut cx) {
            return value;
        }
    }
}

fn windows_host() -> HostFacts {
    HostFacts {
        temp_dir: Some(r"C:\Users\u\AppData\Local\Temp".into()),
        ..host(Platform::Win32)
    }
}

fn policy(mode: SandboxMode) -> Counting {
    Counting {
        answer: Ok(ResolvedPolicy {
            mode,
            workspace_root: Some(WorkspaceRoot::new(HostPath::lexical(
                PathStyle::Windows,
                r"C:\Users\u",
            ))),
        }),
        asked: AtomicUsize::new(0),
    }
}

fn advisor() -> Advisor {
    let registry = Registry::builder()
        .family(TempRootInsideWorkspace)
        .build()
        .expect("registry");
    Advisor::new(registry, Config::default())
}

enum Step {
    SessionStart(&'static str),
    Fixture(&'static str, &'static str),
}

/// The only driver: runs the steps in one session `s1` and returns, per step,
/// (advisory summaries, withheld reason codes).
fn check(
    host: &HostFacts,
    policy: &Counting,
    steps: &[Step],
) -> Vec<(Vec<String>, Vec<&'static str>)> {
    let advisor = advisor();
    let ctx = Context { host, policy };
    let session = SessionId::new("s1");
    steps
        .iter()
        .map(|step| {
            let decision: PostDecision = match step {
                Step::SessionStart(agent) => {
                    now(advisor.session_start(&AgentId::new(*agent), Some(&session), &ctx))
                }
                Step::Fixture(agent, fixture) => {
                    let case = Case::named(env!("CARGO_MANIFEST_DIR"), fixture).unwrap();
                    let mut observation = case.observation().expect("an observation").clone();
                    observation.agent = AgentId::new(*agent);
                    now(advisor.post_execute(&observation, None, &ctx))
                }
            };
            (
                decision
                    .additional_contexts
                    .iter()
                    .map(|a| a.summary.as_str().to_owned())
                    .collect(),
                decision.withheld.iter().map(|w| w.reason.code()).collect(),
            )
        })
        .collect()
}

const PRE: &str =
    "Temp root is inside this session's workspace: sandboxed commands are expected to be refused";
const PROVIDER: &str = "Sandbox provider refused: temp root is inside the workspace; no command can run, retrying will not help";

fn said(summaries: &[&str]) -> (Vec<String>, Vec<&'static str>) {
    (summaries.iter().map(|s| (*s).to_owned()).collect(), vec![])
}

#[test]
fn preflight_then_failure_are_two_seats() {
    let policy = policy(SandboxMode::WorkspaceWrite);
    let got = check(
        &windows_host(),
        &policy,
        &[
            Step::SessionStart("a1"),
            Step::Fixture("a1", "pos-provider"),
            Step::Fixture("a1", "pos-runner"),
            Step::SessionStart("a1"),
        ],
    );
    assert_eq!(
        got,
        vec![said(&[PRE]), said(&[PROVIDER]), said(&[]), said(&[])]
    );
    assert_eq!(
        policy.asked.load(Ordering::SeqCst),
        1,
        "the verdict is remembered per session"
    );
}

#[test]
fn first_tracked_call_delivers_the_preflight_whatever_its_outcome() {
    let policy = policy(SandboxMode::WorkspaceWrite);
    let got = check(
        &windows_host(),
        &policy,
        &[
            Step::Fixture("a1", "ctl-success-output-is-sentence"),
            Step::Fixture("a1", "pos-provider"),
        ],
    );
    assert_eq!(got, vec![said(&[PRE]), said(&[PROVIDER])]);
}

#[test]
fn each_agent_hears_the_preflight_once_from_one_resolution() {
    let policy = policy(SandboxMode::WorkspaceWrite);
    let got = check(
        &windows_host(),
        &policy,
        &[
            Step::SessionStart("a1"),
            Step::SessionStart("a2"),
            Step::SessionStart("a2"),
        ],
    );
    assert_eq!(got, vec![said(&[PRE]), said(&[PRE]), said(&[])]);
    assert_eq!(policy.asked.load(Ordering::SeqCst), 1);
}

#[test]
fn unanswerable_host_is_disclosed_once_and_the_failure_half_still_speaks() {
    let policy = Counting {
        answer: Err(Unresolved::NoPolicyService),
        asked: AtomicUsize::new(0),
    };
    let got = check(
        &windows_host(),
        &policy,
        &[
            Step::SessionStart("a1"),
            Step::Fixture("a1", "pos-provider"),
            Step::SessionStart("a1"),
        ],
    );
    assert_eq!(
        got,
        vec![
            (vec![], vec!["no-policy-service"]),
            said(&[PROVIDER]),
            said(&[])
        ]
    );
}

#[test]
fn read_only_session_is_clear_and_non_windows_host_skips_the_preflight() {
    let read_only = policy(SandboxMode::ReadOnly);
    let got = check(&windows_host(), &read_only, &[Step::SessionStart("a1")]);
    assert_eq!(got, vec![said(&[])]);
    let linux = HostFacts {
        platform: Platform::Linux,
        ..windows_host()
    };
    let ww = policy(SandboxMode::WorkspaceWrite);
    let got = check(
        &linux,
        &ww,
        &[
            Step::SessionStart("a1"),
            Step::Fixture("a1", "pos-provider"),
        ],
    );
    assert_eq!(
        got,
        vec![said(&[]), said(&[PROVIDER])],
        "no platform gate on the failure half"
    );
    assert_eq!(
        ww.asked.load(Ordering::SeqCst),
        0,
        "neither seat consulted the resolver"
    );
}

/// Issue 36 item 6: the family is the DeepSeek harness's. A Claude Code or
/// Codex session on Windows, opened in the profile with `%TEMP%` inside it,
/// hears nothing from it in either seat (its remedy restarts the harness),
/// and the resolver is never asked; the harness's own session still hears
/// the pre-flight.
#[test]
fn the_preflight_speaks_only_for_the_harness_it_knows() {
    for (kind, expected) in [
        (Host::ClaudeCode, said(&[])),
        (Host::Codex, said(&[])),
        (Host::Dsh, said(&[PRE])),
    ] {
        let policy = policy(SandboxMode::WorkspaceWrite);
        let on = HostFacts {
            kind,
            ..windows_host()
        };
        let got = check(
            &on,
            &policy,
            &[
                Step::SessionStart("a1"),
                Step::Fixture("a2", "ctl-success-output-is-sentence"),
            ],
        );
        let second = match kind {
            Host::Dsh => said(&[PRE]),
            _ => said(&[]),
        };
        assert_eq!(got, vec![expected, second], "{kind:?}");
        let asked = policy.asked.load(Ordering::SeqCst);
        assert_eq!(asked, usize::from(kind == Host::Dsh), "{kind:?}");
    }
}
