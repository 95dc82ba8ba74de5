//! The one bounded map: sharded, refreshed on every touch, and forgetting only
//! entries that `capacity` others have outranked.
//!
//! The ledger (agents), the pre-flight memo (sessions) and host-adapter's
//! per-session policy all keep their state in a [`BoundedMap`], so one rule
//! bounds every map a long-running sidecar holds:
//!
//! - **Touch.** Every access through [`read`](BoundedMap::read),
//!   [`update`](BoundedMap::update) or [`upsert`](BoundedMap::upsert) marks the
//!   entry as just seen. A shared read refreshes it too, without the exclusive
//!   lock: the mark is an atomic stamp inside the entry.
//! - **Forgotten.** An entry is forgotten only after `capacity` *other* entries
//!   were touched since its own last touch (or by [`remove`](BoundedMap::remove)).
//!   Until then it is never dropped, however many entries come and go.
//! - **Bound.** It holds at most [`limit`](BoundedMap::limit) entries:
//!   `capacity + max(1, capacity / 8)`. An insertion that goes past the limit
//!   forgets, in one pass, every entry that `capacity` more recently touched
//!   entries outrank. (Under concurrent insertion the count may pass the limit
//!   by at most one entry per inserting thread, each waiting for that pass.)
//!
//! Recency is a stamp read from a per-map clock. Stamps are monotone, so an
//! entry with a larger stamp was touched later; entries may share a stamp, and
//! the rule above only forgets an entry when `capacity` entries hold strictly
//! larger stamps, so a tie never forgets anything early. The clock advances
//! after every `batch` re-stamps counted per shard, not on every touch: a touch
//! writes its own entry and its shard's counter (the cache line the shard lock
//! already writes), and the shared clock only once per batch. The batch is
//! sized so that at most half the slack can share one stamp, which keeps each
//! forgetting pass productive: it frees at least `slack / 2` entries.

