//! A server that dies, freezes or holds garbage: every operation answers a
//! `StoreFault` within the timeout, and the same store answers again once the
//! server does.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::time::{Duration, Instant};

use advisor_core::{
    AgentId, BudgetRecord, Claim, DigestKey, Edit, FamilyId, LedgerStore, Seat, Slot,
};
use ledger_redis::{RedisOptions, RedisStore};
use support::*;

const TIMEOUT: Duration = Duration::from_millis(200);
/// Scheduling noise allowed on top of the timeout.
const SLACK: Duration = Duration::from_millis(150);
/// How long a frozen server stays frozen if the store under test never gives up.
#[cfg(unix)]
const WATCHDOG: Duration = Duration::from_secs(5);

fn slot() -> Slot {
    Slot::advisory(FamilyId::new("acl"), Seat::Failure)
}

/// Runs `op`, which must fail, and returns how long it took and the fault.
fn failing<T: std::fmt::Debug>(
    op: impl FnOnce() -> Result<T, advisor_core::StoreFault>,
) -> (Duration, String) {
    let start = Instant::now();
    let fault = op().unwrap_err();
    (start.elapsed(), fault.to_string())
}

#[test]
fn a_killed_server_is_a_prompt_fault_and_the_same_store_answers_after_a_restart() {
    let Some(mut server) = server() else { return };
    let options = RedisOptions {
        timeout: TIMEOUT,
        ..RedisOptions::default()
    };
    let store = store_with(&server, options);
    let a1 = AgentId::new("a1");
    assert_eq!(store.claim(&a1, &slot()).unwrap(), Claim::First);
    server.kill();
    let mut slowest = Duration::ZERO;
    for (what, (took, fault)) in [
        ("claim", failing(|| store.claim(&a1, &slot()))),
        ("claim", failing(|| store.claim(&a1, &slot()))),
        (
            "budget",
            failing(|| store.edit_budget(&a1, &mut |_| Edit::Changed)),
        ),
        ("forget", failing(|| store.forget(&a1))),
        ("digest key", failing(|| store.digest_key())),
    ] {
        assert!(took < TIMEOUT, "{what} took {took:?}: {fault}");
        assert!(
            fault.starts_with(&format!("redis ledger: {}: ", server.url())),
            "{fault}"
        );
        slowest = slowest.max(took);
    }
    eprintln!("killed server: the slowest fault took {slowest:?}");
    server.restart();
    assert_eq!(
        store.claim(&a1, &slot()).unwrap(),
        Claim::First,
        "a fresh, empty server"
    );
    assert_eq!(store.claim(&a1, &slot()).unwrap(), Claim::Again);
    store.edit_budget(&a1, &mut |_| Edit::Changed).unwrap();
    assert!(store.connects() >= 2);
}

#[cfg(unix)]
#[test]
fn a_frozen_server_is_a_fault_within_the_timeout() {
    let Some(server) = server() else { return };
    let options = RedisOptions {
        timeout: TIMEOUT,
        ..RedisOptions::default()
    };
    let store = store_with(&server, options);
    let a1 = AgentId::new("a1");
    store.claim(&a1, &slot()).unwrap();
    // A store that ignored its timeout would wait on the frozen server for
    // ever: a watchdog thaws it after WATCHDOG, so such a store fails the
    // assertions below instead of hanging the test.
    let (thawed, watchdog) = std::sync::mpsc::channel::<()>();
    let (open, fault, new, second) = std::thread::scope(|scope| {
        let server = &server;
        scope.spawn(move || {
            if watchdog.recv_timeout(WATCHDOG).is_err() {
                server.resume();
            }
        });
        server.pause();
        let (open, fault) = failing(|| store.edit_budget(&a1, &mut |_| Edit::Changed));
        // The dropped connection is replaced: connecting to a frozen server
        // succeeds (the kernel accepts), then its setup times out.
        let (new, second) = failing(|| store.claim(&a1, &slot()));
        server.resume();
        let _ = thawed.send(());
        (open, fault, new, second)
    });
    assert!(fault.contains("no answer within 200 ms"), "{fault}");
    eprintln!("frozen server: {open:?} on an open connection, {new:?} on a new one");
    for took in [open, new] {
        assert!(took >= TIMEOUT && took < TIMEOUT + SLACK, "{took:?}");
    }
    assert!(second.contains("redis ledger:"), "{second}");
    assert_eq!(store.claim(&a1, &slot()).unwrap(), Claim::Again);
}

