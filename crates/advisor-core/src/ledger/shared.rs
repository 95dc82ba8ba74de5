//! The advisor's books: its own ledger, and the shared stores in front of it.
//!
//! With no shared store every answer comes from the in-process [`Ledger`].
//! With one or more (say Redis, then the on-disk store), each answer comes
//! from the first store that is up and answers; the in-process ledger is the
//! last resort and, for claims, the final word within this process:
//!
//! - a claim is [`Claim::First`] only when the process's own ledger says so
//!   *and* no store said [`Claim::Again`], so however the stores fail or
//!   recover, one process never delivers the same advisory twice. The
//!   process's ledger is asked first, so only one of its threads asks a
//!   store for a slot, and the thread the store makes first is the one
//!   that speaks;
//! - the fail-fast budget lives in the store; while every store is down this
//!   process counts and refuses from what it saw itself;
//! - a store that fails is skipped for a backoff (250 ms, doubling to 30 s),
//!   then tried again. The outage is disclosed once on the host log (target
//!   `sandbox_advisor::ledger`), and so is the recovery. Nothing here waits on
//!   a lock shared across threads: the health of a store is a few atomics.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use super::{Claim, Edit, Ledger, LedgerStore, Slot, StoreFault};
use crate::budget::{BudgetCall, BudgetLimits, BudgetRecord, BudgetVerdict};
use crate::disclosure;
use crate::ids::AgentId;

/// The first wait after a store fails.
pub const BACKOFF_FIRST: Duration = Duration::from_millis(250);
/// The longest wait between attempts at a failed store.
pub const BACKOFF_MAX: Duration = Duration::from_secs(30);

/// One store and what this process knows of its health.
struct Tier {
    store: Arc<dyn LedgerStore>,
    /// Milliseconds since `Books::epoch` before which the store is skipped.
    retry_at: AtomicU64,
    /// Consecutive failures (sets the backoff).
    failures: AtomicU32,
    /// True while an outage is disclosed and not yet recovered.
    down: AtomicBool,
}

impl Tier {
    fn new(store: Arc<dyn LedgerStore>) -> Self {
        Self {
            store,
            retry_at: AtomicU64::new(0),
            failures: AtomicU32::new(0),
            down: AtomicBool::new(false),
        }
    }

    fn is_up(&self, now: u64) -> bool {
        self.retry_at.load(Relaxed) <= now
    }

    /// Records a failure; `fallback` answers meanwhile (for the host log).
    fn failed(&self, now: u64, fault: &StoreFault, fallback: &str) {
        let n = self.failures.fetch_add(1, Relaxed).min(16);
        let wait = BACKOFF_FIRST.saturating_mul(1 << n.min(7)).min(BACKOFF_MAX);
        self.retry_at
            .store(now.saturating_add(wait.as_millis() as u64), Relaxed);
        if !self.down.swap(true, Relaxed) {
            disclosure::store_down(self.store.name(), fault, wait, fallback);
        }
    }

    fn answered(&self) {
        if self.failures.load(Relaxed) != 0 {
            self.failures.store(0, Relaxed);
        }
        if self.down.load(Relaxed) && self.down.swap(false, Relaxed) {
            disclosure::store_up(self.store.name());
        }
    }
}

/// The in-process ledger and the shared stores in front of it.
pub(crate) struct Books {
    local: Ledger,
    tiers: Vec<Tier>,
    epoch: Instant,
}

impl Books {
    pub(crate) fn new(local: Ledger, stores: Vec<Arc<dyn LedgerStore>>) -> Self {
        Self {
            local,
            tiers: stores.into_iter().map(Tier::new).collect(),
            epoch: Instant::now(),
        }
    }

    /// The in-process ledger.
    pub(crate) fn local(&self) -> &Ledger {
        &self.local
    }

    fn now(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    /// The first store that is up and answers `ask`; `None` when every one is
    /// down or failed (or there is none).
    fn ask<T>(&self, mut ask: impl FnMut(&dyn LedgerStore) -> Result<T, StoreFault>) -> Option<T> {
        let now = self.now();
        for (i, tier) in self.tiers.iter().enumerate().filter(|(_, t)| t.is_up(now)) {
            match ask(tier.store.as_ref()) {
                Ok(answer) => {
                    tier.answered();
                    return Some(answer);
                }
                Err(fault) => tier.failed(self.now(), &fault, self.fallback(i)),
            }
        }
        None
    }

    /// Who answers while tier `i` is down: the next store, else this
    /// process's own ledger.
    fn fallback(&self, i: usize) -> &'static str {
        self.tiers
            .get(i + 1)
            .map_or(disclosure::OWN_LEDGER, |next| next.store.described())
    }

