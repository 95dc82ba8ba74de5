//! A link, a FIFO, a socket, a device node or a directory where the store
//! expects one of its files: each is refused at once, naming the file and
//! what it is, and nothing the link points to is changed.
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use advisor_core::{LedgerStore, StoreFault};
use ledger_file::{FileLimits, FileStore};
use support::hostile::{Plant, is_root, snapshot};
use support::{agent, increment, slot, store};

/// The bound the issue sets for any refusal.
const BOUND: Duration = Duration::from_millis(100);

/// A file the store opens, and the operation that opens it.
struct Target {
    name: &'static str,
    /// Where it lives, given a store whose agent "a" has a directory.
    path: fn(&FileStore) -> PathBuf,
    op: fn(&FileStore) -> Result<(), StoreFault>,
}

fn agent_file(store: &FileStore, name: &str) -> PathBuf {
    store.agent_dir(&agent("a")).join(name)
}

const TARGETS: &[Target] = &[
    Target {
        name: "key",
        path: |s| s.root().join("key"),
        op: |s| s.digest_key().map(drop),
    },
    Target {
        name: "fleet-key",
        path: |s| s.root().join("fleet-key"),
        op: |s| s.remember_fleet_key(advisor_core::DigestKey::random()),
    },
    Target {
        name: "gc.lock",
        path: |s| s.root().join("gc.lock"),
        op: |s| s.collect_garbage().map(drop),
    },
    Target {
        name: "gc.stamp",
        path: |s| s.root().join("gc.stamp"),
        op: |s| s.collect_garbage().map(drop),
    },
    Target {
        name: "budget.v2",
        path: |s| agent_file(s, "budget.v2"),
        op: |s| s.edit_budget(&agent("a"), &mut increment),
    },
    Target {
        name: "budget.lock",
        path: |s| agent_file(s, "budget.lock"),
        op: |s| s.edit_budget(&agent("a"), &mut increment),
    },
    Target {
        name: "touched",
        path: |s| agent_file(s, "touched"),
        op: |s| s.forget(&agent("a")),
    },
    Target {
        name: "claim marker",
        path: |s| agent_file(s, "claim.acl-provisioning.failure"),
        op: |s| s.claim(&agent("a"), &slot()).map(drop),
    },
];

/// Plants `plant` at `target`'s file and runs its operation: it must fail
/// within [`BOUND`], naming the file and what it is, leaving the link's
/// target as it was. False when the plant cannot be made here.
fn check(target: &Target, plant: Plant) -> bool {
    let tmp = tempfile::tempdir().unwrap();
    let outside = tmp.path().join("outside");
    fs::create_dir(&outside).unwrap();
    let victim = outside.join("file");
    fs::write(&victim, "000102030405060708090a0b0c0d0e0f").unwrap();
    let state = tmp.path().join("state");
    let store = store(&state);
    // Agent "a" has a directory with every file in it.
    store.claim(&agent("a"), &slot()).unwrap();
    store.edit_budget(&agent("a"), &mut increment).unwrap();
    let path = (target.path)(&store);
    let what = format!("{} as a {plant:?}", target.name);
    let Some(_keep) = plant.put(&path, &victim) else {
        return false;
    };
    let before = snapshot(&outside);

    let (send, answer) = mpsc::channel();
    let started = Instant::now();
    let op = target.op;
    let running = std::thread::spawn(move || {
        let done = op(&store);
        let _ = send.send((done, started.elapsed()));
    });
    let Ok((done, took)) = answer.recv_timeout(Duration::from_secs(2)) else {
        // Release an open blocked on the FIFO before failing.
        let _ = fs::OpenOptions::new().read(true).write(true).open(&path);
        let _ = running.join();
        panic!("{what}: the operation blocked");
    };
    let fault = done.expect_err(&what).to_string();
    assert!(took < BOUND, "{what}: took {took:?}");
    assert!(
        fault.contains(&path.display().to_string()),
        "{what}: {fault}"
    );
    assert!(fault.contains(plant.word()), "{what}: {fault}");
    assert!(!fault.contains('\n'), "{what}: one line: {fault}");
    assert_eq!(snapshot(&outside), before, "{what}: outside changed");
    true
}

#[test]
fn every_file_the_store_opens_refuses_a_link_fifo_socket_device_or_directory() {
    let mut skipped = Vec::new();
    for target in TARGETS {
        for plant in Plant::ALL {
            if !check(target, plant) {
                skipped.push(format!("{} as a {plant:?}", target.name));
            }
        }
    }
    if !skipped.is_empty() {
        assert!(!is_root());
        eprintln!(
            "note: not root, so no device node could be made; not checked: {}",
            skipped.join(", ")
        );
    }
}

/// The store's own temporary files are created with `O_EXCL` under a fresh
/// name, 0600: a key written through the store is a regular file only its
/// owner can read, in directories the store created 0700.
#[test]
fn a_key_the_store_writes_is_a_regular_owner_only_file() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let state = tmp.path().join("state");
    let store = FileStore::open(&state, FileLimits::default()).unwrap();
    store.digest_key().unwrap();
    let meta = fs::symlink_metadata(store.root().join("key")).unwrap();
    assert!(meta.file_type().is_file());
    assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    for dir in [state, store.root().to_owned()] {
        let mode = fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode & 0o077, 0, "{}: {mode:o}", Path::display(&dir));
    }
}
