//! What one store operation costs, on tmpfs (`/dev/shm`) and on disk (the
//! system temp directory): a claim that is first (a new agent: its directory,
//! the marker, the stamp), a claim that is not, a budget edit (lock, read,
//! write a temporary file, rename), one that changes nothing (lock, read), an
//! edit of an agent with no record (one `stat`), and a collection that scans
//! 10 000 agents and removes none.
//!
//! `cargo bench -p ledger-file --bench claim`
#![allow(clippy::expect_used, clippy::unwrap_used, missing_docs)]

use std::path::PathBuf;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Duration;

use advisor_core::{AgentId, BudgetRecord, Edit, FamilyId, LedgerStore, RecordOwner, Seat, Slot};
use divan::Bencher;
use ledger_file::{FileLimits, FileStore};

const KEY: &str = "000102030405060708090a0b0c0d0e0f";
const PLACES: &[&str] = &["tmpfs", "disk"];

fn main() {
    divan::main();
}

fn base(place: &str) -> PathBuf {
    match place {
        "tmpfs" if std::path::Path::new("/dev/shm").is_dir() => PathBuf::from("/dev/shm"),
        _ => std::env::temp_dir(),
    }
}

/// One store per place (kept for the whole run; the bench never collects).
fn store(place: &'static str) -> &'static FileStore {
    static STORES: OnceLock<Vec<(&'static str, tempfile::TempDir, FileStore)>> = OnceLock::new();
    let stores = STORES.get_or_init(|| {
        PLACES
            .iter()
            .map(|place| {
                let dir = tempfile::tempdir_in(base(place)).unwrap();
                let limits = FileLimits {
                    max_agents: usize::MAX,
                    gc_interval: Duration::from_secs(24 * 3600),
                    ..FileLimits::default()
                };
                let store = FileStore::open(dir.path(), limits).unwrap();
                std::fs::write(store.root().join("key"), KEY).unwrap();
                store.adopt_digest_key().unwrap();
                (*place, dir, store)
            })
            .collect()
    });
    &stores.iter().find(|(p, ..)| *p == place).unwrap().2
}

fn slot() -> Slot {
    Slot::advisory(FamilyId::new("acl-provisioning"), Seat::Failure)
}

static NEXT: AtomicU64 = AtomicU64::new(0);

#[divan::bench(args = PLACES)]
fn claim_first(bencher: Bencher, place: &'static str) {
    let store = store(place);
    bencher
        .with_inputs(|| AgentId::new(format!("new-{}", NEXT.fetch_add(1, Relaxed))))
        .bench_local_refs(|agent| store.claim(agent, &slot()).unwrap());
}

#[divan::bench(args = PLACES)]
fn claim_again(bencher: Bencher, place: &'static str) {
    let store = store(place);
    let agent = AgentId::new("again");
    store.claim(&agent, &slot()).unwrap();
    bencher.bench_local(|| store.claim(&agent, &slot()).unwrap());
}

/// One more failure through the codec's layout (the count follows the
/// version byte and the 16-byte owner).
fn increment(record: &mut BudgetRecord) -> Edit {
    let owner = RecordOwner::of(&AgentId::new("bench"));
    let mut bytes = record.encode(owner);
    let count = u32::from_le_bytes(bytes[17..21].try_into().unwrap());
    bytes[17..21].copy_from_slice(&count.wrapping_add(1).to_le_bytes());
    *record = BudgetRecord::decode(&bytes, owner).unwrap();
    Edit::Changed
}

#[divan::bench(args = PLACES)]
fn budget_edit(bencher: Bencher, place: &'static str) {
    let store = store(place);
    let agent = AgentId::new("budget");
    bencher.bench_local(|| store.edit_budget(&agent, &mut increment).unwrap());
}

/// The common case of `admit` once an agent has a record: lock, read, decide, no write.
#[divan::bench(args = PLACES)]
fn budget_edit_unchanged(bencher: Bencher, place: &'static str) {
    let store = store(place);
    let agent = AgentId::new("read only");
    store.edit_budget(&agent, &mut increment).unwrap();
    bencher.bench_local(|| store.edit_budget(&agent, &mut |_| Edit::Unchanged).unwrap());
}

#[divan::bench(args = PLACES)]
fn budget_edit_no_record(bencher: Bencher, place: &'static str) {
    let store = store(place);
    let agent = AgentId::new("never failed");
    bencher.bench_local(|| store.edit_budget(&agent, &mut |_| Edit::Unchanged).unwrap());
}

#[divan::bench(args = PLACES, sample_count = 5, sample_size = 1)]
fn collect_10k_agents(bencher: Bencher, place: &'static str) {
    let dir = tempfile::tempdir_in(base(place)).unwrap();
    let limits = FileLimits {
        gc_interval: Duration::from_secs(24 * 3600),
        ..FileLimits::default()
    };
    let store = FileStore::open(dir.path(), limits).unwrap();
    std::fs::write(store.root().join("key"), KEY).unwrap();
    for i in 0..10_000 {
        store
            .claim(&AgentId::new(format!("gc-{i}")), &slot())
            .unwrap();
    }
    bencher.bench_local(|| store.collect_garbage().unwrap());
}
