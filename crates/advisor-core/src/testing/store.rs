//! Testing a [`LedgerStore`]: two family doubles, an advisor over a store,
//! and the checks every store must pass, so a store crate (the shipped ones,
//! or a harness's own) tests the same semantics the same way. Two advisors
//! over one store stand for two processes sharing it.

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context as TaskContext, Poll, Waker};

use serde_json::{Value, json};

use crate::advisor::{Advisor, Context, PendingCall};
use crate::advisory::Advisory;
use crate::config::Config;
use crate::environment::{Environment, HostFacts, NoPolicyService, Platform, PolicyNeed};
use crate::family::{Anchors, FailFast, Family, FamilyDoc, Gate};
use crate::ids::{AgentId, CallId, FamilyId, SessionId};
use crate::ledger::LedgerStore;
use crate::observation::Observation;
use crate::registry::Registry;

/// A family that speaks on any failure whose message contains `ALPHA`.
#[derive(Debug, Clone, Copy)]
pub struct Alpha;

/// The fail-fast double: speaks on `PROVISIONING`, and feeds the budget.
#[derive(Debug, Clone, Copy)]
pub struct Provisioning;

/// Declares a double that recognizes one word and always speaks.
macro_rules! double {
    ($family:ty, $id:literal, $word:literal, $summary:literal) => {
        impl Family for $family {
            type Finding = ();
            fn id(&self) -> FamilyId {
                FamilyId::new($id)
            }
            fn doc(&self) -> FamilyDoc {
                FamilyDoc {
                    recognizes: $word,
                    refuses: "-",
                }
            }
            fn hosts(&self) -> &'static [crate::Host] {
                &crate::Host::ALL
            }
            fn anchors(&self) -> Anchors {
                Anchors::FailureText { needles: &[$word] }
            }
            fn recognize(&self, observation: &Observation) -> Option<()> {
                observation.failure()?.message.contains($word).then_some(())
            }
            fn policy_need(&self, _: &(), _: &HostFacts) -> PolicyNeed {
                PolicyNeed::NotNeeded
            }
            fn provenance(&self, _: &(), _: &Environment) -> crate::Provenance {
                // A failure the harness settled: the fail-fast budget counts it.
                crate::Provenance::Proven(crate::Proof::HarnessRecord)
            }
            fn gate(&self, _: &(), _: &Environment) -> Gate {
                Gate::Speak
            }
            fn advise(&self, _: &(), _: &Environment) -> Advisory {
                Advisory::new(self.id(), $summary, $summary.into())
            }
        }
    };
}

double!(Alpha, "alpha", "ALPHA", "alpha saw it");
double!(
    Provisioning,
    "provisioning",
    "PROVISIONING",
    "provisioning failed"
);

impl FailFast for Provisioning {}

/// One "process": an advisor with [`Provisioning`] and [`Alpha`] over `store`.
pub fn process(store: Arc<dyn LedgerStore>, config: Value) -> Advisor {
    process_with(vec![store], config)
}

/// [`process`] with several stores, tried in order.
#[allow(
    clippy::expect_used,
    reason = "test support: the doubles always register"
)]
pub fn process_with(stores: Vec<Arc<dyn LedgerStore>>, config: Value) -> Advisor {
    Advisor::with_stores(
        Registry::builder()
            .fail_fast_family(Provisioning)
            .family(Alpha)
            .build()
            .expect("the doubles register"),
        Config::from_json(config).expect("a valid test configuration"),
        stores,
    )
}

/// A failure of `bash` `{"command": "echo hi"}` with `message`.
pub fn fail(agent: &str, call: &str, message: &str) -> Observation {
    let mut o = super::failure(message);
    o.agent = agent.into();
    o.call = call.into();
    o
}

/// A success of the same call.
pub fn ok(agent: &str, call: &str) -> Observation {
    let mut o = super::success(json!({"kind": "foreground", "exitCode": 0}), "ok");
    o.agent = agent.into();
    o.call = call.into();
    o
}

/// Posts a settled call; the number of advisories delivered.
pub fn post(advisor: &Advisor, observation: Observation) -> usize {
    let (host, policy) = (super::host(Platform::Linux), NoPolicyService);
    let ctx = Context {
        host: &host,
        policy: &policy,
    };
    ready(advisor.post_execute(&observation, None, &ctx))
        .additional_contexts
        .len()
}

