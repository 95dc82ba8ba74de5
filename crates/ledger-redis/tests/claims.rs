//! Claims, expiry, forgetting and the fleet's digest key, against a real
//! `redis-server`. Each store stands for one process of the fleet.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::sync::{Arc, Barrier};
use std::time::Duration;

use advisor_core::{AgentId, Claim, DigestKey, Edit, FamilyId, LedgerStore, Seat, Slot};
use support::*;

fn slot(family: &'static str) -> Slot {
    Slot::advisory(FamilyId::new(family), Seat::Failure)
}

#[test]
fn of_32_processes_racing_for_one_slot_exactly_one_is_first_every_time() {
    let Some(server) = server() else { return };
    const PROCESSES: usize = 32;
    const ROUNDS: usize = 25;
    let stores: Vec<_> = (0..PROCESSES).map(|_| store(&server)).collect();
    let barrier = Arc::new(Barrier::new(PROCESSES));
    let firsts: Vec<Vec<bool>> = std::thread::scope(|scope| {
        let racers: Vec<_> = stores
            .iter()
            .map(|store| {
                let barrier = barrier.clone();
                scope.spawn(move || {
                    (0..ROUNDS)
                        .map(|round| {
                            barrier.wait();
                            let agent = AgentId::new(format!("racer-{round}"));
                            store.claim(&agent, &slot("acl")).unwrap() == Claim::First
                        })
                        .collect()
                })
            })
            .collect();
        racers.into_iter().map(|r| r.join().unwrap()).collect()
    });
    for round in 0..ROUNDS {
        let n = firsts.iter().filter(|f| f[round]).count();
        assert_eq!(n, 1, "round {round}: {n} firsts");
    }
    for store in &stores {
        assert_eq!(store.round_trips(), ROUNDS as u64, "one round trip a claim");
        assert_eq!(store.connects(), 1);
    }
}

#[test]
fn a_claim_is_per_agent_per_slot_and_every_key_expires() {
    let Some(server) = server() else { return };
    let ttl = Duration::from_millis(300);
    let store = store_with(&server, support::ttl(ttl));
    let a1 = AgentId::new("a1");
    let withheld = Slot::disclosure(FamilyId::new("acl"), Seat::Failure, "no-session");
    assert_eq!(store.claim(&a1, &slot("acl")).unwrap(), Claim::First);
    assert_eq!(store.claim(&a1, &slot("acl")).unwrap(), Claim::Again);
    assert_eq!(store.claim(&a1, &withheld).unwrap(), Claim::First);
    assert_eq!(store.claim(&a1, &slot("pty")).unwrap(), Claim::First);
    assert_eq!(
        store.claim(&AgentId::new("a2"), &slot("acl")).unwrap(),
        Claim::First
    );
    store.edit_budget(&a1, &mut |_| Edit::Changed).unwrap();
    let keys = [
        key("a1", "claim:acl.failure"),
        key("a1", "claim:acl.failure.withheld.no-session"),
        key("a1", "keys"),
        key("a1", "budget:v2"),
    ];
    for key in &keys {
        let left = pttl(&server, key);
        assert!(left > 0 && left <= 300, "{key}: PTTL {left}");
    }
    std::thread::sleep(ttl + Duration::from_millis(100));
    let left = all_keys(&server);
    assert!(left.is_empty(), "every key expired: {left:?}");
    assert_eq!(
        store.claim(&a1, &slot("acl")).unwrap(),
        Claim::First,
        "expired"
    );
}

#[test]
fn forget_deletes_every_key_of_the_agent_and_nothing_else() {
    let Some(server) = server() else { return };
    let store = store(&server);
    store.digest_key().unwrap();
    for agent in ["a1", "a2"] {
        let agent = AgentId::new(agent);
        store.claim(&agent, &slot("acl")).unwrap();
        store.claim(&agent, &slot("pty")).unwrap();
        let withheld = Slot::disclosure(FamilyId::new("cim"), Seat::Preflight, "unconfined");
        store.claim(&agent, &withheld).unwrap();
        store.edit_budget(&agent, &mut |_| Edit::Changed).unwrap();
    }
    let before = all_keys(&server);
    assert_eq!(before.len(), 1 + 2 * 5, "{before:#?}");
    // A stray index entry naming another agent's key is not followed.
    redis::cmd("SADD")
        .arg(key("a1", "keys"))
        .arg(key("a2", "claim:acl.failure"))
        .exec(&mut server.connection().unwrap())
        .unwrap();
    let trips = store.round_trips();
    store.forget(&AgentId::new("a1")).unwrap();
    assert_eq!(store.round_trips() - trips, 1, "one round trip");
    let tag = |agent: &str| key(agent, "");
    let after = all_keys(&server);
    assert!(
        after.iter().all(|k| !k.starts_with(&tag("a1"))),
        "{after:#?}"
    );
    let kept: Vec<_> = before
        .into_iter()
        .filter(|k| !k.starts_with(&tag("a1")))
        .collect();
    assert_eq!(after, kept, "a2's keys and the digest key stay");
    assert_eq!(
        store.claim(&AgentId::new("a1"), &slot("acl")).unwrap(),
        Claim::First
    );
    store.forget(&AgentId::new("never-seen")).unwrap();
}

#[test]
fn every_process_of_the_fleet_gets_the_same_digest_key_and_it_never_expires() {
    let Some(server) = server() else { return };
    let reader = store(&server);
    assert_eq!(
        reader.digest_key_proposing(None).unwrap(),
        None,
        "reads only"
    );
    assert!(all_keys(&server).is_empty());
    let keys: Vec<_> = std::thread::scope(|scope| {
        let askers: Vec<_> = (0..8)
            .map(|_| scope.spawn(|| store(&server).digest_key().unwrap()))
            .collect();
        askers.into_iter().map(|a| a.join().unwrap()).collect()
    });
    assert!(keys.windows(2).all(|w| w[0] == w[1]));
    let stored: String = redis::cmd("GET")
        .arg("sandbox-advisor:v1:digest-key")
        .query(&mut server.connection().unwrap())
        .unwrap();
    assert_eq!(stored, keys[0].to_hex());
    assert_eq!(pttl(&server, "sandbox-advisor:v1:digest-key"), -1);
    let other = DigestKey::random();
    for proposal in [None, Some(other)] {
        let answer = reader.digest_key_proposing(proposal).unwrap();
        assert_eq!(answer, Some(keys[0]), "the stored key wins");
    }
    redis::cmd("FLUSHALL")
        .exec(&mut server.connection().unwrap())
        .unwrap();
    let put_back = reader.digest_key_proposing(Some(keys[0])).unwrap();
    assert_eq!(put_back, Some(keys[0]), "put back after a flush");
    redis::cmd("SET")
        .arg("sandbox-advisor:v1:digest-key")
        .arg("not a key")
        .exec(&mut server.connection().unwrap())
        .unwrap();
    let fault = store(&server).digest_key().unwrap_err().to_string();
    assert!(
        fault.contains("sandbox-advisor:v1:digest-key holds 9 bytes that are not 32 hex digits"),
        "{fault}"
    );
}
