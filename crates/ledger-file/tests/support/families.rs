//! Two family doubles (after advisor-core's tests/support) and the calls of
//! an advisor, for the tests that run the advisor over a file store.
#![allow(dead_code, clippy::unwrap_used)]

use std::sync::Arc;

use advisor_core::testing::{failure, host, success};
use advisor_core::{
    Advisor, Advisory, AgentId, Anchors, CallId, Config, Context, Environment, FailFast, Family,
    FamilyDoc, FamilyId, Gate, HostFacts, LedgerStore, NoPolicyService, Observation, PendingCall,
    Platform, PolicyNeed, Registry, SessionId,
};
use serde_json::{Value, json};

/// Recognizes a failure whose message contains `ALPHA`, and always speaks.
#[derive(Debug, Clone, Copy)]
pub struct Alpha;

impl Family for Alpha {
    type Finding = ();
    fn id(&self) -> FamilyId {
        FamilyId::new("alpha")
    }
    fn doc(&self) -> FamilyDoc {
        FamilyDoc {
            recognizes: "ALPHA",
            refuses: "-",
        }
    }
    fn anchors(&self) -> Anchors {
        Anchors::Always
    }
    fn recognize(&self, observation: &Observation) -> Option<()> {
        observation
            .failure()?
            .message
            .contains("ALPHA")
            .then_some(())
    }
    fn policy_need(&self, _finding: &(), _host: &HostFacts) -> PolicyNeed {
        PolicyNeed::NotNeeded
    }
    fn gate(&self, _finding: &(), _env: &Environment) -> Gate {
        Gate::Speak
    }
    fn advise(&self, _finding: &(), _env: &Environment) -> Advisory {
        Advisory::new(self.id(), "alpha summary", "alpha saw it".into())
    }
}

/// The fail-fast double (only it may feed the budget).
#[derive(Debug, Clone, Copy)]
pub struct Provisioning;

impl Family for Provisioning {
    type Finding = ();
    fn id(&self) -> FamilyId {
        FamilyId::new("provisioning")
    }
    fn doc(&self) -> FamilyDoc {
        FamilyDoc {
            recognizes: "PROVISIONING",
            refuses: "-",
        }
    }
    fn anchors(&self) -> Anchors {
        Anchors::FailureText {
            needles: &["PROVISIONING"],
        }
    }
    fn recognize(&self, observation: &Observation) -> Option<()> {
        let message = &observation.failure()?.message;
        message.contains("PROVISIONING").then_some(())
    }
    fn policy_need(&self, _finding: &(), _host: &HostFacts) -> PolicyNeed {
        PolicyNeed::NotNeeded
    }
    fn gate(&self, _finding: &(), _env: &Environment) -> Gate {
        Gate::Speak
    }
    fn advise(&self, _finding: &(), _env: &Environment) -> Advisory {
        Advisory::new(self.id(), "provisioning failed", "fix the grant".into())
    }
}

impl FailFast for Provisioning {}

/// An advisor (one "process") over `store`.
pub fn advisor(store: Arc<dyn LedgerStore>, config: Value) -> Advisor {
    Advisor::with_stores(
        Registry::builder()
            .fail_fast_family(Provisioning)
            .family(Alpha)
            .build()
            .unwrap(),
        Config::from_json(config).unwrap(),
        vec![store],
    )
}

pub fn fail(agent: &str, call: &str, message: &str) -> Observation {
    let mut o = failure(message);
    o.agent = agent.into();
    o.call = call.into();
    o
}

pub fn ok(agent: &str, call: &str) -> Observation {
    let mut o = success(json!({"kind": "foreground", "exitCode": 0}), "ok");
    o.agent = agent.into();
    o.call = call.into();
    o
}

/// Posts a settled call; the number of advisories delivered.
pub fn post(advisor: &Advisor, observation: Observation) -> usize {
    let (host, policy) = (host(Platform::Linux), NoPolicyService);
    let context = Context {
        host: &host,
        policy: &policy,
    };
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(advisor.post_execute(&observation, None, &context))
        .additional_contexts
        .len()
}

/// True when the call is refused before dispatch.
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
