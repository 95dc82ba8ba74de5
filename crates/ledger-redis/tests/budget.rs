//! The fail-fast budget across processes, optimistic locking, and the round
//! trips an advisory costs, against a real `redis-server`. Each advisor over
//! its own store stands for one process of the fleet.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::sync::{Arc, Barrier};

use advisor_core::testing::store::{fail, ok, post, pre};
use advisor_core::{AgentId, BudgetRecord, Edit, LedgerStore, RecordOwner};
use ledger_redis::{EDIT_ATTEMPTS, RedisStore};
use serde_json::json;
use support::*;

#[test]
fn the_budget_refuses_exactly_max_denials_fleet_wide_under_concurrent_calls() {
    let Some(server) = server() else { return };
    let config = json!({"enforceAfter": 1, "maxDenials": 2});
    let processes = [
        process(&store(&server), config.clone()),
        process(&store(&server), config),
    ];
    const CALLS: usize = 32;
    for round in 0..10 {
        let agent = format!("a{round}");
        assert_eq!(
            post(&processes[round % 2], fail(&agent, "c1", "PROVISIONING")),
            1
        );
        let barrier = Barrier::new(CALLS);
        let refused = std::thread::scope(|scope| {
            let calls: Vec<_> = (0..CALLS)
                .map(|i| {
                    let (advisor, agent, barrier) = (&processes[i % 2], &agent, &barrier);
                    scope.spawn(move || {
                        barrier.wait();
                        pre(advisor, agent, &format!("p{i}"))
                    })
                })
                .collect();
            calls
                .into_iter()
                .map(|c| c.join().unwrap())
                .filter(|&r| r)
                .count()
        });
        assert_eq!(refused, 2, "round {round}");
    }
}

#[test]
fn concurrent_failures_with_distinct_call_ids_are_each_counted_once() {
    let Some(server) = server() else { return };
    const THREADS: usize = 16;
    let config = json!({"enforceAfter": THREADS, "maxDenials": 1});
    let processes: Vec<_> = (0..4)
        .map(|_| process(&store(&server), config.clone()))
        .collect();
    for round in 0..5 {
        let agent = format!("a{round}");
        let barrier = Arc::new(Barrier::new(THREADS));
        let advisories: usize = std::thread::scope(|scope| {
            let posts: Vec<_> = (0..THREADS)
                .map(|i| {
                    let (advisor, agent, barrier) = (&processes[i % 4], &agent, barrier.clone());
                    scope.spawn(move || {
                        barrier.wait();
                        post(advisor, fail(agent, &format!("c{i}"), "PROVISIONING"))
                    })
                })
                .collect();
            posts.into_iter().map(|p| p.join().unwrap()).sum()
        });
        assert_eq!(advisories, 1, "round {round}: once fleet-wide");
        assert_eq!(failures_counted(&server, &agent), THREADS as u32);
        assert!(
            pre(&processes[round % 4], &agent, "p1"),
            "{THREADS} counted"
        );
        post(&processes[1], fail(&agent, "c0", "PROVISIONING"));
        assert_eq!(
            failures_counted(&server, &agent),
            THREADS as u32,
            "the same call id again"
        );
    }
}

#[test]
fn a_write_that_loses_every_race_gives_up_after_the_bound() {
    let Some(server) = server() else { return };
    let store = store(&server);
    let mut rival = server.connection().unwrap();
    let budget = key("a1", "budget:v2");
    let mut runs = 0u32;
    let fault = store
        .edit_budget(&AgentId::new("a1"), &mut |_| {
            runs += 1;
            // Another process writes between our read and our write (a
            // record this one did not read: another failure count).
            let mut other = BudgetRecord::default().encode(RecordOwner::of(&AgentId::new("a1")));
            other[17..21].copy_from_slice(&runs.to_le_bytes());
            redis::cmd("SET")
                .arg(&budget)
                .arg(other)
                .exec(&mut rival)
                .unwrap();
            Edit::Changed
        })
        .unwrap_err()
        .to_string();
    assert_eq!(runs, EDIT_ATTEMPTS);
    assert!(
        fault.contains(&format!(
            "{budget}: changed by others during each of 16 attempts"
        )),
        "{fault}"
    );
    assert_eq!(store.round_trips(), 2 * u64::from(EDIT_ATTEMPTS));
    let mut runs = 0;
    store
        .edit_budget(&AgentId::new("a1"), &mut |_| {
            runs += 1;
            Edit::Changed
        })
        .unwrap();
    assert_eq!((runs, store.connects()), (1, 1), "the link was kept");
}

/// Runs `op` and checks it cost `expected` round trips; returns its answer.
fn costs<T>(store: &RedisStore, expected: u64, what: &str, op: impl FnOnce() -> T) -> T {
    let before = store.round_trips();
    let answer = op();
    assert_eq!(store.round_trips() - before, expected, "{what}");
    answer
}