use std::fmt;
use std::hash::{BuildHasher, Hash, RandomState};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::{Mutex, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

use hashbrown::HashTable;
use hashbrown::hash_table::Entry;

/// Most shards a map is split into (a power of two).
const MAX_SHARDS: usize = 128;

struct Slot<K, V> {
    key: K,
    stamp: AtomicU64,
    value: V,
}

/// One shard: its table, and the re-stamps counted in it. Aligned so two shards
/// never share a cache line.
#[repr(align(128))]
struct Shard<K, V> {
    table: RwLock<HashTable<Slot<K, V>>>,
    restamps: AtomicU64,
}

impl<K, V> Shard<K, V> {
    fn read(&self) -> RwLockReadGuard<'_, HashTable<Slot<K, V>>> {
        self.table.read().unwrap_or_else(PoisonError::into_inner)
    }

    fn write(&self) -> RwLockWriteGuard<'_, HashTable<Slot<K, V>>> {
        self.table.write().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A concurrent map bounded by `capacity`, forgetting least recently touched
/// entries first (see the module documentation for the exact rule).
pub struct BoundedMap<K, V> {
    shards: Box<[Shard<K, V>]>,
    hasher: RandomState,
    clock: AtomicU64,
    len: AtomicUsize,
    capacity: usize,
    slack: usize,
    batch: u64,
    forgetting: Mutex<()>,
}

impl<K: Hash + Eq, V> BoundedMap<K, V> {
    /// A map that keeps any entry touched within the last `capacity` distinct
    /// touches (at least 1), and holds at most [`limit`](Self::limit) entries.
    pub fn new(capacity: usize) -> Self {
        let capacity = capacity.max(1);
        let slack = (capacity / 8).max(1);
        let shards = (capacity / 64).clamp(1, MAX_SHARDS).next_power_of_two();
        let batch = (slack / (2 * shards)).max(1) as u64;
        Self {
            shards: (0..shards)
                .map(|_| Shard {
                    table: RwLock::new(HashTable::new()),
                    restamps: AtomicU64::new(0),
                })
                .collect(),
            hasher: RandomState::new(),
            clock: AtomicU64::new(0),
            len: AtomicUsize::new(0),
            capacity,
            slack,
            batch,
            forgetting: Mutex::new(()),
        }
    }

    /// Runs `f` on the entry under its shard's shared lock, and touches it.
    pub fn read<R>(&self, key: &K, f: impl FnOnce(&V) -> R) -> Option<R> {
        let hash = self.hasher.hash_one(key);
        let shard = self.shard(hash);
        let table = shard.read();
        let slot = table.find(hash, |s| s.key == *key)?;
        self.touch(shard, &slot.stamp);
        Some(f(&slot.value))
    }

    /// Runs `f` on the entry under its shard's exclusive lock, and touches it;
    /// `None` (and nothing created) when the key is absent.
    pub fn update<R>(&self, key: &K, f: impl FnOnce(&mut V) -> R) -> Option<R> {
        let hash = self.hasher.hash_one(key);
        let shard = self.shard(hash);
        let mut table = shard.write();
        let slot = table.find_mut(hash, |s| s.key == *key)?;
        self.touch(shard, &slot.stamp);
        Some(f(&mut slot.value))
    }

    /// Runs `f` on the entry under its shard's exclusive lock, creating it with
    /// `init` when absent, and touches it. An insertion past the limit then
    /// forgets the entries that `capacity` others outrank.
    pub fn upsert<R>(&self, key: &K, init: impl FnOnce() -> V, f: impl FnOnce(&mut V) -> R) -> R
    where
        K: Clone,
    {
        let hash = self.hasher.hash_one(key);
        let shard = self.shard(hash);
        let (result, len) = {
            let mut table = shard.write();
            let hasher = &self.hasher;
            match table.entry(hash, |s| s.key == *key, |s| hasher.hash_one(&s.key)) {
                Entry::Occupied(mut occupied) => {
                    let slot = occupied.get_mut();
                    self.touch(shard, &slot.stamp);
                    (f(&mut slot.value), 0)
                }
                Entry::Vacant(vacant) => {
                    let stamp = self.clock.load(Relaxed);
                    self.restamped(shard);
                    let mut slot = vacant.insert(Slot {
                        key: key.clone(),
                        stamp: AtomicU64::new(stamp),
                        value: init(),
                    });
                    let len = self.len.fetch_add(1, Relaxed) + 1;
                    (f(&mut slot.get_mut().value), len)
                }
            }
        };
        if len > self.limit() {
            self.forget_outranked();
        }
        result
    }

    /// Removes the entry; true when it was present.
    pub fn remove(&self, key: &K) -> bool {
        let hash = self.hasher.hash_one(key);
        let mut table = self.shard(hash).write();
        match table.find_entry(hash, |s| s.key == *key) {
            Ok(occupied) => {
                occupied.remove();
                self.len.fetch_sub(1, Relaxed);
                true
            }
            Err(_) => false,
        }
    }

    fn shard(&self, hash: u64) -> &Shard<K, V> {
        // Bits 50..57: hashbrown takes a bucket from the low bits and its tag
        // from the top seven, so the shard index must come from neither.
        &self.shards[(hash >> 50) as usize & (self.shards.len() - 1)]
    }

    /// Marks an entry as just seen: its stamp moves up to the clock.
    fn touch(&self, shard: &Shard<K, V>, stamp: &AtomicU64) {
        let now = self.clock.load(Relaxed);
        if stamp.load(Relaxed) < now {
            stamp.fetch_max(now, Relaxed);
            self.restamped(shard);
        }
    }

    /// Counts a re-stamp in its shard; every `batch` of them advances the clock.
    fn restamped(&self, shard: &Shard<K, V>) {
        if (shard.restamps.fetch_add(1, Relaxed) + 1) % self.batch == 0 {
            self.clock.fetch_add(1, Relaxed);
        }
    }

    /// Forgets every entry that at least `capacity` entries with a strictly
    /// later stamp outrank. One pass at a time: an insertion past the limit
    /// waits for a running pass, then runs its own only if still needed, so
    /// each thread holds at most one insertion past the limit.
    fn forget_outranked(&self) {
        let _one_pass = self
            .forgetting
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if self.len() <= self.limit() {
            return;
        }
        let mut stamps: Vec<u64> = Vec::with_capacity(self.len() + self.shards.len());
        for shard in self.shards.iter() {
            stamps.extend(shard.read().iter().map(|s| s.stamp.load(Relaxed)));
        }
        if stamps.len() > self.capacity {
            let (_, nth, _) = stamps.select_nth_unstable_by(self.capacity - 1, |a, b| b.cmp(a));
            let threshold = *nth;
            for shard in self.shards.iter() {
                let mut table = shard.write();
                let before = table.len();
                // A stamp is only ever raised, so an entry touched since the
                // snapshot holds at least the threshold and stays.
                table.retain(|s| s.stamp.load(Relaxed) >= threshold);
                self.len.fetch_sub(before - table.len(), Relaxed);
            }
        }
    }
}

impl<K, V> BoundedMap<K, V> {
    /// How many entries are held.
    pub fn len(&self) -> usize {
        self.len.load(Relaxed)
    }

    /// True when no entry is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many other entries must be touched before an untouched one may be forgotten.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The most entries held: `capacity + max(1, capacity / 8)`.
    pub fn limit(&self) -> usize {
        self.capacity.saturating_add(self.slack)
    }
}

impl<K, V> fmt::Debug for BoundedMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BoundedMap")
            .field("len", &self.len.load(Relaxed))
            .field("capacity", &self.capacity)
            .field("limit", &self.limit())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
#[path = "bounded/tests.rs"]
mod tests;