    fn shared(&self) -> bool {
        !self.tiers.is_empty()
    }

    /// True when this process already delivered (or saw claimed) the slot;
    /// never asks a store.
    pub(crate) fn has_claimed(&self, agent: &AgentId, slot: &Slot) -> bool {
        match slot.disclosure {
            None => self.local.has_spoken(agent, slot.family, slot.seat),
            Some(code) => self
                .local
                .has_disclosed(agent, slot.family, slot.seat, code),
        }
    }

    /// Claims a slot: first only when this process's ledger and the store
    /// agree. The process's own ledger answers first, so of its racing
    /// threads only the one it makes first asks a store; the others are
    /// again at once. Asking the store first would let a thread the store
    /// made first lose this process's claim to a thread the store answered
    /// again, and nobody would speak.
    pub(crate) fn claim(&self, agent: &AgentId, slot: &Slot) -> Claim {
        let mine = match slot.disclosure {
            None => self.local.claim(agent, slot.family, slot.seat),
            Some(code) => self
                .local
                .claim_disclosure(agent, slot.family, slot.seat, code),
        };
        if mine == Claim::Again {
            return Claim::Again;
        }
        match self.ask(|store| store.claim(agent, slot)) {
            Some(Claim::Again) => Claim::Again,
            Some(Claim::First) | None => Claim::First,
        }
    }

    /// Edits the agent's budget in the first store that answers, else here.
    fn edit(&self, agent: &AgentId, edit: &mut dyn FnMut(&mut BudgetRecord) -> Edit) {
        if self.ask(|store| store.edit_budget(agent, edit)).is_none() {
            // The in-process ledger never fails.
            let _ = LedgerStore::edit_budget(&self.local, agent, edit);
        }
    }

    pub(crate) fn count_failure(&self, agent: &AgentId, call: &BudgetCall<'_>) {
        if !self.shared() {
            return self.local.count_failure(agent, call);
        }
        let key = call.key();
        self.edit(
            agent,
            &mut |record| match record.count_failure(call.id, key) {
                true => Edit::Changed,
                false => Edit::Unchanged,
            },
        );
    }

    /// True (and settled) when `call` is the materialized failure of a
    /// refusal this process made. Only this process's ledger is read first: a
    /// harness posts a refusal's failure to the process that refused.
    pub(crate) fn take_refusal(&self, agent: &AgentId, call: &BudgetCall<'_>) -> bool {
        if !self.local.take_refusal(agent, call) {
            return false;
        }
        if self.shared() {
            let key = call.key();
            self.edit(
                agent,
                &mut |record| match record.take_refusal(call.id, || key) {
                    true => Edit::Changed,
                    false => Edit::Unchanged,
                },
            );
        }
        true
    }

    pub(crate) fn record_success(&self, agent: &AgentId, call: &BudgetCall<'_>) {
        if !self.shared() {
            return self.local.record_success(agent, call);
        }
        let mut key = None;
        self.edit(agent, &mut |record| {
            if !record.is_watching() {
                return Edit::Unchanged;
            }
            let key = *key.get_or_insert_with(|| call.key());
            match record.record_success(&key) {
                true => Edit::Changed,
                false => Edit::Unchanged,
            }
        });
    }

    pub(crate) fn admit(
        &self,
        agent: &AgentId,
        call: &BudgetCall<'_>,
        limits: BudgetLimits,
    ) -> BudgetVerdict {
        if !self.shared() {
            return self.local.admit(agent, call, limits);
        }
        let key = call.key();
        let mut verdict = BudgetVerdict::Allow;
        let answered = self.ask(|store| {
            store.edit_budget(agent, &mut |record| {
                verdict = record.admit(call.id, key, limits);
                match verdict {
                    BudgetVerdict::Refuse { .. } => Edit::Changed,
                    BudgetVerdict::Allow => Edit::Unchanged,
                }
            })
        });
        match answered {
            Some(()) => {
                if let BudgetVerdict::Refuse { .. } = verdict {
                    self.local.mirror_refusal(agent, call);
                }
                verdict
            }
            None => self.local.admit(agent, call, limits),
        }
    }

    pub(crate) fn forget(&self, agent: &AgentId) {
        self.local.forget(agent);
        let now = self.now();
        for (i, tier) in self.tiers.iter().enumerate().filter(|(_, t)| t.is_up(now)) {
            match tier.store.forget(agent) {
                Ok(()) => tier.answered(),
                Err(fault) => tier.failed(self.now(), &fault, self.fallback(i)),
            }
        }
    }
}
