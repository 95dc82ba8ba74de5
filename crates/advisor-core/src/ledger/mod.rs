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
use crate::budget::{BudgetCall, BudgetLimits, BudgetRecord, BudgetVerdict};
use crate::family::Seat;
use crate::ids::{AgentId, FamilyId};

mod shared;
mod store;

pub(crate) use shared::Books;
pub use shared::{BACKOFF_FIRST, BACKOFF_MAX};
pub use store::{AgentKey, Claim, Edit, LedgerStore, Slot, StoreFault};

/// What the ledger remembers about one agent. Kept small: an agent usually
/// hears one or two families, so the seats sit inline, and the fail-fast
/// state is boxed and absent unless the budget is in use.
#[derive(Debug, Default)]
struct AgentState {
    spoken: SmallVec<[(FamilyId, Seat); 2]>,
    disclosed: Vec<(FamilyId, Seat, &'static str)>,
    fail_fast: Option<Box<BudgetRecord>>,
}

impl AgentState {
    /// True when this agent already heard from `family` in `seat`.
    fn has_spoken(&self, family: FamilyId, seat: Seat) -> bool {
        self.spoken.contains(&(family, seat))
    }

    /// Claims the seat.
    fn claim_seat(&mut self, family: FamilyId, seat: Seat) -> Claim {
        if self.has_spoken(family, seat) {
            return Claim::Again;
        }
        self.spoken.push((family, seat));
        Claim::First
    }

    /// True when this withhold reason was already disclosed to the agent.
    fn has_disclosed(&self, family: FamilyId, seat: Seat, code: &'static str) -> bool {
        self.disclosed.contains(&(family, seat, code))
    }

    /// Claims the disclosure of one withhold reason. It asks `has_disclosed`,
    /// as `claim_seat` asks `has_spoken`: one definition of "already
    /// disclosed" serves the claim and the read-only check in front of it, so
    /// a test of the claim also holds the check.
    fn claim_disclosure(&mut self, family: FamilyId, seat: Seat, code: &'static str) -> Claim {
        if self.has_disclosed(family, seat, code) {
            return Claim::Again;
        }
        self.disclosed.push((family, seat, code));
        Claim::First
    }

