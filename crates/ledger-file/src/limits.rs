//! The bounds of an on-disk ledger.

use std::time::Duration;

/// How much a [`FileStore`](crate::FileStore) keeps and how long it waits.
///
/// Agents are bounded twice, by a collection that runs at most once per
/// [`gc_interval`](Self::gc_interval) across every process sharing the
/// directory (the one that wins a non-blocking try-lock does it):
/// - by age: an agent whose claims and budget nobody touched for
///   [`max_age`](Self::max_age) is removed;
/// - by count: when more than [`max_agents`](Self::max_agents) remain, the
///   least recently touched are removed until that many are left.
///
/// Between two collections the agents created meanwhile add to the count. A
/// removed agent is one the store has forgotten: its next claim is first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileLimits {
    /// Who runs a due collection. Default: [`Collection::Inline`].
    pub collection: Collection,
    /// Agents untouched this long are removed. Default: 7 days.
    pub max_age: Duration,
    /// At most this many agents are kept after a collection. Default: 10 000.
    pub max_agents: usize,
    /// A collection runs at most once per this interval. Default: 60 s.
    pub gc_interval: Duration,
    /// The longest a budget edit (or a forget) waits for the agent's budget
    /// lock before it answers a fault. Each holder keeps it for one
    /// read-edit-write, well under a millisecond, so only a stopped holder
    /// (a process suspended in a debugger) ever reaches it. Default: 2 s.
    pub lock_wait: Duration,
}

/// Who runs a collection when one is due.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Collection {
    /// The operation that finds it due (a claim, an edit, a forget) runs it.
    /// Over 10 000 agents that one operation takes tens of milliseconds.
    Inline,
    /// Operations never collect; the owner asks
    /// [`FileStore::collection_due`](crate::FileStore::collection_due) and
    /// runs [`FileStore::collect_if_due`](crate::FileStore::collect_if_due)
    /// where nobody waits for it (`sandbox-advisor hook` starts a detached
    /// `sandbox-advisor collect`).
    Elsewhere,
}

/// The default age bound: 7 days.
pub const DEFAULT_MAX_AGE: Duration = Duration::from_secs(7 * 24 * 60 * 60);
/// The default count bound: 10 000 agents.
pub const DEFAULT_MAX_AGENTS: usize = 10_000;
/// The default collection interval: 60 s.
pub const DEFAULT_GC_INTERVAL: Duration = Duration::from_secs(60);
/// The default budget lock wait: 2 s.
pub const DEFAULT_LOCK_WAIT: Duration = Duration::from_secs(2);

impl Default for FileLimits {
    fn default() -> Self {
        Self {
            collection: Collection::Inline,
            max_age: DEFAULT_MAX_AGE,
            max_agents: DEFAULT_MAX_AGENTS,
            gc_interval: DEFAULT_GC_INTERVAL,
            lock_wait: DEFAULT_LOCK_WAIT,
        }
    }
}

impl FileLimits {
    /// Why these limits cannot work, if they cannot.
    pub(crate) fn problem(&self) -> Option<&'static str> {
        if self.max_agents == 0 {
            Some("max_agents must be at least 1")
        } else if self.max_age.is_zero() {
            Some("max_age must be longer than zero")
        } else {
            None
        }
    }
}
