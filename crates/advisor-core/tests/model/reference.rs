//! The reference model: plain sets and lists saying what the advisor must
//! decide, with no sharding, no digests and no clock.

use std::collections::{HashMap, HashSet};

pub const ORDER: [(&str, &str); 4] = [
    ("provisioning", "PROVISIONING"),
    ("alpha", "ALPHA"),
    ("gated", "GATED"),
    ("pre", "PRE-FAIL"),
];
pub const ENFORCE_AFTER: u32 = 2;
pub const MAX_DENIALS: u32 = 1;
pub const LEDGER_CAPACITY: usize = 2;
/// `LEDGER_CAPACITY + max(1, LEDGER_CAPACITY / 8)`.
pub const LEDGER_LIMIT: usize = 3;
pub const REFUSED_CALLS_KEPT: usize = 16;

pub const TOOLS: [&str; 3] = ["bash", "pwsh", "excluded"];
pub const OUTCOMES: [Option<&str>; 7] = [
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
pub struct Seen {
    pub spoken: Vec<String>,
    pub withheld: Vec<String>,
    pub refused: bool,
}

#[derive(Default)]
pub struct Model {
    spoken: HashSet<(u8, &'static str, &'static str)>,
    disclosed: HashSet<(u8, &'static str, &'static str, &'static str)>,
    /// failures, watched keys, denials
    budget: HashMap<u8, (u32, Vec<String>, u32)>,
    /// (call id, key) of refusals awaiting their materialized failure
    refused: HashMap<u8, Vec<(String, String)>>,
    /// call ids whose failure was counted or whose refusal was settled
    settled: HashMap<u8, HashSet<String>>,
    /// the ledger's agents, least recently touched first
    pub lru: Vec<u8>,
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
    pub fn settle_ledger(&mut self) {
        if std::mem::take(&mut self.inserted) && self.lru.len() > LEDGER_LIMIT {
            let forgotten: Vec<u8> = self.lru.drain(..self.lru.len() - LEDGER_CAPACITY).collect();
            for agent in forgotten {
                self.forget(agent);
            }
        }
    }

    pub fn preflight(&mut self, agent: u8, session: Option<u8>, seen: &mut Seen) {
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

    pub fn post(
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

    pub fn pre(&mut self, agent: u8, call: &str, tool: u8, args: u8) -> Seen {
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

    pub fn agent_end(&mut self, agent: u8) {
        self.lru.retain(|a| *a != agent);
        self.forget(agent);
    }
}
