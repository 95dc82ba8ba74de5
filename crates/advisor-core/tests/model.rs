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

mod support;

use std::collections::{HashMap, HashSet};

use advisor_core::{
    AgentId, Config, PendingCall, PolicyQuery, PolicySource, Registry, ResolvedPolicy, SandboxMode,
    SessionId, Unresolved,
};
use proptest::prelude::*;
use serde_json::json;
use support::*;

const GATED: Fake = Fake::new("gated", "GATED", Rule::Confining);
const PRE: Fake = Fake {
    id: "pre",
    needle: "PRE-FAIL",
    rule: Rule::Speak,
    preflight: Some("pre-flight"),
};
const ORDER: [(&str, &str); 4] = [
    ("provisioning", "PROVISIONING"),
    ("alpha", "ALPHA"),
    ("gated", "GATED"),
    ("pre", "PRE-FAIL"),
];
const ENFORCE_AFTER: u32 = 2;
const MAX_DENIALS: u32 = 1;
const LEDGER_CAPACITY: usize = 2;
/// `LEDGER_CAPACITY + max(1, LEDGER_CAPACITY / 8)`.
const LEDGER_LIMIT: usize = 3;
const REFUSED_CALLS_KEPT: usize = 16;

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

const TOOLS: [&str; 3] = ["bash", "pwsh", "excluded"];
const OUTCOMES: [Option<&str>; 7] = [
    Some("PROVISIONING"),
    Some("ALPHA"),
    Some("GATED"),
    Some("PRE-FAIL"),
    Some("nothing"),
    Some("ALPHA GATED"),
    None,
];

/// An agent's last post: call id, session, tool, arguments, outcome.
type LastPost = (String, Option<u8>, u8, u8, Option<&'static str>);

/// What a decision looked like, reduced to comparable facts.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct Seen {
    spoken: Vec<String>,
    withheld: Vec<String>,
    refused: bool,
}

#[derive(Default)]
struct Model {
    spoken: HashSet<(u8, &'static str, &'static str)>,
    disclosed: HashSet<(u8, &'static str, &'static str, &'static str)>,
    /// failures, watched keys, denials
    budget: HashMap<u8, (u32, Vec<String>, u32)>,
    /// (call id, key) of refusals awaiting their materialized failure
    refused: HashMap<u8, Vec<(String, String)>>,
    /// call ids whose failure was counted or whose refusal was settled
    settled: HashMap<u8, HashSet<String>>,
    /// the ledger's agents, least recently touched first
    lru: Vec<u8>,
    inserted: bool,
}

impl Model {
    fn key(tool: u8, args: u8) -> String {
        format!("{}:{args}", TOOLS[tool as usize])
    }

    /// A ledger answer about a known agent: it becomes the most recent.
    fn touch(&mut self, agent: u8) {
        if let Some(i) = self.lru.iter().position(|a| *a == agent) {
            self.lru.remove(i);
            self.lru.push(agent);
        }
    }

    /// A ledger write: the agent is created if it was not held.
    fn insert(&mut self, agent: u8) {
        if self.lru.contains(&agent) {
            self.touch(agent);
        } else {
            self.lru.push(agent);
            self.inserted = true;
        }
    }

    /// After each event: an insertion past the limit forgets every agent but
    /// the `LEDGER_CAPACITY` most recently touched.
    fn settle_ledger(&mut self) {
        if std::mem::take(&mut self.inserted) && self.lru.len() > LEDGER_LIMIT {
            let forgotten: Vec<u8> = self.lru.drain(..self.lru.len() - LEDGER_CAPACITY).collect();
            for agent in forgotten {
                self.forget(agent);
            }
        }
    }

