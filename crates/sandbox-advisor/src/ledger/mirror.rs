//! Redis, with what it claims mirrored into the on-disk store that stands in
//! for it (a hook's store stack).
//!
//! A hook answers from its on-disk store while Redis is down. Without a
//! mirror that store knows nothing of what Redis claimed, so an agent advised
//! while Redis was up was advised again on the same machine once Redis froze
//! or died (issue 36 item 9). So:
//!
//! - **A claim Redis makes first** is claimed on the disk too, by the process
//!   that speaks. When the disk already holds it, this machine delivered the
//!   advisory before (from the disk during an outage, or before Redis
//!   restarted empty): the claim is `Again`, and nobody speaks twice. A claim
//!   Redis says is taken writes nothing: only a process that would speak
//!   mirrors, so two racing processes never both stay silent (the one Redis
//!   made first is the only one that could find the disk's marker, and only
//!   one this machine wrote when it spoke).
//! - **The agent names agree.** The disk names agents by the digest key in
//!   use. A hook that reached Redis remembers the fleet's key in the
//!   directory (`FileStore::remember_fleet_key`: one read, and a write only
//!   when the key changed); a hook that cannot reach Redis digests under the
//!   remembered key, so it finds the mirrored claims, and proposes it to a
//!   Redis that comes back empty.
//!
//! **Cost.** Per claim Redis makes first: one claim of the on-disk store (a
//! marker created with `O_EXCL`; 4–6 µs for an agent the disk knows, 21–25 µs
//! on tmpfs and 0.45–0.62 ms on ext4 for an agent's first, which also
//! creates its directory and stamp: `cargo bench -p ledger-file --bench
//! claim`). Nothing for a claim Redis says is taken, for a budget edit, or
//! for an event no family recognizes. The mirrors are the on-disk store's
//! own claims: bounded by its limits (10,000 agents, 7 days) and collected
//! with them. A mirror that fails is logged at debug and costs nothing
//! else: Redis's answer stands.
//!
//! **Not mirrored: the budget.** While Redis is down the on-disk budget holds
//! only what hooks counted during earlier outages, so the budget fails open:
//! at most `enforceAfter` more failures of a call before it is refused. And
//! one machine's disk knows only its own deliveries: across machines an
//! agent may still hear an advisory once per machine during an outage.

use std::sync::Arc;

use advisor_core::{AgentId, BudgetRecord, Claim, Edit, LedgerStore, Slot, StoreFault};
use ledger_file::FileStore;
use ledger_redis::RedisStore;

/// Redis, with the claims it makes first mirrored into `disk`.
pub(super) struct Mirrored {
    redis: RedisStore,
    disk: Arc<FileStore>,
}

impl Mirrored {
    pub(super) fn new(redis: RedisStore, disk: Arc<FileStore>) -> Self {
        Self { redis, disk }
    }
}

impl LedgerStore for Mirrored {
    fn name(&self) -> &'static str {
        self.redis.name()
    }

    fn described(&self) -> &'static str {
        self.redis.described()
    }

    fn claim(&self, agent: &AgentId, slot: &Slot) -> Result<Claim, StoreFault> {
        if self.redis.claim(agent, slot)? == Claim::Again {
            return Ok(Claim::Again);
        }
        match self.disk.claim(agent, slot) {
            Ok(claim) => Ok(claim),
            Err(fault) => {
                tracing::debug!(target: "sandbox_advisor::ledger", fault = %advisor_core::quote::log_field(&fault.to_string()), "a claim Redis made could not be mirrored on disk");
                Ok(Claim::First)
            }
        }
    }

    fn forget(&self, agent: &AgentId) -> Result<(), StoreFault> {
        // The on-disk store is the next tier: the advisor forgets it too.
        self.redis.forget(agent)
    }

    fn edit_budget(
        &self,
        agent: &AgentId,
        edit: &mut dyn FnMut(&mut BudgetRecord) -> Edit,
    ) -> Result<(), StoreFault> {
        self.redis.edit_budget(agent, edit)
    }
}
