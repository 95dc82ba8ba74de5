//! Stores opened on first use, and the digest key learnt then.
//!
//! Processes that share a store must digest alike (`advisor_core::DigestKey`).
//! The key is learnt from the store, which costs a file read or a round trip,
//! so it is learnt when the first digest is computed
//! (`advisor_core::digest_key_from`), and the stores are opened at that moment
//! too. An event that matches nothing computes no digest and so never opens
//! a store.
//!
//! Redis: the fleet keeps one key in Redis. A process that read it may put it
//! back when Redis comes back empty (a restart without persistence); one that
//! could not reach Redis digests under a key of its own (the on-disk store's
//! for a hook, else a random one) and only checks. Either way every new
//! connection checks the key before it is used
//! (`RedisStore::checking_digest_key`): if Redis holds another key, or none
//! this process may seed, the store faults and the advisor answers from the
//! next store or its own ledger (disclosed once per outage).
//!
//! A digest key in Redis that is not 32 hex digits (anyone who can write to
//! Redis can put one there) is not the fleet's key, and none can be agreed
//! on while it stays: the connection that read it is closed, a `warn` line
//! names the Redis key (and the value's length, never its content), and
//! Redis is not used again by this process. The process answers as in an
//! outage: a hook from the on-disk store (digesting under its key), `serve`
//! from its own ledger, until an operator deletes the key and the process
//! restarts. So a garbage key costs the fleet its sharing between machines,
//! never a second advisory from one on-disk store, and nothing is written
//! to Redis under a key the fleet does not share.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use advisor_core::{
    AgentId, BudgetRecord, Claim, DigestKey, Edit, LedgerStore, Slot, StoreFault, digest_key_from,
    digest_key_in_use,
};
use ledger_file::{Collection, FileLimits, FileStore};
use ledger_redis::{RedisStore, StoredDigestKey};

use super::mirror::Mirrored;

/// What binding produced: the key, and each tier's store (or why it could not open).
pub(super) struct Bound {
    key: DigestKey,
    stores: Vec<Result<Arc<dyn LedgerStore>, StoreFault>>,
    /// The on-disk store and its directory, when one was opened.
    file: Option<(Arc<FileStore>, PathBuf)>,
}

type Bind = Box<dyn Fn() -> Bound + Send + Sync>;

/// The stores of one ledger, opened on first use.
pub(super) struct Deferred {
    tiers: usize,
    bind: Bind,
    bound: OnceLock<Bound>,
}

impl Deferred {
    /// `tiers` stores, opened by `bind` when first needed.
    pub(super) fn new(tiers: usize, bind: impl Fn() -> Bound + Send + Sync + 'static) -> Arc<Self> {
        Arc::new(Self {
            tiers,
            bind: Box::new(bind),
            bound: OnceLock::new(),
        })
    }

    /// Makes the first digest open the stores and take their key, and returns
    /// the stores as the advisor sees them.
    pub(super) fn install(self: Arc<Self>) -> Result<Vec<Arc<dyn LedgerStore>>, String> {
        let source = self.clone();
        digest_key_from(move || source.bound().key).map_err(|e| e.to_string())?;
        Ok((0..self.tiers)
            .map(|tier| {
                Arc::new(Tier {
                    deferred: self.clone(),
                    tier,
                }) as Arc<dyn LedgerStore>
            })
            .collect())
    }

    /// The on-disk store's directory when the store was opened (by this
    /// process's first digest) and a collection is due.
    pub(super) fn collection_due(&self) -> Option<PathBuf> {
        let (file, dir) = self.bound.get()?.file.as_ref()?;
        file.collection_due().then(|| dir.clone())
    }

    fn bound(&self) -> &Bound {
        self.bound.get_or_init(|| (self.bind)())
    }

    /// The tier's store; the key is chosen first, which binds.
    fn store(&self, tier: usize) -> Result<&Arc<dyn LedgerStore>, StoreFault> {
        let _ = digest_key_in_use();
        match self.bound().stores.get(tier) {
            Some(Ok(store)) => Ok(store),
            Some(Err(fault)) => Err(fault.clone()),
            None => Err(StoreFault::new("ledger", "no such store")),
        }
    }
}

/// One tier of a deferred ledger, as the advisor sees it.
struct Tier {
    deferred: Arc<Deferred>,
    tier: usize,
}

impl LedgerStore for Tier {
    fn name(&self) -> &'static str {
        match self.deferred.store(self.tier) {
            Ok(store) => store.name(),
            Err(fault) => fault.store,
        }
    }

    fn described(&self) -> &'static str {
        match self.deferred.store(self.tier) {
            Ok(store) => store.described(),
            Err(fault) => fault.store,
        }
    }

    fn claim(&self, agent: &AgentId, slot: &Slot) -> Result<Claim, StoreFault> {
        self.deferred.store(self.tier)?.claim(agent, slot)
    }

    fn forget(&self, agent: &AgentId) -> Result<(), StoreFault> {
        self.deferred.store(self.tier)?.forget(agent)
    }

    fn edit_budget(
        &self,
        agent: &AgentId,
        edit: &mut dyn FnMut(&mut BudgetRecord) -> Edit,
    ) -> Result<(), StoreFault> {
        self.deferred.store(self.tier)?.edit_budget(agent, edit)
    }
}

