//! The store's smaller promises, each at its edge: the largest record, how
//! often an agent's stamp is written, how often a process looks at the
//! collection stamp, what forget removes and creates, and that an answer
//! never waits on retries meant for Windows.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::fs;
use std::path::Path;
use std::time::{Duration, Instant, SystemTime};

use advisor_core::{AgentId, BudgetRecord, Claim, LedgerStore, RECORD_MAX_BYTES, RecordOwner};
use ledger_file::{Collection, FileLimits, FileStore};
use support::hostile::Plant;
use support::*;

const MIN: u64 = 60;
const DAY: u64 = 24 * 60 * MIN;

/// Dates `path`'s mtime `ago` seconds back.
fn backdate(path: &Path, ago: u64) {
    let file = fs::OpenOptions::new().write(true).open(path).unwrap();
    file.set_modified(SystemTime::now() - Duration::from_secs(ago))
        .unwrap();
}

fn age_of(path: &Path) -> Duration {
    let modified = fs::metadata(path).unwrap().modified().unwrap();
    SystemTime::now()
        .duration_since(modified)
        .unwrap_or_default()
}

/// A record of the largest size (every set full) with `failures` counted,
/// written by hand through the documented layout: the version, the failure
/// and denial counts, then each set as a u16 length and 16-byte digests (a
/// refused call takes two).
fn full_record(failures: u32, owner: &AgentId) -> Vec<u8> {
    let mut bytes = vec![2u8];
    // The owner, as the codec writes it.
    bytes.extend_from_slice(&BudgetRecord::default().encode(RecordOwner::of(owner))[1..17]);
    bytes.extend_from_slice(&failures.to_le_bytes());
    bytes.extend_from_slice(&0u32.to_le_bytes());
    let mut next: u128 = 1;
    let mut set = |bytes: &mut Vec<u8>, len: usize, width: usize| {
        bytes.extend_from_slice(&(len as u16).to_le_bytes());
        for _ in 0..len * width {
            bytes.extend_from_slice(&next.to_le_bytes());
            next += 1;
        }
    };
    for (len, width) in [(64, 1), (64, 1), (16, 2), (64, 1), (64, 1)] {
        set(&mut bytes, len, width);
    }
    bytes
}

#[test]
fn a_record_of_the_largest_size_is_read_and_one_byte_more_is_moved_aside() {
    let tmp = tempfile::tempdir().unwrap();
    // The store first: it sets the digest key the record's owner is digested under.
    let store = store(tmp.path());
    let a = agent("a");
    let full = full_record(7, &a);
    assert_eq!(full.len(), RECORD_MAX_BYTES, "the test's record is full");
    store.edit_budget(&a, &mut increment).unwrap();
    let budget = store.agent_dir(&a).join("budget.v2");
    fs::write(&budget, &full).unwrap();
    assert_eq!(failures(&store, &a), 7, "a full record is a record");

    let longer = [&full[..], &[0u8][..]].concat();
    fs::write(&budget, &longer).unwrap();
    let fault = store.edit_budget(&a, &mut increment).unwrap_err();
    assert!(fault.what.contains("longer than any record"), "{fault}");
    assert_eq!(
        fs::read(store.agent_dir(&a).join("budget.corrupt")).unwrap(),
        longer
    );
}

/// An agent's `touched` stamp is rewritten by a claim only when it is older
/// than a minute, or than an eighth of the age bound when that is shorter.
#[test]
fn an_agents_stamp_is_rewritten_only_when_older_than_its_lag_bound() {
    // (max_age, the stamp's age before a claim, rewritten)
    let cases: &[(u64, u64, bool)] = &[
        (7 * DAY, 10, false),
        (7 * DAY, 2 * MIN, true),
        (80, 5, false),
        (80, 20, true),
    ];
    for &(max_age, ago, rewritten) in cases {
        let tmp = tempfile::tempdir().unwrap();
        let limits = FileLimits {
            max_age: Duration::from_secs(max_age),
            gc_interval: Duration::from_secs(3600),
            ..FileLimits::default()
        };
        let store = store_at(tmp.path(), limits);
        let a = agent("a");
        store.claim(&a, &slot()).unwrap();
        let stamp = store.agent_dir(&a).join("touched");
        backdate(&stamp, ago);
        assert_eq!(store.claim(&a, &slot()).unwrap(), Claim::Again);
        let now_fresh = age_of(&stamp) < Duration::from_secs(ago / 2);
        assert_eq!(
            now_fresh, rewritten,
            "max_age {max_age} s, stamp {ago} s old"
        );
    }
}

