//! The bounds: agents past the age or beyond the count are collected, the
//! oldest first, by one process at a time and at most once per interval.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::fs;
use std::time::{Duration, SystemTime};

use advisor_core::{Claim, LedgerStore};
use ledger_file::{Collected, Collection, FileLimits, FileStore};
use support::*;

const MIN: u64 = 60;
const DAY: u64 = 24 * 60 * MIN;

/// Dates `name`'s last use `ago` seconds back.
fn age(store: &FileStore, name: &str, ago: u64) {
    let stamp = store.agent_dir(&agent(name)).join("touched");
    let file = fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(stamp)
        .unwrap();
    file.set_modified(SystemTime::now() - Duration::from_secs(ago))
        .unwrap();
}

/// Which agents a claim still finds (Again = kept), by name.
fn kept(store: &FileStore, names: &[String]) -> Vec<String> {
    names
        .iter()
        .filter(|name| store.claim(&agent(name), &slot()).unwrap() == Claim::Again)
        .cloned()
        .collect()
}

struct Case {
    name: &'static str,
    /// Each agent's last use, seconds ago; agent `i` is named `a{i}`.
    ages: &'static [u64],
    max_agents: usize,
    max_age: u64,
    kept: &'static [usize],
    by_age: usize,
    by_count: usize,
}

const CASES: &[Case] = &[
    Case {
        name: "within both bounds",
        ages: &[1, MIN, DAY],
        max_agents: 3,
        max_age: 7 * DAY,
        kept: &[0, 1, 2],
        by_age: 0,
        by_count: 0,
    },
    Case {
        name: "by count, oldest first",
        ages: &[10, 60, 20, 50, 30, 40],
        max_agents: 4,
        max_age: 7 * DAY,
        kept: &[0, 2, 4, 5],
        by_age: 0,
        by_count: 2,
    },
    Case {
        name: "by age",
        ages: &[MIN, 8 * DAY, 2 * DAY, 30 * DAY],
        max_agents: 10_000,
        max_age: 7 * DAY,
        kept: &[0, 2],
        by_age: 2,
        by_count: 0,
    },
    Case {
        name: "by age, then by count",
        ages: &[3 * MIN, MIN, 9 * DAY, 2 * MIN, 8 * DAY],
        max_agents: 2,
        max_age: 7 * DAY,
        kept: &[1, 3],
        by_age: 2,
        by_count: 1,
    },
    Case {
        name: "a tiny age bound",
        ages: &[5, 500, 5000],
        max_agents: 10,
        max_age: 100,
        kept: &[0],
        by_age: 2,
        by_count: 0,
    },
];

#[test]
fn agents_past_the_age_or_beyond_the_count_are_collected_oldest_first() {
    for case in CASES {
        let tmp = tempfile::tempdir().unwrap();
        let limits = FileLimits {
            max_agents: case.max_agents,
            max_age: Duration::from_secs(case.max_age),
            gc_interval: Duration::from_secs(3600),
            ..FileLimits::default()
        };
        let store = store_at(tmp.path(), limits);
        let names: Vec<String> = (0..case.ages.len()).map(|i| format!("a{i}")).collect();
        for (name, ago) in names.iter().zip(case.ages) {
            store.claim(&agent(name), &slot()).unwrap();
            store.edit_budget(&agent(name), &mut increment).unwrap();
            age(&store, name, *ago);
        }
        let collected = store.collect_garbage().unwrap().unwrap();
        let expected = Collected {
            by_age: case.by_age,
            by_count: case.by_count,
            skipped: 0,
            kept: case.kept.len(),
        };
        assert_eq!(collected, expected, "{}", case.name);
        let want: Vec<String> = case.kept.iter().map(|i| names[*i].clone()).collect();
        assert_eq!(kept(&store, &names), want, "{}", case.name);
        for name in names.iter().filter(|n| !want.contains(n)) {
            assert_eq!(
                failures(&store, &agent(name)),
                0,
                "{}: {name}'s budget went too",
                case.name
            );
        }
        assert_eq!(
            fs::read_dir(store.root().join("trash")).unwrap().count(),
            0,
            "{}",
            case.name
        );
    }
}

