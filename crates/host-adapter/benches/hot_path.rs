//! The advisor sits on every tool call: these benches measure the path that
//! matches nothing (it must cost next to nothing), large inputs (throughput),
//! and the ACL match path, each also through a naive registry in which every
//! family scans on its own, so the prefilter's gain is a ratio from one run.
//!
//! `cargo bench -p sandbox-advisor-host-adapter --bench hot_path`
#![allow(clippy::expect_used)]

use std::future::Future;
use std::pin::pin;
use std::task::{Context as TaskContext, Poll, Waker};

use advisor_core::testing::{failure, foreground, host, success};
use advisor_core::{
    Advisor, Config, Context, Family, NoPolicyService, Observation, Platform, Registry,
};
use divan::{Bencher, black_box, counter::BytesCount};
use host_adapter::standard_registry;

fn main() {
    divan::main();
}

/// Polls a future that completes without waiting (every no-match path does).
fn ready<F: Future>(f: F) -> F::Output {
    let mut f = pin!(f);
    loop {
        if let Poll::Ready(out) = f.as_mut().poll(&mut TaskContext::from_waker(Waker::noop())) {
            return out;
        }
    }
}

fn registry(prefilter: bool) -> Registry {
    let r = standard_registry()
        .build()
        .expect("the standard registry builds");
    if prefilter { r } else { r.without_prefilter() }
}

fn filler(bytes: usize) -> String {
    let line = "   Compiling serde v1.0.219 (registry+https://example.invalid/index)  warning: unused import\n";
    line.repeat(bytes / line.len() + 1)[..bytes].to_owned()
}

fn success_nomatch(bytes: usize) -> Observation {
    let out = filler(bytes);
    success(foreground(0, &out, "", None), &out)
}

fn failure_nomatch(bytes: usize) -> Observation {
    let message = filler(bytes);
    let content = format!("Error: {message}");
    advisor_core::testing::failure_with(&message, &content, &[])
}

/// 4 KiB of PowerShell error records: an uppercase `W` and a `k` on every
/// line, bytes the failure needles are found by, so a scan that looks for
/// rare bytes meets them often (its worst case).
fn failure_dense(bytes: usize) -> Observation {
    let line = "Get-ChildItem : Cannot find path 'C:\\Users\\WDAGUtilityAccount\\Work' because it does not exist.\n\
                + CategoryInfo          : ObjectNotFound: (C:\\Users\\W...:String) [Get-ChildItem], ItemNotFoundException\n";
    failure(&line.repeat(bytes / line.len() + 1)[..bytes])
}

/// A short unrelated failure, as most failed calls are.
fn failure_short() -> Observation {
    failure(r"ENOENT: no such file or directory, open 'D:\ws\package.json'")
}

fn failed_stderr(bytes: usize) -> Observation {
    success(foreground(1, "", &filler(bytes), None), "(see stderr)")
}

const ACL_LINE: &str = r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)";

mod nomatch {
    use super::*;

    #[divan::bench(args = [true, false])]
    fn success_4k(bencher: Bencher, prefilter: bool) {
        let (r, obs) = (registry(prefilter), success_nomatch(4096));
        bencher.bench(|| {
            black_box(&r)
                .owner(black_box(&obs), advisor_core::Host::Dsh)
                .is_none()
        });
    }

    #[divan::bench(args = [true, false])]
    fn failure_4k(bencher: Bencher, prefilter: bool) {
        let (r, obs) = (registry(prefilter), failure_nomatch(4096));
        bencher.bench(|| {
            black_box(&r)
                .owner(black_box(&obs), advisor_core::Host::Dsh)
                .is_none()
        });
    }

    #[divan::bench(args = [true, false])]
    fn failure_4k_dense(bencher: Bencher, prefilter: bool) {
        let (r, obs) = (registry(prefilter), failure_dense(4096));
        bencher.bench(|| {
            black_box(&r)
                .owner(black_box(&obs), advisor_core::Host::Dsh)
                .is_none()
        });
    }

    #[divan::bench(args = [true, false])]
    fn failure_short(bencher: Bencher, prefilter: bool) {
        let (r, obs) = (registry(prefilter), super::failure_short());
        bencher.bench(|| {
            black_box(&r)
                .owner(black_box(&obs), advisor_core::Host::Dsh)
                .is_none()
        });
    }

    /// A failed exit with 4 KiB of stderr: the stderr needles are scanned.
    #[divan::bench(args = [true, false])]
    fn failed_stderr_4k(bencher: Bencher, prefilter: bool) {
        let (r, obs) = (registry(prefilter), failed_stderr(4096));
        bencher.bench(|| {
            black_box(&r)
                .owner(black_box(&obs), advisor_core::Host::Dsh)
                .is_none()
        });
    }

    #[divan::bench]
    fn success_4k_through_post_execute(bencher: Bencher) {
        let advisor = Advisor::new(registry(true), Config::default());
        let (h, policy, obs) = (
            host(Platform::Win32),
            NoPolicyService,
            success_nomatch(4096),
        );
        let ctx = Context {
            host: &h,
            policy: &policy,
        };
        bencher.bench(|| ready(advisor.post_execute(black_box(&obs), None, &ctx)));
    }
}

