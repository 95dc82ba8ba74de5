//! One agent's life in the store: claims, forgetting, the budget record
//! (corrupt ones included), the lock's bounded wait, and the key file.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::fs;
use std::sync::Arc;
use std::time::{Duration, Instant};

use advisor_core::{
    AgentId, BudgetRecord, Claim, Edit, FamilyId, LedgerStore, RECORD_MAX_BYTES, RecordOwner, Seat,
    Slot,
};
use ledger_file::{FileLimits, FileStore};
use support::*;

#[test]
fn a_slot_is_first_once_and_first_again_after_forget() {
    let tmp = tempfile::tempdir().unwrap();
    let store = store(tmp.path());
    let (a, b) = (agent("a"), agent("b"));
    let family = FamilyId::new("acl-provisioning");
    let withheld = Slot::disclosure(family, Seat::Failure, "no-session");
    let steps: &[(&dyn Fn() -> Claim, Claim, &str)] = &[
        (
            &|| store.claim(&a, &slot()).unwrap(),
            Claim::First,
            "a fresh slot",
        ),
        (
            &|| store.claim(&a, &slot()).unwrap(),
            Claim::Again,
            "the same slot",
        ),
        (
            &|| store.claim(&a, &withheld).unwrap(),
            Claim::First,
            "a disclosure is its own slot",
        ),
        (
            &|| store.claim(&b, &slot()).unwrap(),
            Claim::First,
            "another agent",
        ),
        (
            &|| {
                store.forget(&a).unwrap();
                store.claim(&a, &slot()).unwrap()
            },
            Claim::First,
            "forgotten",
        ),
        (
            &|| store.claim(&a, &withheld).unwrap(),
            Claim::First,
            "every slot forgotten",
        ),
        (
            &|| store.claim(&b, &slot()).unwrap(),
            Claim::Again,
            "the other agent kept",
        ),
    ];
    for (step, expected, why) in steps {
        assert_eq!(step(), *expected, "{why}");
    }
    store.forget(&agent("never seen")).unwrap();
}

#[test]
fn forget_drops_the_budget_and_an_unchanged_edit_creates_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let store = store(tmp.path());
    let a = agent("a");
    store.edit_budget(&a, &mut |_| Edit::Unchanged).unwrap();
    assert!(!store.agent_dir(&a).exists(), "nothing created");
    for _ in 0..3 {
        store.edit_budget(&a, &mut increment).unwrap();
    }
    assert_eq!(failures(&store, &a), 3);
    let other = FileStore::open(tmp.path(), FileLimits::default()).unwrap();
    assert_eq!(failures(&other, &a), 3, "another opener reads it");
    store.forget(&a).unwrap();
    assert_eq!(failures(&store, &a), 0);
    assert!(!store.agent_dir(&a).join("budget.v2").exists());
}

#[test]
fn a_corrupt_record_is_reported_once_and_moved_aside() {
    let tmp = tempfile::tempdir().unwrap();
    // The store first: it sets the digest key the owner below is digested under.
    let store = store(tmp.path());
    // A record of the agent named "trailing bytes", with a byte more.
    let valid = BudgetRecord::default().encode(RecordOwner::of(&agent("trailing bytes")));
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty", Vec::new()),
        ("text", b"not a budget record".to_vec()),
        ("unknown version", [&[9u8][..], &valid[1..]].concat()),
        ("trailing bytes", [&valid[..], &[0u8][..]].concat()),
        ("longer than any record", vec![1; RECORD_MAX_BYTES + 100]),
    ];
    for (name, bytes) in cases {
        let a = agent(name);
        store.edit_budget(&a, &mut increment).unwrap();
        let dir = store.agent_dir(&a);
        fs::write(dir.join("budget.v2"), &bytes).unwrap();
        let fault = store.edit_budget(&a, &mut increment).unwrap_err();
        assert_eq!(fault.store, "file", "{name}");
        assert!(
            fault
                .what
                .contains(&dir.join("budget.v2").display().to_string()),
            "{name}: {fault}"
        );
        assert!(fault.what.contains("budget.corrupt"), "{name}: {fault}");
        assert_eq!(
            fs::read(dir.join("budget.corrupt")).unwrap(),
            bytes,
            "{name}: kept aside"
        );
        store.edit_budget(&a, &mut increment).unwrap();
        assert_eq!(
            failures(&store, &a),
            1,
            "{name}: the next edit starts clean"
        );
    }
}