/// The on-disk store in `dir` and its key.
fn open_file(
    dir: &Path,
    collection: Collection,
) -> Result<(DigestKey, Arc<FileStore>), StoreFault> {
    let limits = FileLimits {
        collection,
        ..FileLimits::default()
    };
    let file = FileStore::open(dir, limits)?;
    Ok((file.digest_key()?, Arc::new(file)))
}

/// The on-disk store and its key; a store that cannot open leaves a random
/// key and a fault for every operation.
pub(super) fn bind_file(dir: &Path, collection: Collection) -> Bound {
    match open_file(dir, collection) {
        Ok((key, file)) => {
            tracing::info!(target: "sandbox_advisor::ledger", dir = %advisor_core::quote::log_field(&file.root().to_string_lossy()), "on-disk ledger opened");
            Bound {
                key,
                stores: vec![Ok(file.clone())],
                file: Some((file, dir.to_owned())),
            }
        }
        Err(fault) => Bound {
            key: DigestKey::random(),
            stores: vec![Err(fault)],
            file: None,
        },
    }
}

/// Redis bound to the fleet's key (or, unreachable, to the fleet's key the
/// on-disk store remembers, else the store's own, else a random one), then
/// the on-disk store when `file` names its directory; Redis's claims are
/// mirrored into it ([`super::mirror`]).
pub(super) fn bind_fleet(
    redis: &Mutex<Option<RedisStore>>,
    file: Option<&Path>,
    collection: Collection,
) -> Bound {
    let dir = file.map(Path::to_owned);
    // Who answers while Redis cannot: a hook's on-disk store, else serve's own ledger.
    let fallback = match file {
        Some(_) => "the on-disk store",
        None => "its own in-memory ledger",
    };
    let file = file.map(|dir| open_file(dir, collection));
    let Some(redis) = redis.lock().unwrap_or_else(PoisonError::into_inner).take() else {
        // Bound once (OnceLock); never reached.
        return Bound {
            key: DigestKey::random(),
            stores: Vec::new(),
            file: None,
        };
    };
    let disk = match &file {
        Some(Ok((_, store))) => Some(store.clone()),
        _ => None,
    };
    let remembered = disk.as_ref().and_then(|disk| remembered_fleet_key(disk));
    let local_key = || match (&remembered, &file) {
        (Some(key), _) => *key,
        (None, Some(Ok((key, _)))) => *key,
        _ => DigestKey::random(),
    };
    let proposal = remembered.unwrap_or_else(DigestKey::random);
    let (key, redis) = match redis.stored_digest_key(Some(proposal)) {
        Ok(StoredDigestKey::Key(key)) => {
            // Written only when it changed: a read was spent above.
            if let (Some(disk), false) = (&disk, remembered == Some(key)) {
                if let Err(fault) = disk.remember_fleet_key(key) {
                    tracing::warn!(target: "sandbox_advisor::ledger", fault = %advisor_core::quote::log_field(&fault.to_string()), "the fleet's digest key could not be remembered on disk: while Redis is down, this directory's claims may not be found");
                }
            }
            (key, Ok(redis.checking_digest_key(key, true)))
        }
        Ok(StoredDigestKey::Malformed { name, bytes }) => {
            tracing::warn!(target: "sandbox_advisor::ledger", key = %advisor_core::quote::log_field(&name), bytes, "the fleet digest key in Redis is malformed (not 32 hex digits): this process writes nothing to Redis and answers from {fallback}; delete the key, then restart the fleet's processes");
            let fault = StoreFault::new(
                "redis",
                format!("the fleet digest key {name} in Redis is malformed ({bytes} bytes)"),
            );
            (local_key(), Err(fault))
        }
        Ok(StoredDigestKey::Absent) | Err(_) => {
            tracing::info!(target: "sandbox_advisor::ledger", "Redis unreachable when first needed: this process answers from {fallback} until it is restarted");
            let key = local_key();
            (key, Ok(redis.checking_digest_key(key, false)))
        }
    };
    let redis = redis.map(|redis| match &disk {
        Some(disk) => Arc::new(Mirrored::new(redis, disk.clone())) as Arc<dyn LedgerStore>,
        None => Arc::new(redis) as Arc<dyn LedgerStore>,
    });
    let mut stores: Vec<Result<Arc<dyn LedgerStore>, StoreFault>> = vec![redis];
    let mut kept = None;
    if let Some(file) = file {
        if let (Ok((_, store)), Some(dir)) = (&file, dir) {
            kept = Some((store.clone(), dir));
        }
        stores.push(file.map(|(_, f)| f as Arc<dyn LedgerStore>));
    }
    Bound {
        key,
        stores,
        file: kept,
    }
}

/// The fleet's key the on-disk store remembers; a file there that is not a
/// key is said once at warn and left alone (an operator removes it).
fn remembered_fleet_key(disk: &FileStore) -> Option<DigestKey> {
    disk.remembered_fleet_key().unwrap_or_else(|fault| {
        tracing::warn!(target: "sandbox_advisor::ledger", fault = %advisor_core::quote::log_field(&fault.to_string()), "the remembered fleet digest key is unreadable: digesting under this directory's own key while Redis is down");
        None
    })
}
