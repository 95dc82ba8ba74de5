//! Model-based test: a plain reference state machine of the ledger, the
//! disclosure log and the fail-fast budget, driven side by side with the real
//! advisor over random event sequences. Every decision must agree.
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
    let agent = prop_oneof![3 => Just(0u8), 1 => 1u8..3];
    let session = prop::option::weighted(0.85, 1u8..3);
    prop_oneof![
        6 => (agent.clone(), session.clone(), prop_oneof![4 => Just(0u8), 1 => 1u8..3], prop_oneof![4 => Just(0u8), 1 => Just(1u8)], prop_oneof![3 => Just(0u8), 2 => Just(6u8), 3 => 1u8..6])
            .prop_map(|(agent, session, tool, args, outcome)| Event::Post { agent, session, tool, args, outcome }),
        1 => agent.clone().prop_map(|agent| Event::EchoRefused { agent }),
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
    budget: HashMap<u8, (u32, Vec<String>, u32)>,
    refused: HashMap<u8, Vec<String>>,
}

impl Model {
    fn key(tool: u8, args: u8) -> String {
        format!("{}:{args}", TOOLS[tool as usize])
    }

    fn preflight(&mut self, agent: u8, session: Option<u8>, seen: &mut Seen) {
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
        if let Some(calls) = self.refused.get_mut(&agent) {
            if let Some(i) = calls.iter().position(|c| c == call) {
                calls.swap_remove(i);
                return seen;
            }
        }
        self.preflight(agent, session, &mut seen);
        let key = Self::key(tool, args);
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
        if family == "provisioning" {
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
        let key = Self::key(tool, args);
        if let Some((failures, watched, denials)) = self.budget.get_mut(&agent) {
            if *failures >= ENFORCE_AFTER && watched.contains(&key) && *denials < MAX_DENIALS {
                *denials += 1;
                seen.refused = true;
                self.refused.entry(agent).or_default().push(call.to_owned());
            }
        }
        seen
    }

    fn agent_end(&mut self, agent: u8) {
        self.spoken.retain(|(a, ..)| *a != agent);
        self.disclosed.retain(|(a, ..)| *a != agent);
        self.budget.remove(&agent);
        self.refused.remove(&agent);
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
        let config = Config::from_json(json!({"enforceAfter": ENFORCE_AFTER, "maxDenials": MAX_DENIALS, "exclude": ["excluded"]})).unwrap();
        let real = advisor(Registry::builder().fail_fast_family(Provisioning).family(ALPHA).family(GATED).family(PRE), config);
        let mut model = Model::default();
        let (host, policy) = (linux(), Sessions);
        let c = ctx(&host, &policy);
        let mut last_refused: HashMap<u8, (String, u8, u8)> = HashMap::new();
        run(async {
            for (n, event) in events.iter().enumerate() {
                let call = format!("c{n}");
                let (expected, actual) = match event.clone() {
                    Event::Post { agent, session, tool, args, outcome } => {
                        let outcome = OUTCOMES[outcome as usize];
                        let obs = observation(agent, session, &call, tool, args, outcome);
                        (model.post(agent, session, &call, tool, args, outcome), reduce(&real.post_execute(&obs, None, &c).await))
                    }
                    Event::EchoRefused { agent } => {
                        let Some((refused_call, tool, args)) = last_refused.remove(&agent) else { continue };
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
                prop_assert_eq!(expected, actual, "event #{} {:?}", n, event);
            }
            Ok(())
        })?;
    }
}