/// Asks before dispatching the same call; true when refused.
pub fn pre(advisor: &Advisor, agent: &str, call: &str) -> bool {
    advisor
        .pre_execute(&PendingCall {
            agent: AgentId::new(agent),
            session: Some(SessionId::new("s1")),
            call: CallId::new(call),
            tool: "bash".into(),
            arguments: json!({"command": "echo hi"}),
        })
        .refusal
        .is_some()
}

/// Runs a future that never waits (no policy service is consulted).
#[allow(clippy::panic, reason = "test support: a waiting future is a test bug")]
fn ready<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    match future
        .as_mut()
        .poll(&mut TaskContext::from_waker(Waker::noop()))
    {
        Poll::Ready(output) => output,
        Poll::Pending => panic!("the advisor waited, but no service was consulted"),
    }
}

/// Processes made by `open` (each its own handle on one shared store) tell an
/// agent once, forget it everywhere on `agent_end`, and keep other agents.
pub fn advised_once_across_processes(open: impl Fn() -> Arc<dyn LedgerStore>) {
    let (one, two) = (process(open(), json!({})), process(open(), json!({})));
    assert_eq!(post(&one, fail("a1", "c1", "ALPHA")), 1);
    assert_eq!(
        post(&two, fail("a1", "c2", "ALPHA")),
        0,
        "the store said again"
    );
    assert_eq!(post(&two, fail("a2", "c3", "ALPHA")), 1, "another agent");
    two.agent_end(&AgentId::new("a1"));
    assert_eq!(
        post(&one, fail("a1", "c5", "ALPHA")),
        0,
        "one still remembers"
    );
    let three = process(open(), json!({}));
    assert_eq!(
        post(&three, fail("a1", "c6", "ALPHA")),
        1,
        "forgotten in the store"
    );
    assert_eq!(post(&three, fail("a2", "c7", "ALPHA")), 0, "a2 was not");
}

/// `enforceAfter` 1, `maxDenials` 2 across processes made by `open`: the
/// refusals are counted in the store, a success stops watching the call, and
/// a new failure re-arms the episode.
pub fn budget_shared_across_processes(open: impl Fn() -> Arc<dyn LedgerStore>) {
    let config = json!({"enforceAfter": 1, "maxDenials": 2});
    let (one, two) = (process(open(), config.clone()), process(open(), config));
    post(&one, fail("a1", "c1", "PROVISIONING"));
    assert!(pre(&two, "a1", "p1"), "refused in the other process");
    assert!(pre(&one, "a1", "p2"));
    assert!(
        !pre(&two, "a1", "p3"),
        "two refusals per episode, across processes"
    );
    assert!(!pre(&one, "a2", "p4"), "another agent");
    post(&two, ok("a1", "s1"));
    assert!(!pre(&one, "a1", "p5"), "a success stops watching the call");
    post(&two, fail("a1", "c2", "PROVISIONING"));
    assert!(pre(&one, "a1", "p6"), "and re-armed the episode's refusals");
    assert!(pre(&two, "a1", "p7"));
    assert!(!pre(&one, "a1", "p8"));
}

/// Issue 36 item 7: a record `copy` moves from one agent's place in the store
/// onto another's (as anyone who can write the store could) is the first
/// agent's history, never the second's: the second agent's identical call
/// is never refused, however often it asks, and its own failures still
/// count. `enforceAfter` 1, `maxDenials` 2.
pub fn a_copied_record_refuses_nothing(
    open: impl Fn() -> Arc<dyn LedgerStore>,
    copy: impl Fn(&AgentId, &AgentId),
) {
    let config = json!({"enforceAfter": 1, "maxDenials": 2});
    let (one, two) = (process(open(), config.clone()), process(open(), config));
    post(&one, fail("a1", "c1", "PROVISIONING"));
    assert!(pre(&one, "a1", "p1"), "a1's record refuses a1's call");
    copy(&AgentId::new("a1"), &AgentId::new("a2"));
    for call in ["p2", "p3", "p4"] {
        assert!(!pre(&two, "a2", call), "{call}: a2 never failed");
    }
    copy(&AgentId::new("a1"), &AgentId::new("a2"));
    post(&two, fail("a2", "c2", "PROVISIONING"));
    assert!(pre(&one, "a2", "p5"), "a2's own failure counts");
    assert!(pre(&two, "a2", "p6"));
    assert!(!pre(&one, "a2", "p7"), "two refusals: a1's were not added");
}
