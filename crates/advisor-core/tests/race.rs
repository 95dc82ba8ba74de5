//! Sixteen threads racing one agent produce exactly one advisory per family.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::sync::{Arc, Barrier};

use advisor_core::NoPolicyService;
use support::*;

#[test]
fn sixteen_threads_one_agent_exactly_one_advisory_per_family() {
    for round in 0..20 {
        let advisor = Arc::new(two_families());
        let barrier = Arc::new(Barrier::new(16));
        let handles: Vec<_> = (0..16)
            .map(|t| {
                let (advisor, barrier) = (advisor.clone(), barrier.clone());
                std::thread::spawn(move || {
                    let (host, policy) = (linux(), NoPolicyService);
                    let message = if t % 2 == 0 { "ALPHA" } else { "BETA" };
                    let call = fail("racer", &format!("c{t}"), message);
                    barrier.wait();
                    run(async {
                        advisor
                            .post_execute(&call, None, &ctx(&host, &policy))
                            .await
                    })
                })
            })
            .collect();
        let mut families: Vec<&str> = handles
            .into_iter()
            .flat_map(|h| h.join().unwrap().additional_contexts)
            .map(|a| a.family.as_str())
            .collect();
        families.sort_unstable();
        assert_eq!(families, ["alpha", "beta"], "round {round}");
    }
}
