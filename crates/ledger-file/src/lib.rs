#![doc = include_str!("../README.md")]

mod budget;
mod claim;
mod fault;
mod gc;
mod guard;
mod key;
mod layout;
mod limits;
mod lock;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use advisor_core::{
    AgentId, BudgetRecord, Claim, DigestKey, Edit, LedgerStore, Slot, StoreFault, use_digest_key,
};

pub use gc::Collected;
pub use limits::{
    Collection, DEFAULT_GC_INTERVAL, DEFAULT_LOCK_WAIT, DEFAULT_MAX_AGE, DEFAULT_MAX_AGENTS,
    FileLimits,
};

use fault::Fault;
use layout::Layout;

/// The name of the directory under the platform's per-user state directory.
pub const APP_DIR: &str = "sandbox-advisor";

/// The longest an agent's `touched` stamp may lag behind its last use.
const TOUCH_EVERY: Duration = Duration::from_secs(60);

/// Once-per-agent claims and fail-fast budgets in a directory, shared by
/// every process (and thread) that opens the same directory. See the crate
/// documentation for the layout, the bounds and the Windows notes.
#[derive(Debug)]
pub struct FileStore {
    layout: Layout,
    limits: FileLimits,
    epoch: Instant,
    /// Milliseconds since `epoch` before which this process does not look
    /// at the collection stamp again.
    next_gc_look: AtomicU64,
}

impl FileStore {
    /// Opens (creating when missing) the store in `dir`; its files go under
    /// `dir/v1/`. Directories are created owner-only (0700) on Unix.
    ///
    /// Refused, naming the path and the fix: a `dir`, `v1`, `v1/agents` or
    /// `v1/trash` that is a symbolic link or not a directory, is owned by
    /// another user, or is writable by group or others; a `dir` whose parent
    /// another user could rename it in (owned by someone else than this user
    /// or root, or writable by others without the sticky bit).
    pub fn open(dir: impl AsRef<Path>, limits: FileLimits) -> Result<Self, StoreFault> {
        if let Some(problem) = limits.problem() {
            return Err(Fault::Limits(problem).into());
        }
        let layout = Layout::new(dir.as_ref());
        layout.prepare()?;
        Ok(Self {
            layout,
            limits,
            epoch: Instant::now(),
            next_gc_look: AtomicU64::new(0),
        })
    }

    /// The platform's per-user state directory for sandbox-advisor: on Linux
    /// `$XDG_STATE_HOME/sandbox-advisor` or `~/.local/state/sandbox-advisor`;
    /// on Windows `%LOCALAPPDATA%\sandbox-advisor`; on macOS
    /// `~/Library/Application Support/sandbox-advisor`. `None` when the
    /// system names no home directory.
    pub fn default_dir() -> Option<PathBuf> {
        let base = directories::BaseDirs::new()?;
        let dir = base.state_dir().unwrap_or(base.data_local_dir());
        Some(dir.join(APP_DIR))
    }

    /// The versioned directory the store's files live in (`<dir>/v1`).
    pub fn root(&self) -> &Path {
        self.layout.root()
    }

    /// The bounds this store was opened with.
    pub fn limits(&self) -> FileLimits {
        self.limits
    }

    /// The directory of `agent` (named by [`advisor_core::AgentKey`] under this
    /// process's digest key; it may not exist yet).
    pub fn agent_dir(&self, agent: &AgentId) -> PathBuf {
        self.layout.agent(agent)
    }

    /// The digest key shared by every process using this directory, created
    /// on first use (`<dir>/v1/key`, owner-only on Unix). Racing processes
    /// all end with the same key.
    pub fn digest_key(&self) -> Result<DigestKey, StoreFault> {
        Ok(key::load_or_create(&self.layout)?)
    }

    /// [`digest_key`](Self::digest_key), made this process's key with
    /// [`use_digest_key`]. Call it before the advisor decides any event:
    /// processes that digest under different keys name the same agent
    /// differently and share nothing.
    pub fn adopt_digest_key(&self) -> Result<DigestKey, StoreFault> {
        let key = self.digest_key()?;
        use_digest_key(key).map_err(Fault::from)?;
        Ok(key)
    }

