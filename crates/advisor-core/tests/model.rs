//! Model-based test: a plain reference state machine of the ledger, the
//! disclosure log and the fail-fast budget, driven side by side with the real
//! advisor over random event sequences. Every decision must agree.
//!
//! The ledger is bounded (`ledgerCapacity` 2, so at most 3 of the 4 agents are
//! held): the model is a plain LRU list that, when an insertion passes the
//! limit, keeps the 2 most recently touched agents and forgets the rest, which
//! then hear everything again. The pre-flight memo holds one session
//! (`sessionCapacity` 1). Posts are repeated (same call id) and refused call
//! ids are reused by other calls.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "model/reference.rs"]
mod reference;
mod support;

use std::collections::HashMap;

use advisor_core::{
    AgentId, Config, PendingCall, PolicyQuery, PolicySource, Registry, ResolvedPolicy, SandboxMode,
    SessionId, Unresolved,
};
use proptest::prelude::*;
use reference::*;
use serde_json::json;
use support::*;

const GATED: Fake = Fake::new("gated", "GATED", Rule::Confining);
const PRE: Fake = Fake {
    id: "pre",
    needle: "PRE-FAIL",
    rule: Rule::Speak,
    preflight: Some("pre-flight"),
};
/// s1 confines; s2's resolver fails; any other session is read-only.
struct Sessions;

#[async_trait::async_trait]
impl PolicySource for Sessions {
    async fn resolve(&self, query: PolicyQuery<'_>) -> Result<ResolvedPolicy, Unresolved> {
        match query.session.map(SessionId::as_str) {
            Some("s1") => Ok(ResolvedPolicy {
                mode: SandboxMode::WorkspaceWrite,
                workspace_root: None,
            }),
            Some("s2") => Err(Unresolved::ResolverError("down".into())),
            _ => Ok(ResolvedPolicy {
                mode: SandboxMode::ReadOnly,
                workspace_root: None,
            }),
        }
    }
}

#[derive(Debug, Clone)]
enum Event {
    Post {
        agent: u8,
        session: Option<u8>,
        tool: u8,
        args: u8,
        outcome: u8,
    },
    EchoRefused {
        agent: u8,
    },
    /// The agent's last post, sent again (same call id, same everything).
    Duplicate {
        agent: u8,
    },
    /// A post that reuses the agent's last refused call id for another call.
    ReuseRefused {
        agent: u8,
        tool: u8,
        args: u8,
        outcome: u8,
    },
    Pre {
        agent: u8,
        tool: u8,
        args: u8,
    },
    SessionStart {
        agent: u8,
        session: Option<u8>,
    },
    AgentEnd {
        agent: u8,
    },
}

fn event() -> impl Strategy<Value = Event> {
    let agent = prop_oneof![3 => Just(0u8), 2 => 1u8..4];
    let session = prop::option::weighted(0.85, 1u8..3);
    prop_oneof![
        6 => (agent.clone(), session.clone(), prop_oneof![4 => Just(0u8), 1 => 1u8..3], prop_oneof![4 => Just(0u8), 1 => Just(1u8)], prop_oneof![3 => Just(0u8), 2 => Just(6u8), 3 => 1u8..6])
            .prop_map(|(agent, session, tool, args, outcome)| Event::Post { agent, session, tool, args, outcome }),
        1 => agent.clone().prop_map(|agent| Event::EchoRefused { agent }),
        1 => agent.clone().prop_map(|agent| Event::Duplicate { agent }),
        1 => (agent.clone(), 0u8..2, 0u8..2, prop_oneof![Just(0u8), Just(1u8), Just(6u8)])
            .prop_map(|(agent, tool, args, outcome)| Event::ReuseRefused { agent, tool, args, outcome }),
        3 => (agent.clone(), prop_oneof![4 => Just(0u8), 1 => 1u8..3], prop_oneof![4 => Just(0u8), 1 => Just(1u8)]).prop_map(|(agent, tool, args)| Event::Pre { agent, tool, args }),
        1 => (agent.clone(), session).prop_map(|(agent, session)| Event::SessionStart { agent, session }),
        1 => agent.prop_map(|agent| Event::AgentEnd { agent }),
    ]
}