    fn preflight(&mut self, agent: u8, session: Option<u8>, seen: &mut Seen) {
        // Every session here has a verdict to deliver (none is clear), so the
        // pre-flight seat check always reaches the ledger.
        self.insert(agent);
        match session {
            Some(1) => {
                if self.spoken.insert((agent, "pre", "preflight")) {
                    seen.spoken.push("pre/preflight".into());
                }
            }
            Some(2) => self.disclose(agent, "pre", "preflight", "resolver-error", seen),
            Some(_) => {}
            None => self.disclose(agent, "pre", "preflight", "no-session", seen),
        }
    }

    fn disclose(
        &mut self,
        agent: u8,
        family: &'static str,
        seat: &'static str,
        code: &'static str,
        seen: &mut Seen,
    ) {
        self.insert(agent);
        if self.disclosed.insert((agent, family, seat, code)) {
            seen.withheld.push(format!("{family}/{seat}/{code}"));
        }
    }

    fn post(
        &mut self,
        agent: u8,
        session: Option<u8>,
        call: &str,
        tool: u8,
        args: u8,
        outcome: Option<&str>,
    ) -> Seen {
        let mut seen = Seen::default();
        if TOOLS[tool as usize] == "excluded" {
            return seen;
        }
        self.touch(agent); // the refused-call check
        let key = Self::key(tool, args);
        if let Some(calls) = self.refused.get_mut(&agent) {
            if let Some(i) = calls.iter().position(|(c, k)| c == call && *k == key) {
                calls.remove(i);
                self.settled
                    .entry(agent)
                    .or_default()
                    .insert(call.to_owned());
                return seen;
            }
        }
        self.preflight(agent, session, &mut seen);
        let Some(message) = outcome else {
            if let Some((_, watched, denials)) = self.budget.get_mut(&agent) {
                if let Some(i) = watched.iter().position(|k| *k == key) {
                    watched.swap_remove(i);
                    *denials = 0;
                }
            }
            return seen;
        };
        let Some(&(family, _)) = ORDER.iter().find(|(_, needle)| message.contains(needle)) else {
            return seen;
        };
        self.insert(agent);
        if family == "provisioning"
            && self
                .settled
                .entry(agent)
                .or_default()
                .insert(call.to_owned())
        {
            let (failures, watched, _) = self.budget.entry(agent).or_default();
            *failures += 1;
            if !watched.contains(&key) {
                watched.push(key);
            }
        }
        if self.spoken.contains(&(agent, family, "failure")) {
            return seen;
        }
        let withhold = match (family, session) {
            ("gated", None) => Some("no-session"),
            ("gated", Some(2)) => Some("resolver-error"),
            ("gated", Some(1)) => None,
            ("gated", Some(_)) => None, // read-only still confines
            _ => None,
        };
        match withhold {
            Some(code) => self.disclose(agent, family, "failure", code, &mut seen),
            None => {
                self.spoken.insert((agent, family, "failure"));
                seen.spoken.push(format!("{family}/failure"));
            }
        }
        seen
    }

    fn pre(&mut self, agent: u8, call: &str, tool: u8, args: u8) -> Seen {
        let mut seen = Seen::default();
        if TOOLS[tool as usize] == "excluded" {
            return seen;
        }
        self.touch(agent);
        let key = Self::key(tool, args);
        if let Some((failures, watched, denials)) = self.budget.get_mut(&agent) {
            if *failures >= ENFORCE_AFTER && watched.contains(&key) && *denials < MAX_DENIALS {
                *denials += 1;
                seen.refused = true;
                let calls = self.refused.entry(agent).or_default();
                if calls.len() >= REFUSED_CALLS_KEPT {
                    calls.remove(0);
                }
                calls.push((call.to_owned(), key));
            }
        }
        seen
    }

    fn forget(&mut self, agent: u8) {
        self.spoken.retain(|(a, ..)| *a != agent);
        self.disclosed.retain(|(a, ..)| *a != agent);
        self.budget.remove(&agent);
        self.refused.remove(&agent);
        self.settled.remove(&agent);
    }

    fn agent_end(&mut self, agent: u8) {
        self.lru.retain(|a| *a != agent);
        self.forget(agent);
    }
}

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