#[test]
fn the_store_names_itself_and_keeps_its_limits() {
    let tmp = tempfile::tempdir().unwrap();
    let limits = FileLimits {
        max_agents: 3,
        max_age: Duration::from_secs(99),
        gc_interval: Duration::from_secs(7),
        lock_wait: Duration::from_millis(5),
        ..FileLimits::default()
    };
    let store = FileStore::open(tmp.path(), limits).unwrap();
    assert_eq!(store.name(), "file");
    assert_eq!(store.limits(), limits);
}

/// Within one process the shared stamp is looked at once per interval, even
/// when another process made a collection due meanwhile; a process that has
/// not looked yet collects on its first operation.
#[test]
fn a_process_looks_at_the_collection_stamp_at_most_once_per_interval() {
    let tmp = tempfile::tempdir().unwrap();
    let hourly = FileLimits {
        max_agents: 1,
        gc_interval: Duration::from_secs(3600),
        ..FileLimits::default()
    };
    let store = store_at(tmp.path(), hourly);
    store.claim(&agent("a"), &slot()).unwrap();
    let agents = || fs::read_dir(store.root().join("agents")).unwrap().count();
    backdate(&store.root().join("gc.stamp"), 7200);
    for name in ["b", "c"] {
        std::thread::sleep(Duration::from_millis(2));
        store.claim(&agent(name), &slot()).unwrap();
    }
    assert_eq!(agents(), 3, "this process looked already this interval");
    for name in ["a", "b"] {
        backdate(&store.agent_dir(&agent(name)).join("touched"), 10);
    }
    let other = FileStore::open(tmp.path(), hourly).unwrap();
    std::thread::sleep(Duration::from_millis(2));
    other.claim(&agent("c"), &slot()).unwrap();
    assert_eq!(agents(), 1, "a process that had not looked collects");
}

/// Forget removes the claim markers, the record and a record moved aside;
/// another file, and a directory even of a marker's name, are not its own.
#[test]
fn forget_removes_only_the_stores_own_files() {
    let tmp = tempfile::tempdir().unwrap();
    let store = store(tmp.path());
    let a = agent("a");
    store.claim(&a, &slot()).unwrap();
    store.edit_budget(&a, &mut increment).unwrap();
    let dir = store.agent_dir(&a);
    fs::write(dir.join("budget.corrupt"), b"old").unwrap();
    fs::write(dir.join("notes"), b"not the store's").unwrap();
    fs::create_dir(dir.join("claim.planted")).unwrap();
    store.forget(&a).unwrap();
    let mut left: Vec<String> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["budget.lock", "claim.planted", "notes", "touched"]);
}

/// Forgetting an agent the store never saw creates nothing; one whose lock
/// file is not a regular file is refused, naming it, not taken as unseen.
#[cfg(unix)]
#[test]
fn forget_creates_nothing_and_refuses_a_planted_lock() {
    let tmp = tempfile::tempdir().unwrap();
    // No collection runs here: it would remove an agent made by mistake.
    let elsewhere = FileLimits {
        collection: Collection::Elsewhere,
        ..FileLimits::default()
    };
    let store = store_at(tmp.path(), elsewhere);
    let unseen = agent("unseen");
    store.forget(&unseen).unwrap();
    assert!(!store.agent_dir(&unseen).exists(), "nothing created");

    let a = agent("a");
    store.claim(&a, &slot()).unwrap();
    let lock = store.agent_dir(&a).join("budget.lock");
    let _keep = Plant::Fifo.put(&lock, tmp.path());
    let fault = store.forget(&a).unwrap_err();
    assert!(fault.what.contains("FIFO"), "{fault}");
    assert!(fault.what.contains(&lock.display().to_string()), "{fault}");
}