/// An agent's last post: call id, session, tool, arguments, outcome.
type LastPost = (String, Option<u8>, u8, u8, Option<&'static str>);

fn reduce(decision: &advisor_core::PostDecision) -> Seen {
    Seen {
        spoken: decision
            .additional_contexts
            .iter()
            .map(|a| {
                format!(
                    "{}/{}",
                    a.family,
                    if a.summary.as_str() == "pre-flight" {
                        "preflight"
                    } else {
                        "failure"
                    }
                )
            })
            .collect(),
        withheld: decision
            .withheld
            .iter()
            .map(|w| {
                let seat = if w.seat == advisor_core::Seat::Preflight {
                    "preflight"
                } else {
                    "failure"
                };
                format!("{}/{seat}/{}", w.family, w.reason.code())
            })
            .collect(),
        refused: false,
    }
}

fn observation(
    agent: u8,
    session: Option<u8>,
    call: &str,
    tool: u8,
    args: u8,
    outcome: Option<&str>,
) -> advisor_core::Observation {
    let mut o = match outcome {
        Some(message) => fail(&format!("a{agent}"), call, message),
        None => advisor_core::testing::success(json!({"kind": "foreground", "exitCode": 0}), "ok"),
    };
    o.agent = AgentId::new(format!("a{agent}"));
    o.call = call.into();
    o.session = session.map(|s| SessionId::new(format!("s{s}")));
    o.tool = TOOLS[tool as usize].into();
    o.arguments = json!({"command": format!("cmd {args}")});
    o
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]
    #[test]
    fn the_advisor_agrees_with_the_reference_model(events in prop::collection::vec(event(), 1..80)) {
        let config = Config::from_json(json!({
            "enforceAfter": ENFORCE_AFTER, "maxDenials": MAX_DENIALS, "exclude": ["excluded"],
            "ledgerCapacity": LEDGER_CAPACITY, "sessionCapacity": 1,
        })).unwrap();
        let real = advisor(Registry::builder().fail_fast_family(Provisioning).family(ALPHA).family(GATED).family(PRE), config);
        let mut model = Model::default();
        let (host, policy) = (linux(), Sessions);
        let c = ctx(&host, &policy);
        let mut last_refused: HashMap<u8, (String, u8, u8)> = HashMap::new();
        let mut last_post: HashMap<u8, LastPost> = HashMap::new();
        run(async {
            for (n, event) in events.iter().enumerate() {
                let call = format!("c{n}");
                let (expected, actual) = match event.clone() {
                    Event::Post { agent, session, tool, args, outcome } => {
                        let outcome = OUTCOMES[outcome as usize];
                        last_post.insert(agent, (call.clone(), session, tool, args, outcome));
                        let obs = observation(agent, session, &call, tool, args, outcome);
                        (model.post(agent, session, &call, tool, args, outcome), reduce(&real.post_execute(&obs, None, &c).await))
                    }
                    Event::Duplicate { agent } => {
                        let Some((call, session, tool, args, outcome)) = last_post.get(&agent).cloned() else { continue };
                        let obs = observation(agent, session, &call, tool, args, outcome);
                        (model.post(agent, session, &call, tool, args, outcome), reduce(&real.post_execute(&obs, None, &c).await))
                    }
                    Event::ReuseRefused { agent, tool, args, outcome } => {
                        let Some((refused_call, ..)) = last_refused.get(&agent).cloned() else { continue };
                        let outcome = OUTCOMES[outcome as usize];
                        let obs = observation(agent, Some(1), &refused_call, tool, args, outcome);
                        (model.post(agent, Some(1), &refused_call, tool, args, outcome), reduce(&real.post_execute(&obs, None, &c).await))
                    }
                    Event::EchoRefused { agent } => {
                        let Some((refused_call, tool, args)) = last_refused.remove(&agent) else { continue };
                        last_post.insert(agent, (refused_call.clone(), Some(1), tool, args, Some("ALPHA")));
                        let obs = observation(agent, Some(1), &refused_call, tool, args, Some("ALPHA"));
                        (model.post(agent, Some(1), &refused_call, tool, args, Some("ALPHA")), reduce(&real.post_execute(&obs, None, &c).await))
                    }
                    Event::Pre { agent, tool, args } => {
                        let pending = PendingCall {
                            agent: AgentId::new(format!("a{agent}")),
                            session: Some(SessionId::new("s1")),
                            call: call.as_str().into(),
                            tool: TOOLS[tool as usize].into(),
                            arguments: json!({"command": format!("cmd {args}")}),
                        };
                        let expected = model.pre(agent, &call, tool, args);
                        let refused = real.pre_execute(&pending).refusal.is_some();
                        if refused {
                            last_refused.insert(agent, (call.clone(), tool, args));
                        }
                        (expected, Seen { refused, ..Seen::default() })
                    }
                    Event::SessionStart { agent, session } => {
                        let mut expected = Seen::default();
                        model.preflight(agent, session, &mut expected);
                        let sid = session.map(|s| SessionId::new(format!("s{s}")));
                        (expected, reduce(&real.session_start(&AgentId::new(format!("a{agent}")), sid.as_ref(), &c).await))
                    }
                    Event::AgentEnd { agent } => {
                        model.agent_end(agent);
                        real.agent_end(&AgentId::new(format!("a{agent}")));
                        last_refused.remove(&agent);
                        continue;
                    }
                };
                model.settle_ledger();
                prop_assert_eq!(expected, actual, "event #{} {:?}", n, event);
                prop_assert_eq!(real.ledger().len(), model.lru.len(), "event #{} {:?}", n, event);
            }
            Ok(())
        })?;
    }
}