#[test]
fn an_agent_whose_budget_is_being_edited_is_skipped() {
    let tmp = tempfile::tempdir().unwrap();
    let limits = FileLimits {
        max_agents: 1,
        ..FileLimits::default()
    };
    let store = store_at(tmp.path(), limits);
    for (name, ago) in [("busy", 90), ("idle", 60), ("new", 1)] {
        store.edit_budget(&agent(name), &mut increment).unwrap();
        age(&store, name, ago);
    }
    let lock = fs::OpenOptions::new()
        .write(true)
        .open(store.agent_dir(&agent("busy")).join("budget.lock"))
        .unwrap();
    let mut lock = fd_lock::RwLock::new(lock);
    let held = lock.write().unwrap();
    let collected = store.collect_garbage().unwrap().unwrap();
    assert_eq!(
        (collected.by_count, collected.skipped, collected.kept),
        (1, 1, 2)
    );
    drop(held);
    assert_eq!(failures(&store, &agent("busy")), 1);
    assert_eq!(failures(&store, &agent("idle")), 0);
}

#[test]
fn a_collection_runs_once_per_interval_and_in_one_process_at_a_time() {
    let tmp = tempfile::tempdir().unwrap();
    let hourly = FileLimits {
        max_agents: 1,
        gc_interval: Duration::from_secs(3600),
        ..FileLimits::default()
    };
    let store = store_at(tmp.path(), hourly);
    for name in ["a", "b", "c"] {
        store.claim(&agent(name), &slot()).unwrap();
    }
    // The first claim collected (nothing to do then); the next are within the interval.
    let another = FileStore::open(tmp.path(), hourly).unwrap();
    another.claim(&agent("d"), &slot()).unwrap();
    assert_eq!(
        fs::read_dir(store.root().join("agents")).unwrap().count(),
        4
    );

    let file = fs::OpenOptions::new()
        .write(true)
        .open(store.root().join("gc.lock"))
        .unwrap();
    let mut lock = fd_lock::RwLock::new(file);
    let held = lock.write().unwrap();
    assert_eq!(
        store.collect_garbage().unwrap(),
        None,
        "another process is collecting"
    );
    drop(held);

    // Once the interval has passed, an ordinary operation collects.
    let stamp = fs::OpenOptions::new()
        .write(true)
        .open(store.root().join("gc.stamp"))
        .unwrap();
    stamp
        .set_modified(SystemTime::now() - Duration::from_secs(7200))
        .unwrap();
    let later = FileStore::open(tmp.path(), hourly).unwrap();
    for name in ["a", "b", "c"] {
        age(&later, name, 10);
    }
    later.claim(&agent("d"), &slot()).unwrap();
    assert_eq!(
        fs::read_dir(store.root().join("agents")).unwrap().count(),
        1
    );
    assert_eq!(
        later.claim(&agent("d"), &slot()).unwrap(),
        Claim::Again,
        "the newest stays"
    );
}

/// With `Collection::Elsewhere` no operation collects, however due; the
/// owner asks `collection_due` and runs `collect_if_due` where nobody waits.
#[test]
fn a_store_that_collects_elsewhere_never_collects_in_an_operation() {
    let tmp = tempfile::tempdir().unwrap();
    let elsewhere = FileLimits {
        max_agents: 1,
        collection: Collection::Elsewhere,
        ..FileLimits::default()
    };
    let store = store_at(tmp.path(), elsewhere);
    assert!(store.collection_due(), "none ran yet");
    for name in ["a", "b", "c"] {
        store.claim(&agent(name), &slot()).unwrap();
        age(&store, name, 10);
    }
    store.claim(&agent("d"), &slot()).unwrap();
    let agents = || fs::read_dir(store.root().join("agents")).unwrap().count();
    assert_eq!(agents(), 4, "no operation collected");
    assert!(store.collection_due());
    let collected = store.collect_if_due().unwrap().unwrap();
    assert_eq!((collected.by_count, collected.kept), (3, 1));
    assert_eq!(agents(), 1);
    assert!(!store.collection_due(), "the stamp was renewed");
    assert_eq!(store.collect_if_due().unwrap(), None, "not due again");
}
