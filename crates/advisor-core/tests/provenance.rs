//! Provenance through the advisor: only a proven failure feeds the fail-fast
//! budget, a refuted one is declined before the gate, a forgeable one is
//! never a confirmed cause, and the host probe is asked only for a
//! recognized result, only for the facts its family named.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use advisor_core::diagnosis::Confidence;
use advisor_core::{
    Advisor, Advisory, AgentId, Anchors, CallId, Check, Checks, Config, Environment, FailFast,
    Family, FamilyDoc, FamilyId, Gate, HomePlace, HostChecks, HostFacts, HostProbe,
    NoPolicyService, Observation, PendingCall, PolicyNeed, Proof, Provenance, Registry, SessionId,
};
use serde_json::json;
use support::*;

/// A fail-fast double whose provenance is the probe's answer on Codex's home:
/// under the temp dir proves it, outside refutes it, unknown is forgeable.
struct Checked;

impl Family for Checked {
    type Finding = ();
    fn id(&self) -> FamilyId {
        FamilyId::new("checked")
    }
    fn doc(&self) -> FamilyDoc {
        FamilyDoc {
            recognizes: "CHECKED",
            refuses: "-",
        }
    }
    fn hosts(&self) -> &'static [advisor_core::Host] {
        &[advisor_core::Host::Dsh]
    }
    fn anchors(&self) -> Anchors {
        Anchors::FailureText {
            needles: &["CHECKED"],
        }
    }
    fn recognize(&self, o: &Observation) -> Option<()> {
        o.failure()?.message.contains("CHECKED").then_some(())
    }
    fn policy_need(&self, _: &(), _: &HostFacts) -> PolicyNeed {
        PolicyNeed::NotNeeded
    }
    fn checks(&self, _: &(), _: &HostFacts) -> Checks {
        Checks::of(&[Check::CodexHome])
    }
    fn provenance(&self, _: &(), env: &Environment) -> Provenance {
        // The probe also answers a client tail; a family must never see a
        // fact it did not name.
        if env.checks.client_tail.is_some() {
            return Provenance::Refuted("saw-a-fact-it-did-not-name");
        }
        match env.checks.codex_home {
            Some(HomePlace::UnderTemp) => Provenance::Proven(Proof::HostCheck),
            Some(HomePlace::OutsideTemp) => Provenance::Refuted("home-outside-temp"),
            None => Provenance::Forgeable,
        }
    }
    fn gate(&self, _: &(), _: &Environment) -> Gate {
        Gate::Speak
    }
    fn advise(&self, _: &(), _: &Environment) -> Advisory {
        Advisory::new(self.id(), "checked", "checked".into()).with_diagnosis(
            advisor_core::diagnosis!(
                category: RunnerSetupFailed, phase: Setup, confidence: Confirmed, source: Runner,
                command_started: No, effects: None, retry: AfterRemedy, remedy_owner: User
            ),
        )
    }
    fn diagnose(&self, _: &(), _: &Environment) -> advisor_core::Diagnosis {
        advisor_core::diagnosis!(
            category: RunnerSetupFailed, phase: Setup, confidence: Confirmed, source: Runner,
            command_started: No, effects: None, retry: AfterRemedy, remedy_owner: User
        )
    }
}

impl FailFast for Checked {}

/// Answers every check with `answer`, and counts the calls and what was asked.
struct Probe {
    answer: HostChecks,
    calls: AtomicUsize,
    asked_user_namespaces: AtomicUsize,
}

impl Probe {
    fn new(home: Option<HomePlace>) -> Arc<Self> {
        Arc::new(Self {
            answer: HostChecks {
                codex_home: home,
                client_tail: Some(7),
                ..HostChecks::default()
            },
            calls: AtomicUsize::new(0),
            asked_user_namespaces: AtomicUsize::new(0),
        })
    }
}

impl HostProbe for Probe {
    fn check(&self, wanted: Checks, _host: &HostFacts) -> HostChecks {
        self.calls.fetch_add(1, Ordering::SeqCst);
        if wanted.contains(Check::UserNamespaces) {
            self.asked_user_namespaces.fetch_add(1, Ordering::SeqCst);
        }
        self.answer.clone()
    }
}

