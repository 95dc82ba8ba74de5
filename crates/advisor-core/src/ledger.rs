//! Once per agent, per family, per seat — exactly once even when calls race.
//!
//! Each agent's state sits behind one `DashMap` entry; every check-and-set
//! happens under that entry's lock, so sixteen threads posting the same
//! failure for one agent produce one advisory. `forget` drops an agent at
//! `agent_end`. The ledger is bounded: past `capacity` agents, the least
//! recently seen are forgotten in one batch (down to 15/16 of the capacity),
//! so a harness that never reports agent ends cannot grow it without limit.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use dashmap::DashMap;
use smallvec::SmallVec;

use crate::budget::BudgetState;
use crate::family::Seat;
use crate::ids::{AgentId, CallId, FamilyId};

/// Lock shards of the agent and session maps. Every lookup takes a shard lock
/// (an atomic write on its word), so with few shards two cores contend on the
/// same words; 128 keeps two threads on different shards almost always.
pub(crate) const SHARDS: usize = 128;

/// The fail-fast half of an agent's state, allocated only once it is used.
#[derive(Debug, Default)]
pub(crate) struct FailFastState {
    pub(crate) budget: BudgetState,
    pub(crate) refused_calls: Vec<CallId>,
}

/// What the ledger remembers about one agent. Kept small: an agent usually
/// hears one or two families, so the seats sit inline, and the fail-fast
/// state is boxed and absent unless the budget is in use.
#[derive(Debug, Default)]
pub(crate) struct AgentState {
    spoken: SmallVec<[(FamilyId, Seat); 2]>,
    disclosed: Vec<(FamilyId, Seat, &'static str)>,
    fail_fast: Option<Box<FailFastState>>,
    last_seen: u64,
}

impl AgentState {
    /// The fail-fast state, created on first use.
    pub(crate) fn fail_fast(&mut self) -> &mut FailFastState {
        self.fail_fast.get_or_insert_with(Box::default)
    }

    /// The fail-fast state, if the agent has any.
    pub(crate) fn fail_fast_if_any(&mut self) -> Option<&mut FailFastState> {
        self.fail_fast.as_deref_mut()
    }

    /// True when this agent already heard from `family` in `seat`.
    pub(crate) fn has_spoken(&self, family: FamilyId, seat: Seat) -> bool {
        self.spoken.contains(&(family, seat))
    }

    /// Claims the seat; false when it was already taken.
    pub(crate) fn claim_seat(&mut self, family: FamilyId, seat: Seat) -> bool {
        if self.has_spoken(family, seat) {
            return false;
        }
        self.spoken.push((family, seat));
        true
    }

    /// True when this withhold reason was already disclosed to the agent.
    pub(crate) fn has_disclosed(&self, family: FamilyId, seat: Seat, code: &'static str) -> bool {
        self.disclosed.contains(&(family, seat, code))
    }

    /// Claims the disclosure of one withhold reason; false when already disclosed.
    pub(crate) fn claim_disclosure(
        &mut self,
        family: FamilyId,
        seat: Seat,
        code: &'static str,
    ) -> bool {
        if self.disclosed.contains(&(family, seat, code)) {
            return false;
        }
        self.disclosed.push((family, seat, code));
        true
    }
}

/// The per-agent ledger.
#[derive(Debug)]
pub struct Ledger {
    agents: DashMap<AgentId, AgentState>,
    clock: AtomicU64,
    capacity: usize,
    evicting: AtomicBool,
}

impl Ledger {
    /// A ledger that tracks at most `capacity` agents (at least 1).
    pub fn new(capacity: usize) -> Self {
        Self {
            agents: DashMap::with_shard_amount(SHARDS),
            clock: AtomicU64::new(0),
            capacity: capacity.max(1),
            evicting: AtomicBool::new(false),
        }
    }

    /// Runs `f` on the agent's state under its entry lock, creating it if needed.
    pub(crate) fn with_agent<R>(&self, agent: &AgentId, f: impl FnOnce(&mut AgentState) -> R) -> R {
        let (result, inserted) = {
            let mut inserted = false;
            let mut entry = self.agents.entry(agent.clone()).or_insert_with(|| {
                inserted = true;
                AgentState::default()
            });
            // Recency is counted in insertions: only a new agent advances the
            // shared clock, so touching a known agent never writes a cache line
            // every other thread reads.
            entry.last_seen = if inserted {
                self.clock.fetch_add(1, Ordering::Relaxed) + 1
            } else {
                self.clock.load(Ordering::Relaxed)
            };
            (f(&mut entry), inserted)
        };
        if inserted && self.agents.len() > self.capacity {
            self.evict();
        }
        result
    }

    /// Reads the agent's state under a shared lock, if the agent is tracked.
    pub(crate) fn read<R>(&self, agent: &AgentId, f: impl FnOnce(&AgentState) -> R) -> Option<R> {
        self.agents.get(agent).map(|entry| f(&entry))
    }

    /// Runs `f` on the agent's state if the agent is tracked, without creating it.
    pub(crate) fn peek<R>(
        &self,
        agent: &AgentId,
        f: impl FnOnce(&mut AgentState) -> R,
    ) -> Option<R> {
        self.agents.get_mut(agent).map(|mut entry| f(&mut entry))
    }

    /// Forgets an agent (`agent_end`).
    pub fn forget(&self, agent: &AgentId) {
        self.agents.remove(agent);
    }

    /// How many agents are tracked.
    pub fn len(&self) -> usize {
        self.agents.len()
    }

    /// True when no agent is tracked.
    pub fn is_empty(&self) -> bool {
        self.agents.is_empty()
    }

    /// The bound on tracked agents.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    fn evict(&self) {
        if self.evicting.swap(true, Ordering::Acquire) {
            return;
        }
        let target = self.capacity - self.capacity / 16;
        let excess = self.agents.len().saturating_sub(target);
        if excess > 0 {
            let mut ages: Vec<(u64, AgentId)> = self
                .agents
                .iter()
                .map(|e| (e.value().last_seen, e.key().clone()))
                .collect();
            if excess < ages.len() {
                ages.select_nth_unstable_by_key(excess, |(seen, _)| *seen);
            }
            for (seen, agent) in ages.into_iter().take(excess) {
                // Skip an agent touched since the snapshot.
                self.agents
                    .remove_if(&agent, |_, state| state.last_seen == seen);
            }
        }
        self.evicting.store(false, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn least_recently_seen_agents_are_evicted_past_capacity() {
        let ledger = Ledger::new(32);
        for i in 0..32 {
            ledger.with_agent(&AgentId::new(format!("a{i}")), |_| ());
        }
        ledger.with_agent(&AgentId::new("a0"), |_| ()); // a0 is now the most recent
        ledger.with_agent(&AgentId::new("new"), |_| ());
        assert!(ledger.len() <= 32);
        assert!(ledger.peek(&AgentId::new("a0"), |_| ()).is_some());
        assert!(ledger.peek(&AgentId::new("new"), |_| ()).is_some());
        assert!(ledger.peek(&AgentId::new("a1"), |_| ()).is_none());
    }
}
