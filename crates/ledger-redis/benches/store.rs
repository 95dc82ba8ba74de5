//! The Redis store against a real `redis-server` on loopback: the latency of
//! a claim (first, again), of a budget edit (unchanged, changed), of a whole
//! advisory through an `Advisor`, and claims per second from one store.
//! Skips (exit 0) when `redis-server` is not on `PATH`.
//!
//! `cargo bench -p sandbox-advisor-ledger-redis --bench store`
#![allow(clippy::expect_used, clippy::unwrap_used, missing_docs)]

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, LazyLock, OnceLock};
use std::time::{Duration, Instant};

use advisor_core::testing::store as store_doubles;
use advisor_core::testing::{failure, host};
use advisor_core::{
    AgentId, Claim, Context, Edit, FamilyId, LedgerStore, NoPolicyService, Platform, Seat, Slot,
};
use divan::Bencher;
use ledger_redis::testing::RedisServer;
use ledger_redis::{RedisOptions, RedisStore};

static URL: OnceLock<String> = OnceLock::new();
static STORE: LazyLock<Arc<RedisStore>> = LazyLock::new(store);
static NEXT: AtomicU64 = AtomicU64::new(0);

fn store() -> Arc<RedisStore> {
    let url = URL.get().expect("main sets the URL");
    Arc::new(RedisStore::connect(url, RedisOptions::default()).expect("a valid URL"))
}

fn fresh_agent() -> AgentId {
    AgentId::new(format!("bench-{}", NEXT.fetch_add(1, Relaxed)))
}

fn slot() -> Slot {
    Slot::advisory(FamilyId::new("acl"), Seat::Failure)
}

fn main() {
    // The one policy: skip unless SANDBOX_ADVISOR_REQUIRE_REDIS is set.
    let Some(server) = RedisServer::start() else {
        return;
    };
    URL.set(server.url()).expect("set once");
    divan::main();
    throughput();
    drop(server);
}

#[divan::bench]
fn claim_first(bencher: Bencher) {
    let store = &*STORE;
    bencher
        .with_inputs(fresh_agent)
        .bench_refs(|agent| assert_eq!(store.claim(agent, &slot()).unwrap(), Claim::First));
}

#[divan::bench]
fn claim_again(bencher: Bencher) {
    let (store, agent) = (&*STORE, fresh_agent());
    store.claim(&agent, &slot()).unwrap();
    bencher.bench(|| assert_eq!(store.claim(&agent, &slot()).unwrap(), Claim::Again));
}

#[divan::bench]
fn budget_edit_unchanged(bencher: Bencher) {
    let (store, agent) = (&*STORE, fresh_agent());
    store.edit_budget(&agent, &mut |_| Edit::Changed).unwrap();
    bencher.bench(|| store.edit_budget(&agent, &mut |_| Edit::Unchanged).unwrap());
}

#[divan::bench]
fn budget_edit_changed(bencher: Bencher) {
    let (store, agent) = (&*STORE, fresh_agent());
    bencher.bench(|| store.edit_budget(&agent, &mut |_| Edit::Changed).unwrap());
}

#[divan::bench]
fn forget(bencher: Bencher) {
    let store = &*STORE;
    bencher
        .with_inputs(|| {
            let agent = fresh_agent();
            store.claim(&agent, &slot()).unwrap();
            store.edit_budget(&agent, &mut |_| Edit::Changed).unwrap();
            agent
        })
        .bench_refs(|agent| store.forget(agent).unwrap());
}

/// One recognized failure of a new agent through an `Advisor` over the
/// store: recognition, the claim, the advisory.
#[divan::bench]
fn advisory_through_an_advisor(bencher: Bencher) {
    let advisor = store_doubles::process(STORE.clone(), serde_json::json!({}));
    let (host, policy) = (host(Platform::Linux), NoPolicyService);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    bencher
        .with_inputs(|| {
            let mut o = failure("ALPHA");
            o.agent = fresh_agent();
            o
        })
        .bench_refs(|o| {
            let ctx = Context {
                host: &host,
                policy: &policy,
            };
            let decision = runtime.block_on(advisor.post_execute(o, None, &ctx));
            assert_eq!(decision.additional_contexts.len(), 1);
        });
}

/// Claims per second for one second: from one store on one thread, from one
/// store shared by 8 threads (its one connection serializes them), and from
/// 8 stores (8 connections, as 8 processes would).
fn throughput() {
    const FOR: Duration = Duration::from_secs(1);
    let run = |threads: usize, shared: bool| {
        let one = store();
        let stores: Vec<_> = (0..threads)
            .map(|_| if shared { one.clone() } else { store() })
            .collect();
        let start = Instant::now();
        let claims: u64 = std::thread::scope(|scope| {
            let workers: Vec<_> = stores
                .iter()
                .map(|store| {
                    scope.spawn(move || {
                        let mut n = 0u64;
                        while start.elapsed() < FOR {
                            store.claim(&fresh_agent(), &slot()).unwrap();
                            n += 1;
                        }
                        n
                    })
                })
                .collect();
            workers.into_iter().map(|w| w.join().unwrap()).sum()
        });
        let trips: u64 = match shared {
            true => one.round_trips(),
            false => stores.iter().map(|s| s.round_trips()).sum(),
        };
        let per_second = claims as f64 / start.elapsed().as_secs_f64();
        println!(
            "throughput: {threads:>2} thread(s), {:<9} {per_second:>9.0} claims/s ({:.2} round trips a claim)",
            if shared { "1 store" } else { "own store" },
            trips as f64 / claims as f64
        );
    };
    run(1, true);
    run(8, true);
    run(8, false);
}