#[test]
fn a_corrupt_budget_record_is_a_fault_naming_its_key_and_is_cleared() {
    let Some(server) = server() else { return };
    let store = store(&server);
    let budget = key("a1", "budget:v2");
    let mut c = server.connection().unwrap();
    redis::cmd("SET")
        .arg(&budget)
        .arg(b"\x07garbage")
        .exec(&mut c)
        .unwrap();
    let mut runs = 0;
    let fault = store
        .edit_budget(&AgentId::new("a1"), &mut |_| {
            runs += 1;
            Edit::Changed
        })
        .unwrap_err()
        .to_string();
    assert_eq!(runs, 0, "an unreadable record is never edited");
    assert!(
        fault.contains(&format!(
            "budget: {budget}: stored budget record: unknown version"
        )),
        "{fault}"
    );
    assert!(fault.contains("deleted"), "{fault}");
    let exists: i64 = redis::cmd("EXISTS").arg(&budget).query(&mut c).unwrap();
    assert_eq!(exists, 0);
    store
        .edit_budget(&AgentId::new("a1"), &mut |record| {
            assert_eq!(*record, BudgetRecord::default(), "starts clean");
            Edit::Changed
        })
        .unwrap();
    assert_eq!(store.connects(), 1, "the connection was fine all along");

    // A key of the wrong type is an error reply: a fault, then a fresh connection.
    let index = key("a2", "keys");
    redis::cmd("SET").arg(&index).arg(1).exec(&mut c).unwrap();
    let fault = store.claim(&AgentId::new("a2"), &slot()).unwrap_err();
    assert!(fault.to_string().contains("WRONGTYPE"), "{fault}");
    assert_eq!(
        store.claim(&AgentId::new("a3"), &slot()).unwrap(),
        Claim::First
    );
    assert_eq!(store.connects(), 2);
}

#[test]
fn a_store_bound_to_a_digest_key_checks_it_on_every_new_connection() {
    let Some(mut server) = server() else { return };
    let fleet = store(&server).digest_key().unwrap();
    let a1 = AgentId::new("a1");
    let bound = RedisStore::connect(&server.url(), RedisOptions::default())
        .unwrap()
        .checking_digest_key(fleet, true);
    let stranger = RedisStore::connect(&server.url(), RedisOptions::default())
        .unwrap()
        .checking_digest_key(DigestKey::random(), false);
    assert_eq!(bound.claim(&a1, &slot()).unwrap(), Claim::First);
    let fault = stranger.claim(&a1, &slot()).unwrap_err().to_string();
    assert!(fault.contains("holds another digest key"), "{fault}");

    server.restart(); // empty: nothing persisted
    assert!(
        bound.claim(&a1, &slot()).is_err(),
        "the old connection is gone"
    );
    let fault = stranger.claim(&a1, &slot()).unwrap_err().to_string();
    assert!(fault.contains("is empty"), "{fault}");
    assert!(all_keys(&server).is_empty(), "the stranger wrote nothing");
    assert_eq!(bound.claim(&a1, &slot()).unwrap(), Claim::First);
    assert_eq!(store(&server).digest_key().unwrap(), fleet, "put back");
    assert_eq!(bound.claim(&a1, &slot()).unwrap(), Claim::Again);
    let fault = stranger.claim(&a1, &slot()).unwrap_err().to_string();
    assert!(fault.contains("holds another digest key"), "{fault}");
}
