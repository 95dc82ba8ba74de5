//! Once per agent, per family, per seat — exactly once even when calls race.
//!
//! Each agent's state sits in one [`BoundedMap`] entry; every check-and-set
//! happens under that entry's shard lock, so sixteen threads posting the same
//! failure for one agent produce one advisory. `forget` drops an agent at
//! `agent_end`. The ledger is bounded, so a harness that never reports agent
//! ends cannot grow it without limit, and it never forgets an agent that is
//! still active: an agent is forgotten only after `capacity` other agents were
//! touched since its own last touch.

use smallvec::SmallVec;

use crate::bounded::BoundedMap;
use crate::budget::FailFastState;
use crate::family::Seat;
use crate::ids::{AgentId, FamilyId};

/// What the ledger remembers about one agent. Kept small: an agent usually
/// hears one or two families, so the seats sit inline, and the fail-fast
/// state is boxed and absent unless the budget is in use.
#[derive(Debug, Default)]
pub(crate) struct AgentState {
    spoken: SmallVec<[(FamilyId, Seat); 2]>,
    disclosed: Vec<(FamilyId, Seat, &'static str)>,
    fail_fast: Option<Box<FailFastState>>,
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

/// The per-agent ledger: a [`BoundedMap`] of agent states.
///
/// An agent is forgotten only after `capacity` other agents were touched since
/// its own last touch, and every answer the ledger gives about an agent touches
/// it (see [`BoundedMap`]); at most [`limit`](Self::limit) agents are held.
#[derive(Debug)]
pub struct Ledger {
    agents: BoundedMap<AgentId, AgentState>,
}

impl Ledger {
    /// A ledger that forgets an agent only after `capacity` others (at least 1)
    /// were touched since it was.
    pub fn new(capacity: usize) -> Self {
        Self {
            agents: BoundedMap::new(capacity),
        }
    }

    /// Runs `f` on the agent's state under its entry lock, creating it if needed.
    pub(crate) fn with_agent<R>(&self, agent: &AgentId, f: impl FnOnce(&mut AgentState) -> R) -> R {
        self.agents.upsert(agent, AgentState::default, f)
    }

    /// Reads the agent's state under a shared lock, if the agent is tracked.
    pub(crate) fn read<R>(&self, agent: &AgentId, f: impl FnOnce(&AgentState) -> R) -> Option<R> {
        self.agents.read(agent, f)
    }

    /// Runs `f` on the agent's state if the agent is tracked, without creating it.
    pub(crate) fn peek<R>(
        &self,
        agent: &AgentId,
        f: impl FnOnce(&mut AgentState) -> R,
    ) -> Option<R> {
        self.agents.update(agent, f)
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

    /// How many other agents must be touched before an untouched agent may be forgotten.
    pub fn capacity(&self) -> usize {
        self.agents.capacity()
    }

    /// The most agents held at once (`capacity + max(1, capacity / 8)`).
    pub fn limit(&self) -> usize {
        self.agents.limit()
    }
}