mod throughput {
    use super::*;

    const MIB: usize = 1 << 20;

    #[divan::bench(args = [true, false])]
    fn failure_message_1mib(bencher: Bencher, prefilter: bool) {
        let (r, obs) = (registry(prefilter), failure_nomatch(MIB));
        bencher.counter(BytesCount::new(MIB)).bench(|| {
            black_box(&r)
                .owner(black_box(&obs), advisor_core::Host::Dsh)
                .is_none()
        });
    }

    #[divan::bench(args = [true, false])]
    fn stderr_1mib(bencher: Bencher, prefilter: bool) {
        let (r, obs) = (registry(prefilter), failed_stderr(MIB));
        bencher.counter(BytesCount::new(MIB)).bench(|| {
            black_box(&r)
                .owner(black_box(&obs), advisor_core::Host::Dsh)
                .is_none()
        });
    }
}

mod acl {
    use super::*;

    #[divan::bench]
    fn recognize_line_alone(bencher: Bencher) {
        let obs = failure(ACL_LINE);
        bencher.bench(|| {
            family_acl::AclProvisioning
                .recognize(black_box(&obs))
                .is_some()
        });
    }

    #[divan::bench(args = [true, false])]
    fn owner_through_registry(bencher: Bencher, prefilter: bool) {
        let (r, obs) = (registry(prefilter), failure(ACL_LINE));
        bencher.bench(|| {
            black_box(&r)
                .owner(black_box(&obs), advisor_core::Host::Dsh)
                .is_some()
        });
    }

    /// Recognition, gate, advisory rendering, ledger claim and release.
    #[divan::bench]
    fn match_path_with_rendering(bencher: Bencher) {
        let advisor = Advisor::new(registry(true), Config::default());
        let (h, policy, obs) = (host(Platform::Win32), NoPolicyService, failure(ACL_LINE));
        let ctx = Context {
            host: &h,
            policy: &policy,
        };
        bencher.bench(|| {
            let d = ready(advisor.post_execute(black_box(&obs), None, &ctx));
            advisor.agent_end(&obs.agent);
            d.additional_contexts.len()
        });
    }
}

/// The fail-fast check with an agent that already had N distinct calls fail
/// provisioning (`enforceAfter` 1): watched calls are a bounded set of digests,
/// so the cost must not grow with N (it grew linearly with the old list).
mod watched {
    use super::*;
    use advisor_core::{AgentId, PendingCall, SessionId};
    use serde_json::json;

    fn args(i: usize) -> serde_json::Value {
        json!({"command": format!("npm test --shard {i}"), "cwd": r"D:\ws"})
    }

    fn agent_with_failed_calls(n: usize) -> Advisor {
        let config = Config::from_json(json!({"enforceAfter": 1, "maxDenials": u32::MAX}))
            .expect("a valid configuration");
        let advisor = Advisor::new(registry(true), config);
        let (h, policy) = (host(Platform::Win32), NoPolicyService);
        let ctx = Context {
            host: &h,
            policy: &policy,
        };
        let mut obs = failure(ACL_LINE);
        for i in 0..n {
            obs.call = format!("c{i}").as_str().into();
            obs.arguments = args(i);
            ready(advisor.post_execute(&obs, None, &ctx));
        }
        advisor
    }

    fn pending(arguments: serde_json::Value) -> PendingCall {
        PendingCall {
            agent: AgentId::new("a1"),
            session: Some(SessionId::new("s1")),
            call: "p".into(),
            tool: "bash".into(),
            arguments,
        }
    }

    /// `pre_execute` of a call that never failed: allowed.
    #[divan::bench(args = [1, 1_000, 100_000])]
    fn check_unwatched_call(bencher: Bencher, n: usize) {
        let advisor = agent_with_failed_calls(n);
        let call = pending(json!({"command": "cargo build", "cwd": r"D:\ws"}));
        bencher.bench(|| advisor.pre_execute(black_box(&call)).refusal.is_none());
    }

    /// `pre_execute` of the most recently failed call: refused.
    #[divan::bench(args = [1, 1_000, 100_000])]
    fn check_watched_call(bencher: Bencher, n: usize) {
        let advisor = agent_with_failed_calls(n);
        let call = pending(args(n - 1));
        bencher.bench(|| advisor.pre_execute(black_box(&call)).refusal.is_some());
    }

    /// `post_execute` of one more distinct failing call: counted and watched.
    #[divan::bench(args = [1, 1_000, 100_000])]
    fn record_another_failed_call(bencher: Bencher, n: usize) {
        let advisor = agent_with_failed_calls(n);
        let (h, policy) = (host(Platform::Win32), NoPolicyService);
        let ctx = Context {
            host: &h,
            policy: &policy,
        };
        let mut i = n;
        bencher
            .with_inputs(|| {
                i += 1;
                let mut obs = failure(ACL_LINE);
                obs.call = format!("c{i}").as_str().into();
                obs.arguments = args(i);
                obs
            })
            .bench_local_refs(|obs| ready(advisor.post_execute(obs, None, &ctx)));
    }
}