/// Issue 36 item 7: a record copied from another agent's directory is that
/// agent's history, not this one's: read as absent (no fault, no refusal),
/// moved aside by an edit that writes nothing, replaced by one that writes.
/// A version 1 record (`budget`, an older build's) is never read, and
/// `forget` removes it.
#[test]
fn a_record_copied_from_another_agent_is_read_as_absent() {
    let tmp = tempfile::tempdir().unwrap();
    let store = Arc::new(store(tmp.path()));
    let copy = |from: &AgentId, to: &AgentId| {
        let (from, to) = (store.agent_dir(from), store.agent_dir(to));
        fs::create_dir_all(&to).unwrap();
        fs::copy(from.join("budget.v2"), to.join("budget.v2")).unwrap();
    };
    advisor_core::testing::store::a_copied_record_refuses_nothing(|| store.clone(), copy);
    let (a, b) = (agent("a"), agent("b"));
    store.edit_budget(&a, &mut increment).unwrap();
    copy(&a, &b);
    let b_dir = store.agent_dir(&b);
    assert_eq!(failures(store.as_ref(), &b), 0, "read as absent");
    assert!(
        !b_dir.join("budget.v2").exists() && b_dir.join("budget.corrupt").exists(),
        "an edit that writes nothing moved the foreign record aside"
    );
    copy(&a, &b);
    store.edit_budget(&b, &mut increment).unwrap();
    assert_eq!(failures(store.as_ref(), &b), 1, "replaced by b's own");
    // An older build's record (version 1, `budget`) is not read.
    let mut v1 = vec![1u8];
    v1.extend_from_slice(&fs::read(store.agent_dir(&a).join("budget.v2")).unwrap()[17..]);
    fs::write(b_dir.join("budget"), &v1).unwrap();
    fs::remove_file(b_dir.join("budget.v2")).unwrap();
    assert_eq!(
        failures(store.as_ref(), &b),
        0,
        "a version 1 record is not read"
    );
    store.forget(&b).unwrap();
    assert!(!b_dir.join("budget").exists(), "forget removes it");
}

#[test]
fn a_held_budget_lock_is_waited_for_only_as_long_as_the_limit() {
    let tmp = tempfile::tempdir().unwrap();
    let limits = FileLimits {
        lock_wait: Duration::from_millis(150),
        ..FileLimits::default()
    };
    let store = store_at(tmp.path(), limits);
    let a = agent("a");
    store.edit_budget(&a, &mut increment).unwrap();
    let file = fs::OpenOptions::new()
        .write(true)
        .open(store.agent_dir(&a).join("budget.lock"))
        .unwrap();
    let mut lock = fd_lock::RwLock::new(file);
    let held = lock.write().unwrap();
    let started = Instant::now();
    let fault = store.edit_budget(&a, &mut increment).unwrap_err();
    let waited = started.elapsed();
    assert!(fault.what.contains("stayed locked"), "{fault}");
    assert!(
        waited >= Duration::from_millis(150) && waited < Duration::from_secs(2),
        "{waited:?}"
    );
    assert!(store.forget(&a).is_err(), "forget waits for the same lock");
    drop(held);
    store.edit_budget(&a, &mut increment).unwrap();
    assert_eq!(failures(&store, &a), 2);
}

#[test]
fn a_key_file_that_is_not_a_key_is_refused_naming_it() {
    let tmp = tempfile::tempdir().unwrap();
    let store = FileStore::open(tmp.path(), FileLimits::default()).unwrap();
    let bad: [&[u8]; 5] = [
        b"\xff\xfe not text",
        b"",
        b"xyz",
        b"0123456789abcdef0123456789abcdeg",
        b"0123456789abcdef0123456789abcdef00",
    ];
    for bad in bad {
        fs::write(store.root().join("key"), bad).unwrap();
        let fault = store.digest_key().unwrap_err();
        assert!(fault.what.contains("not 32 hex digits"), "{bad:?}: {fault}");
        assert!(
            fault
                .what
                .contains(&store.root().join("key").display().to_string())
        );
    }
    fs::write(store.root().join("key"), format!("{TEST_KEY}\n")).unwrap();
    assert_eq!(store.digest_key().unwrap().to_hex(), TEST_KEY);
}