/// The figures the README's "Requests and round trips" tables state.
#[test]
fn round_trips_per_operation_and_per_advisory() {
    let Some(server) = server() else { return };
    let store = store(&server);
    let a1 = AgentId::new("a1");
    costs(&store, 1, "digest key", || store.digest_key()).unwrap();
    costs(&store, 1, "edit, unchanged", || {
        store.edit_budget(&a1, &mut |_| Edit::Unchanged)
    })
    .unwrap();
    costs(&store, 2, "edit, changed", || {
        store.edit_budget(&a1, &mut |_| Edit::Changed)
    })
    .unwrap();
    costs(&store, 1, "forget", || store.forget(&a1)).unwrap();

    let quiet = process(&store, json!({}));
    let one = process(&store, json!({}));
    let advised = |advisor, call, message| post(advisor, fail("q1", call, message));
    assert_eq!(
        costs(&store, 1, "an advisory", || advised(&quiet, "c1", "ALPHA")),
        1
    );
    assert_eq!(
        costs(&store, 0, "again, same process", || advised(
            &quiet, "c2", "ALPHA"
        )),
        0
    );
    assert_eq!(
        costs(&store, 1, "again, another process", || advised(
            &one, "c3", "ALPHA"
        )),
        0
    );
    assert_eq!(
        costs(&store, 0, "unrecognized", || advised(&quiet, "c4", "other")),
        0
    );
    costs(&store, 0, "a success, budget off", || {
        post(&quiet, ok("q1", "s1"))
    });

    let budgeted = process(&store, json!({"enforceAfter": 1, "maxDenials": 1}));
    let failed = || post(&budgeted, fail("b1", "c1", "PROVISIONING"));
    assert_eq!(costs(&store, 3, "a fail-fast advisory", failed), 1);
    assert!(costs(&store, 2, "a refusal", || pre(&budgeted, "b1", "p1")));
    assert!(!costs(&store, 1, "an admission", || pre(
        &budgeted, "b1", "p2"
    )));
    costs(&store, 2, "a success that re-arms", || {
        post(&budgeted, ok("b1", "s1"))
    });
    costs(&store, 1, "a success", || post(&budgeted, ok("b1", "s2")));
    costs(&store, 1, "agent_end", || {
        budgeted.agent_end(&AgentId::new("b1"))
    });
    assert_eq!(store.connects(), 1);
}

/// The checks every store passes (advisor-core's `testing::store`), on Redis.
#[test]
fn the_store_passes_the_shared_checks() {
    let Some(server) = server() else {
        return;
    };
    advisor_core::testing::store::advised_once_across_processes(|| store(&server));
    advisor_core::testing::store::budget_shared_across_processes(|| store(&server));
}

/// Issue 36 item 7: agent A's record copied onto agent B's key (anyone who
/// can write Redis can) made B's `make test` refused though B never failed.
/// The record is bound to A: on B's key it is read as absent, never as B's
/// history; an edit that writes nothing deletes it (one more round trip), one
/// that writes replaces it. An older build's record (`…:budget`, codec
/// version 1) is never read, and `forget` deletes it.
#[test]
fn a_record_copied_onto_another_agents_key_refuses_nothing() {
    let Some(server) = server() else { return };
    let store = store(&server);
    let mut c = server.connection().unwrap();
    let copy = |from: &AgentId, to: &AgentId| {
        let mut c = server.connection().unwrap();
        let bytes: Vec<u8> = redis::cmd("GET")
            .arg(key(from.as_str(), "budget:v2"))
            .query(&mut c)
            .unwrap();
        redis::cmd("SET")
            .arg(key(to.as_str(), "budget:v2"))
            .arg(bytes)
            .exec(&mut c)
            .unwrap();
    };
    advisor_core::testing::store::a_copied_record_refuses_nothing(|| store.clone(), copy);
    let (a1, b1) = (AgentId::new("a1"), AgentId::new("b1"));
    copy(&a1, &b1);
    let trips = store.round_trips();
    store
        .edit_budget(&b1, &mut |record| {
            assert_eq!(*record, BudgetRecord::default(), "read as absent");
            Edit::Unchanged
        })
        .unwrap();
    assert_eq!(store.round_trips() - trips, 2, "the read, and the delete");
    let exists: i64 = redis::cmd("EXISTS")
        .arg(key("b1", "budget:v2"))
        .query(&mut c)
        .unwrap();
    assert_eq!(exists, 0, "deleted");
    copy(&a1, &b1);
    store.edit_budget(&b1, &mut |_| Edit::Changed).unwrap();
    assert_eq!(failures_counted(&server, "b1"), 0, "replaced by b1's own");
    // An older build's record: the same bytes at the version 1 name.
    let v1: Vec<u8> = redis::cmd("GET")
        .arg(key("a1", "budget:v2"))
        .query(&mut c)
        .unwrap();
    redis::cmd("SET")
        .arg(key("b1", "budget"))
        .arg([&[1u8][..], &v1[17..]].concat())
        .exec(&mut c)
        .unwrap();
    store
        .edit_budget(&b1, &mut |record| {
            assert_eq!(
                *record,
                BudgetRecord::default(),
                "a version 1 record is not read"
            );
            Edit::Unchanged
        })
        .unwrap();
    store.forget(&b1).unwrap();
    let left: i64 = redis::cmd("EXISTS")
        .arg(key("b1", "budget"))
        .arg(key("b1", "budget:v2"))
        .query(&mut c)
        .unwrap();
    assert_eq!(left, 0, "forget deletes both");
}