    /// The digest key of the Redis fleet this directory stands in for, as
    /// [`remember_fleet_key`](Self::remember_fleet_key) last wrote it
    /// (`<dir>/v1/fleet-key`); `None` when none was. A process that cannot
    /// reach Redis digests under it, so it finds the claims mirrored here
    /// while Redis was up under the same agent names.
    pub fn remembered_fleet_key(&self) -> Result<Option<DigestKey>, StoreFault> {
        Ok(key::remembered_fleet_key(&self.layout)?)
    }

    /// Remembers `key` as the fleet's digest key (owner-only on Unix,
    /// flushed): one read, and a write only when it differs from the one
    /// remembered.
    pub fn remember_fleet_key(&self, key: DigestKey) -> Result<(), StoreFault> {
        Ok(key::remember_fleet_key(&self.layout, key)?)
    }

    /// Collects now, even when the interval has not passed; `Ok(None)` when
    /// another process is collecting. Every operation already collects when
    /// one is due; this is for tools and tests.
    pub fn collect_garbage(&self) -> Result<Option<Collected>, StoreFault> {
        Ok(gc::collect(&self.layout, &self.limits, true)?)
    }

    /// True when a collection is due (the last one is older than the
    /// interval, or none ran): one `stat` of the collection stamp.
    pub fn collection_due(&self) -> bool {
        gc::due(&self.layout, self.limits.gc_interval)
    }

    /// Collects if one is due and no other process is collecting; `Ok(None)`
    /// otherwise. What [`Collection::Elsewhere`]'s owner runs.
    pub fn collect_if_due(&self) -> Result<Option<Collected>, StoreFault> {
        Ok(gc::collect(&self.layout, &self.limits, false)?)
    }

    /// How long a touched stamp may lag: short against the age bound.
    fn touch_every(&self) -> Duration {
        TOUCH_EVERY.min(self.limits.max_age / 8)
    }

    /// Collects when one is due. Looks at the shared stamp at most once per
    /// interval per process; a failed collection is retried next interval
    /// and never fails the operation that triggered it.
    fn collect_inline(&self) {
        if self.limits.collection == Collection::Elsewhere {
            return;
        }
        let now = self.epoch.elapsed().as_millis() as u64;
        // The wait left, zero once it has passed: a comparison of `next` with
        // `now` would differ from its `>=` twin only in the very millisecond
        // the store was opened, which nothing can observe or test.
        if self.next_gc_look.load(Relaxed).saturating_sub(now) != 0 {
            return;
        }
        let interval = self.limits.gc_interval.as_millis() as u64;
        self.next_gc_look
            .store(now.saturating_add(interval.max(1)), Relaxed);
        if gc::due(&self.layout, self.limits.gc_interval) {
            let _ = gc::collect(&self.layout, &self.limits, false);
        }
    }
}

impl LedgerStore for FileStore {
    fn name(&self) -> &'static str {
        fault::STORE
    }

    fn described(&self) -> &'static str {
        "the on-disk store"
    }

    fn claim(&self, agent: &AgentId, slot: &Slot) -> Result<Claim, StoreFault> {
        let claim = claim::claim(&self.layout, agent, slot, self.touch_every())?;
        self.collect_inline();
        Ok(claim)
    }

    fn forget(&self, agent: &AgentId) -> Result<(), StoreFault> {
        claim::forget(&self.layout, agent, self.limits.lock_wait)?;
        self.collect_inline();
        Ok(())
    }

    fn edit_budget(
        &self,
        agent: &AgentId,
        edit: &mut dyn FnMut(&mut BudgetRecord) -> Edit,
    ) -> Result<(), StoreFault> {
        let wait = self.limits.lock_wait;
        budget::edit_budget(&self.layout, agent, edit, wait, self.touch_every())?;
        self.collect_inline();
        Ok(())
    }
}