/// Issue 36 item 9: the fleet's key a hook last saw is remembered beside the
/// directory's own, read back, written again only when it changes, and a
/// file there that is not a key is refused naming it, not repaired.
#[cfg(unix)]
#[test]
fn the_fleet_key_is_remembered_and_rewritten_only_when_it_changes() {
    let tmp = tempfile::tempdir().unwrap();
    let store = FileStore::open(tmp.path(), FileLimits::default()).unwrap();
    let path = store.root().join("fleet-key");
    assert_eq!(store.remembered_fleet_key().unwrap(), None);
    let (one, two) = (
        advisor_core::DigestKey::from_hex(TEST_KEY).unwrap(),
        advisor_core::DigestKey::from_hex("ffeeddccbbaa99887766554433221100").unwrap(),
    );
    store.remember_fleet_key(one).unwrap();
    assert_eq!(store.remembered_fleet_key().unwrap(), Some(one));
    let inode = |p: &std::path::Path| {
        use std::os::unix::fs::MetadataExt;
        fs::symlink_metadata(p).unwrap().ino()
    };
    let first = inode(&path);
    store.remember_fleet_key(one).unwrap();
    assert_eq!(inode(&path), first, "the same key is not written again");
    store.remember_fleet_key(two).unwrap();
    assert_eq!(store.remembered_fleet_key().unwrap(), Some(two));
    assert_ne!(inode(&path), first, "replaced whole");
    assert_eq!(store.digest_key().unwrap().to_hex().len(), 32);
    assert_ne!(
        store.digest_key().unwrap(),
        two,
        "the directory's own key is untouched"
    );
    fs::write(&path, "not a key").unwrap();
    for fault in [
        store.remembered_fleet_key().unwrap_err(),
        store.remember_fleet_key(one).unwrap_err(),
    ] {
        assert!(fault.what.contains(&path.display().to_string()), "{fault}");
        assert!(fault.what.contains("not 32 hex digits"), "{fault}");
    }
    assert_eq!(
        fs::read_to_string(&path).unwrap(),
        "not a key",
        "not repaired"
    );
}

#[test]
fn limits_that_cannot_work_are_refused_and_the_default_dir_is_per_user() {
    let tmp = tempfile::tempdir().unwrap();
    for limits in [
        FileLimits {
            max_agents: 0,
            ..FileLimits::default()
        },
        FileLimits {
            max_age: Duration::ZERO,
            ..FileLimits::default()
        },
    ] {
        assert!(FileStore::open(tmp.path(), limits).is_err(), "{limits:?}");
    }
    if std::env::var_os("HOME").is_some() {
        let dir = FileStore::default_dir().unwrap();
        assert!(dir.ends_with("sandbox-advisor"), "{}", dir.display());
        #[cfg(target_os = "linux")]
        assert!(
            std::env::var_os("XDG_STATE_HOME").is_some()
                || dir.ends_with(".local/state/sandbox-advisor"),
            "{}",
            dir.display()
        );
    }
}

/// On Unix a directory can be moved while a process waits on a lock inside
/// it (a collection, or an operator); the waiter must notice and start over
/// in a fresh directory, not write into the moved one. (On Windows the move
/// itself fails while the lock file is open.)
#[cfg(unix)]
#[test]
fn a_waiter_whose_directory_was_moved_away_starts_over() {
    let tmp = tempfile::tempdir().unwrap();
    let store = std::sync::Arc::new(store(tmp.path()));
    let a = agent("a");
    store.edit_budget(&a, &mut increment).unwrap();
    let dir = store.agent_dir(&a);
    let file = fs::OpenOptions::new()
        .write(true)
        .open(dir.join("budget.lock"))
        .unwrap();
    let mut lock = fd_lock::RwLock::new(file);
    let held = lock.write().unwrap();
    let waiter = {
        let (store, a) = (store.clone(), a.clone());
        std::thread::spawn(move || store.edit_budget(&a, &mut increment))
    };
    std::thread::sleep(Duration::from_millis(50));
    let moved = tmp.path().join("moved");
    fs::rename(&dir, &moved).unwrap();
    drop(held);
    waiter.join().unwrap().unwrap();
    assert_eq!(failures(store.as_ref(), &a), 1, "a fresh record");
    let old = BudgetRecord::decode(
        &fs::read(moved.join("budget.v2")).unwrap(),
        RecordOwner::of(&a),
    )
    .unwrap();
    assert_eq!(
        old,
        {
            let mut one = BudgetRecord::default();
            increment(&mut one);
            one
        },
        "the moved record is untouched"
    );
}
