//! The bounded map's rule, checked against a plain LRU list.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;

use proptest::prelude::*;

use super::BoundedMap;

/// True when `key` is held, without touching it.
fn holds(map: &BoundedMap<u32, u32>, key: u32) -> bool {
    map.shards
        .iter()
        .any(|s| s.read().iter().any(|slot| slot.key == key))
}

fn insert(map: &BoundedMap<u32, u32>, key: u32) {
    map.upsert(&key, || key, |_| ());
}

#[test]
fn every_access_refreshes_recency() {
    type Touch = fn(&BoundedMap<u32, u32>, u32);
    let touches: [(&str, Touch); 3] = [
        ("read", |m, k| assert!(m.read(&k, |_| ()).is_some())),
        ("update", |m, k| assert!(m.update(&k, |_| ()).is_some())),
        ("upsert", |m, k| {
            let mut created = false;
            m.upsert(
                &k,
                || {
                    created = true;
                    0
                },
                |_| (),
            );
            assert!(!created, "forgotten and created again");
        }),
    ];
    for (name, touch) in touches {
        let map = BoundedMap::new(4);
        insert(&map, 0);
        for other in 1..1_000 {
            touch(&map, 0);
            insert(&map, other);
            assert!(map.len() <= map.limit(), "{name}: {} held", map.len());
        }
        assert!(
            holds(&map, 0),
            "{name} did not refresh the entry it touched"
        );
    }
}

#[test]
fn an_untouched_entry_outlives_capacity_others_and_goes_past_the_limit() {
    let map = BoundedMap::new(8);
    assert_eq!(map.limit(), 9);
    insert(&map, 0);
    for other in 1..=8 {
        insert(&map, other);
    }
    assert!(holds(&map, 0), "forgotten after only `capacity` others");
    insert(&map, 9);
    assert!(
        !holds(&map, 0),
        "the limit is a bound: the outranked entry goes"
    );
    assert_eq!(map.len(), 8, "one pass forgets down to capacity");
    assert!((2..=9).all(|k| holds(&map, k)));
}

#[test]
fn any_capacity_is_accepted_without_overflow() {
    for capacity in [0, 1, 7, 64, 1 << 20, usize::MAX / 2, usize::MAX] {
        let map = BoundedMap::new(capacity);
        for key in 0..4 {
            insert(&map, key);
        }
        assert!(map.capacity() >= 1 && map.limit() >= map.capacity());
        // Capacity 0 is taken as 1 (limit 2): the third insertion forgets two.
        assert_eq!(
            map.len(),
            if map.limit() >= 4 { 4 } else { 2 },
            "{capacity}"
        );
    }
}

#[test]
fn remove_forgets_at_once() {
    let map = BoundedMap::new(4);
    insert(&map, 1);
    assert!(map.remove(&1));
    assert!(!map.remove(&1));
    assert!(map.is_empty());
    assert_eq!(map.read(&1, |v| *v), None);
    assert_eq!(map.update(&1, |v| *v), None, "update never creates");
    assert!(map.is_empty());
}

#[test]
fn a_large_map_stays_bounded_and_keeps_an_entry_touched_every_other_insertion() {
    let map = BoundedMap::new(20_000);
    insert(&map, u32::MAX);
    for key in 0..100_000 {
        if key % 2 == 0 {
            assert!(map.read(&u32::MAX, |_| ()).is_some(), "forgotten at {key}");
        }
        insert(&map, key);
        assert!(map.len() <= map.limit());
    }
    // The most recent `capacity` keys are all still held.
    let held: std::collections::HashSet<u32> = map
        .shards
        .iter()
        .flat_map(|s| s.read().iter().map(|slot| slot.key).collect::<Vec<_>>())
        .collect();
    assert!((80_000..100_000).all(|k| held.contains(&k)));
}

#[test]
fn concurrent_inserts_stay_within_the_limit() {
    const THREADS: u32 = 4;
    let map = Arc::new(BoundedMap::new(256));
    let handles: Vec<_> = (0..THREADS)
        .map(|t| {
            let map = map.clone();
            std::thread::spawn(move || {
                for i in 0..20_000 {
                    insert(&map, t * 1_000_000 + i);
                    assert!(map.len() <= map.limit() + THREADS as usize);
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    let held: usize = map.shards.iter().map(|s| s.read().len()).sum();
    assert_eq!(held, map.len(), "the count matches what the shards hold");
    assert!(held <= map.limit());
}

#[derive(Debug, Clone)]
enum Op {
    Upsert(u32),
    Read(u32),
    Update(u32),
    Remove(u32),
}

fn op() -> impl Strategy<Value = Op> {
    let key = 0u32..12;
    prop_oneof![
        4 => key.clone().prop_map(Op::Upsert),
        2 => key.clone().prop_map(Op::Read),
        2 => key.clone().prop_map(Op::Update),
        1 => key.prop_map(Op::Remove),
    ]
}

proptest! {
    /// With a small capacity every touch gets its own stamp, so the map is
    /// exactly an LRU list that, when an insertion passes the limit, keeps the
    /// `capacity` most recently touched entries.
    #[test]
    fn a_small_map_is_exactly_the_lru_model(capacity in 1usize..6, ops in prop::collection::vec(op(), 1..200)) {
        let map = BoundedMap::new(capacity);
        let mut lru: Vec<u32> = Vec::new(); // most recent last
        for op in ops {
            let touch = |lru: &mut Vec<u32>, k: u32| {
                let held = lru.iter().position(|x| *x == k).map(|i| lru.remove(i)).is_some();
                if held { lru.push(k); }
                held
            };
            match op {
                Op::Upsert(k) => {
                    insert(&map, k);
                    if !touch(&mut lru, k) {
                        lru.push(k);
                        if lru.len() > map.limit() {
                            lru.drain(..lru.len() - capacity);
                        }
                    }
                }
                Op::Read(k) => prop_assert_eq!(map.read(&k, |_| ()).is_some(), touch(&mut lru, k)),
                Op::Update(k) => prop_assert_eq!(map.update(&k, |_| ()).is_some(), touch(&mut lru, k)),
                Op::Remove(k) => {
                    let held = lru.iter().position(|x| *x == k).map(|i| lru.remove(i)).is_some();
                    prop_assert_eq!(map.remove(&k), held);
                }
            }
            let mut expected = lru.clone();
            expected.sort_unstable();
            let mut actual: Vec<u32> = (0..12).filter(|k| holds(&map, *k)).collect();
            actual.sort_unstable();
            prop_assert_eq!(actual, expected);
            prop_assert_eq!(map.len(), lru.len());
        }
    }
}
