//! Stress: 8 threads × 100,000 events over 1,000 agents. Exactly one advisory
//! per (agent, family), exactly one disclosure per (agent, family, reason), no
//! deadlock (the test finishing is the proof).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::collections::HashMap;
use std::sync::{Arc, Barrier};

use advisor_core::{Config, Registry, SessionId};
use support::*;

const THREADS: usize = 8;
const EVENTS_PER_THREAD: usize = 100_000;
const AGENTS: usize = 1_000;

#[test]
fn eight_threads_a_hundred_thousand_events_each() {
    let gated = Fake::new("gated", "GATED", Rule::Confining);
    let advisor = Arc::new(advisor(
        Registry::builder().family(ALPHA).family(BETA).family(gated),
        Config::default(),
    ));
    let barrier = Arc::new(Barrier::new(THREADS));
    let messages = ["ALPHA", "BETA", "GATED", "nothing to see", "ALPHA again"];
    let handles: Vec<_> = (0..THREADS)
        .map(|t| {
            let (advisor, barrier) = (advisor.clone(), barrier.clone());
            std::thread::spawn(move || {
                let host = linux();
                let policy = advisor_core::NoPolicyService; // GATED withholds: no-policy-service
                let mut tally: HashMap<(String, String, &'static str), usize> = HashMap::new();
                barrier.wait();
                run(async {
                    for i in 0..EVENTS_PER_THREAD {
                        let n = t * EVENTS_PER_THREAD + i;
                        let agent = format!("agent-{}", n % AGENTS);
                        let mut call = fail(
                            &agent,
                            &format!("c{n}"),
                            messages[(n / AGENTS) % messages.len()],
                        );
                        call.session = Some(SessionId::new("s"));
                        let d = advisor
                            .post_execute(&call, None, &ctx(&host, &policy))
                            .await;
                        for a in d.additional_contexts {
                            *tally
                                .entry((agent.clone(), a.family.to_string(), "spoken"))
                                .or_default() += 1;
                        }
                        for w in d.withheld {
                            *tally
                                .entry((agent.clone(), w.family.to_string(), "withheld"))
                                .or_default() += 1;
                        }
                    }
                });
                tally
            })
        })
        .collect();
    let mut total: HashMap<(String, String, &'static str), usize> = HashMap::new();
    for h in handles {
        for (k, v) in h.join().unwrap() {
            *total.entry(k).or_default() += v;
        }
    }
    assert!(
        total.values().all(|&v| v == 1),
        "a duplicate: {:?}",
        total.iter().find(|(_, v)| **v != 1)
    );
    for kind in [
        ("alpha", "spoken"),
        ("beta", "spoken"),
        ("gated", "withheld"),
    ] {
        let agents = total
            .keys()
            .filter(|(_, f, k)| f == kind.0 && *k == kind.1)
            .count();
        assert_eq!(agents, AGENTS, "every agent heard {} exactly once", kind.0);
    }
    assert_eq!(advisor.ledger().len(), AGENTS);
}