    /// The fail-fast state, created on first use.
    fn fail_fast(&mut self) -> &mut BudgetRecord {
        self.fail_fast.get_or_insert_with(Box::default)
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

    /// True when the agent already heard from `family` in `seat`; an agent
    /// the ledger does not hold has not (and is not created).
    pub(crate) fn has_spoken(&self, agent: &AgentId, family: FamilyId, seat: Seat) -> bool {
        self.agents.read(agent, |s| s.has_spoken(family, seat)) == Some(true)
    }

    /// True when this withhold reason was already disclosed to the agent.
    pub(crate) fn has_disclosed(
        &self,
        agent: &AgentId,
        family: FamilyId,
        seat: Seat,
        code: &'static str,
    ) -> bool {
        self.agents
            .read(agent, |s| s.has_disclosed(family, seat, code))
            == Some(true)
    }

    /// Claims the agent's `seat` for `family`, under the agent's entry lock:
    /// of racing claims exactly one is [`Claim::First`].
    pub(crate) fn claim(&self, agent: &AgentId, family: FamilyId, seat: Seat) -> Claim {
        self.agents
            .upsert(agent, AgentState::default, |s| s.claim_seat(family, seat))
    }

    /// Claims the disclosure of one withhold reason to the agent.
    pub(crate) fn claim_disclosure(
        &self,
        agent: &AgentId,
        family: FamilyId,
        seat: Seat,
        code: &'static str,
    ) -> Claim {
        self.agents.upsert(agent, AgentState::default, |s| {
            s.claim_disclosure(family, seat, code)
        })
    }

    /// Counts a recognized failure of the fail-fast family against the
    /// agent's budget (once per call id), creating the budget on first use.
    pub(crate) fn count_failure(&self, agent: &AgentId, call: &BudgetCall<'_>) {
        let key = call.key();
        self.agents.upsert(agent, AgentState::default, |s| {
            s.fail_fast().count_failure(call.id, key)
        });
    }

    /// True (and settled) when `call` is the failure the harness materialized
    /// from one of this agent's refusals; its key is built only when the call
    /// id matches a refusal.
    pub(crate) fn take_refusal(&self, agent: &AgentId, call: &BudgetCall<'_>) -> bool {
        self.agents
            .update(agent, |s| {
                s.fail_fast
                    .as_deref_mut()
                    .is_some_and(|ff| ff.take_refusal(call.id, || call.key()))
            })
            .unwrap_or(false)
    }

    /// A successful call: if the agent's budget watches it, it stops being
    /// watched and re-arms the budget. The key is built (outside the lock)
    /// only when the budget watches anything.
    pub(crate) fn record_success(&self, agent: &AgentId, call: &BudgetCall<'_>) {
        let watching = self
            .agents
            .update(agent, |s| {
                s.fail_fast
                    .as_deref()
                    .is_some_and(BudgetRecord::is_watching)
            })
            .unwrap_or(false);
        if watching {
            let key = call.key();
            self.agents.update(agent, |s| {
                if let Some(ff) = s.fail_fast.as_deref_mut() {
                    ff.record_success(&key);
                }
            });
        }
    }

    /// Admits or refuses a call about to be dispatched, spending one of the
    /// episode's refusals (and remembering it) when refused. An agent without
    /// a budget is admitted and not created.
    pub(crate) fn admit(
        &self,
        agent: &AgentId,
        call: &BudgetCall<'_>,
        limits: BudgetLimits,
    ) -> BudgetVerdict {
        let key = call.key();
        self.agents
            .update(agent, |s| match s.fail_fast.as_deref_mut() {
                Some(ff) => ff.admit(call.id, key, limits),
                None => BudgetVerdict::Allow,
            })
            .unwrap_or(BudgetVerdict::Allow)
    }

    /// Records a refusal a shared store made, so that its materialized
    /// failure is recognized here without asking the store.
    pub(crate) fn mirror_refusal(&self, agent: &AgentId, call: &BudgetCall<'_>) {
        let key = call.key();
        self.agents.upsert(agent, AgentState::default, |s| {
            s.fail_fast().record_refusal(call.id, key)
        });
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

/// The in-process ledger is a store too: the default one, and the fallback
/// of a shared store that fails.
impl LedgerStore for Ledger {
    fn name(&self) -> &'static str {
        "memory"
    }

    fn claim(&self, agent: &AgentId, slot: &Slot) -> Result<Claim, StoreFault> {
        Ok(match slot.disclosure {
            None => Ledger::claim(self, agent, slot.family, slot.seat),
            Some(code) => self.claim_disclosure(agent, slot.family, slot.seat, code),
        })
    }

    fn forget(&self, agent: &AgentId) -> Result<(), StoreFault> {
        Ledger::forget(self, agent);
        Ok(())
    }

    fn edit_budget(
        &self,
        agent: &AgentId,
        edit: &mut dyn FnMut(&mut BudgetRecord) -> Edit,
    ) -> Result<(), StoreFault> {
        let held = self
            .agents
            .update(agent, |s| match s.fail_fast.as_deref_mut() {
                Some(record) => {
                    edit(record);
                    true
                }
                None => false,
            });
        if held != Some(true) {
            // Nothing held: an edit that changes nothing creates nothing.
            let mut record = BudgetRecord::default();
            if edit(&mut record) == Edit::Changed {
                self.agents.upsert(agent, AgentState::default, |s| {
                    match s.fail_fast.as_deref_mut() {
                        // Another thread created it meanwhile: edit that one.
                        Some(existing) => {
                            edit(existing);
                        }
                        None => s.fail_fast = Some(Box::new(record)),
                    }
                });
            }
        }
        Ok(())
    }
}