/// A collection leaves an agent whose lock file it cannot open (it cannot
/// tell whether the agent is in use) and counts it as skipped.
#[cfg(unix)]
#[test]
fn a_collection_skips_an_agent_whose_lock_cannot_be_opened() {
    let tmp = tempfile::tempdir().unwrap();
    let limits = FileLimits {
        max_age: Duration::from_secs(DAY),
        gc_interval: Duration::from_secs(3600),
        ..FileLimits::default()
    };
    let store = store_at(tmp.path(), limits);
    let a = agent("a");
    store.claim(&a, &slot()).unwrap();
    let dir = store.agent_dir(&a);
    let _keep = Plant::Fifo.put(&dir.join("budget.lock"), tmp.path());
    backdate(&dir.join("touched"), 2 * DAY);
    let collected = store.collect_garbage().unwrap().unwrap();
    assert_eq!((collected.by_age, collected.skipped), (0, 1));
    assert!(dir.exists());
}

/// Retries exist for Windows' momentary refusals; elsewhere an answer never
/// waits for them. A claim found again is answered at once, 20 times over
/// well within one round of retry pauses (31 ms) each.
#[test]
fn a_claim_found_again_is_answered_without_retry_pauses() {
    let tmp = tempfile::tempdir().unwrap();
    let store = store(tmp.path());
    let a = agent("a");
    store.claim(&a, &slot()).unwrap();
    let started = Instant::now();
    for _ in 0..20 {
        assert_eq!(store.claim(&a, &slot()).unwrap(), Claim::Again);
    }
    let took = started.elapsed();
    assert!(took < Duration::from_millis(600), "{took:?}");
}

/// A waiter whose agent directory was moved away and made again (by another
/// process's edit) holds a lock on a file no longer at its path: it starts
/// over on the new lock and waits for that lock's holder rather than
/// editing beside it.
#[cfg(unix)]
#[test]
fn a_waiter_whose_directory_was_replaced_waits_for_the_new_lock() {
    let hold = |path: &Path| fd_lock::RwLock::new(fs::File::create(path).unwrap());
    let tmp = tempfile::tempdir().unwrap();
    let store = std::sync::Arc::new(store(tmp.path()));
    let a = agent("a");
    store.edit_budget(&a, &mut increment).unwrap();
    let dir = store.agent_dir(&a);
    let mut old = hold(&dir.join("budget.lock"));
    let old_held = old.write().unwrap();
    let waiter = {
        let (store, a) = (store.clone(), a.clone());
        std::thread::spawn(move || store.edit_budget(&a, &mut increment))
    };
    std::thread::sleep(Duration::from_millis(50));
    fs::rename(&dir, tmp.path().join("moved")).unwrap();
    fs::create_dir(&dir).unwrap();
    let mut new = hold(&dir.join("budget.lock"));
    let new_held = new.write().unwrap();
    drop(old_held);
    std::thread::sleep(Duration::from_millis(100));
    assert!(
        !dir.join("budget.v2").exists(),
        "the waiter edited while another process held the new lock"
    );
    drop(new_held);
    waiter.join().unwrap().unwrap();
    assert_eq!(failures(store.as_ref(), &a), 1);
}

/// The default age bound is seven days: an agent last used six days ago is
/// kept by a collection under the default limits, one used eight days ago
/// is removed.
#[test]
fn the_default_limits_keep_an_agent_for_seven_days() {
    let tmp = tempfile::tempdir().unwrap();
    let store = store_at(tmp.path(), FileLimits::default());
    for (name, ago) in [("six days", 6 * DAY), ("eight days", 8 * DAY)] {
        store.claim(&agent(name), &slot()).unwrap();
        backdate(&store.agent_dir(&agent(name)).join("touched"), ago);
    }
    let collected = store.collect_garbage().unwrap().unwrap();
    assert_eq!((collected.by_age, collected.kept), (1, 1));
    assert!(store.agent_dir(&agent("six days")).exists());
}