fn advisor_with(probe: Option<Arc<Probe>>) -> Advisor {
    let mut advisor = Advisor::new(
        Registry::builder()
            .fail_fast_family(Checked)
            .family(ALPHA)
            .build()
            .unwrap(),
        Config::from_json(json!({"enforceAfter": 1, "maxDenials": 2})).unwrap(),
    );
    if let Some(probe) = probe {
        advisor.set_probe(probe);
    }
    advisor
}

fn pending(call: &str) -> PendingCall {
    PendingCall {
        agent: AgentId::new("a1"),
        session: Some(SessionId::new("s1")),
        call: CallId::new(call),
        tool: "bash".into(),
        arguments: json!({"command": "echo hi"}),
    }
}

/// Two identical failures, then the same call before dispatch: is it refused?
/// Returns (advisories delivered, refused).
fn fail_twice_then_ask(advisor: &Advisor) -> (usize, bool) {
    let (host, policy) = (linux(), NoPolicyService);
    let c = ctx(&host, &policy);
    let mut delivered = 0;
    run(async {
        for call in ["c1", "c2"] {
            delivered += advisor
                .post_execute(&fail("a1", call, "CHECKED"), None, &c)
                .await
                .additional_contexts
                .len();
        }
    });
    (
        delivered,
        advisor.pre_execute(&pending("c3")).refusal.is_some(),
    )
}

#[test]
fn a_proven_failure_feeds_the_budget() {
    let advisor = advisor_with(Some(Probe::new(Some(HomePlace::UnderTemp))));
    assert_eq!(fail_twice_then_ask(&advisor), (1, true));
}

#[test]
fn a_forgeable_failure_is_advised_but_never_refuses_a_call() {
    for advisor in [advisor_with(None), advisor_with(Some(Probe::new(None)))] {
        assert_eq!(fail_twice_then_ask(&advisor), (1, false));
    }
}

#[test]
fn a_refuted_failure_is_declined_and_never_counted() {
    let advisor = advisor_with(Some(Probe::new(Some(HomePlace::OutsideTemp))));
    assert_eq!(fail_twice_then_ask(&advisor), (0, false));
}

#[test]
fn a_forgeable_cause_is_never_confirmed() {
    let confidence = |probe| {
        let advisor = advisor_with(probe);
        let (host, policy) = (linux(), NoPolicyService);
        run(advisor.post_execute(&fail("a1", "c1", "CHECKED"), None, &ctx(&host, &policy)))
            .additional_contexts[0]
            .diagnosis
            .confidence
    };
    assert_eq!(confidence(None), Confidence::Suspected);
    assert_eq!(
        confidence(Some(Probe::new(Some(HomePlace::UnderTemp)))),
        Confidence::Confirmed
    );
}

#[test]
fn the_probe_is_asked_only_for_a_recognized_result_and_only_what_was_named() {
    let probe = Probe::new(Some(HomePlace::UnderTemp));
    let advisor = advisor_with(Some(probe.clone()));
    let (host, policy) = (linux(), NoPolicyService);
    let c = ctx(&host, &policy);
    run(async {
        advisor
            .post_execute(&fail("a1", "u1", "an unrelated failure"), None, &c)
            .await;
        // A family that names no check (ALPHA) never reaches the probe either.
        advisor
            .post_execute(&fail("a1", "u2", "ALPHA"), None, &c)
            .await;
    });
    assert_eq!(probe.calls.load(Ordering::SeqCst), 0);
    run(advisor.post_execute(&fail("a1", "c1", "CHECKED"), None, &c));
    assert_eq!(probe.calls.load(Ordering::SeqCst), 1);
    assert_eq!(probe.asked_user_namespaces.load(Ordering::SeqCst), 0);
}

#[test]
fn explain_declines_a_refuted_finding_as_post_does() {
    let advisor = advisor_with(Some(Probe::new(Some(HomePlace::OutsideTemp))));
    let (host, policy) = (linux(), NoPolicyService);
    let verdicts = run(advisor.explain(&fail("a1", "c1", "CHECKED"), None, &ctx(&host, &policy)));
    assert_eq!(
        verdicts[0],
        (
            FamilyId::new("checked"),
            advisor_core::Explanation::Declined("home-outside-temp")
        )
    );
}
