//! Concurrency and memory, measured rather than timed in tests.
//!
//! - events/s with 1 and 2 threads posting a realistic mix for 10,000 agents;
//! - bytes per tracked agent in the ledger, and RSS after 1,000,000 distinct agents;
//! - bytes per session: host-adapter's `SessionPolicy` record (header `cwd`, mode)
//!   plus the pre-flight memo's verdict, for 1,000,000 sessions;
//! - the bounded maps: with the default capacities, 1,000,000 agents or sessions
//!   leave at most `capacity + capacity / 8` held.
//!
//! `cargo bench -p sandbox-advisor-host-adapter --bench load`
#![allow(clippy::expect_used, clippy::unwrap_used)]

use std::future::Future;
use std::pin::pin;
use std::sync::{Arc, Barrier};
use std::task::{Context as TaskContext, Poll, Waker};
use std::time::Instant;

use advisor_core::testing::{failure, foreground, host, success};
use advisor_core::{
    Advisor, AgentId, Config, Context, NoPolicyService, Observation, Platform, SandboxMode,
    SessionId,
};
use host_adapter::{PolicyDefaults, SessionPolicy, standard_registry};

fn ready<F: Future>(f: F) -> F::Output {
    let mut f = pin!(f);
    loop {
        if let Poll::Ready(out) = f.as_mut().poll(&mut TaskContext::from_waker(Waker::noop())) {
            return out;
        }
    }
}

fn rss_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    pages * 4096
}

fn mix() -> Vec<Observation> {
    let out = "test result: ok. 12 passed; 0 failed\n".repeat(30);
    let mut v: Vec<Observation> = (0..18)
        .map(|_| success(foreground(0, &out, "", None), &out))
        .collect();
    v.push(success(
        foreground(1, "", "error[E0308]: mismatched types\n", None),
        "[exit code: 1]",
    ));
    v.push(failure(
        r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)",
    ));
    v
}

fn events_per_second(threads: usize, agents: usize, per_thread: usize) -> f64 {
    let advisor = Arc::new(Advisor::new(
        standard_registry().build().unwrap(),
        Config::default(),
    ));
    let barrier = Arc::new(Barrier::new(threads + 1));
    let handles: Vec<_> = (0..threads)
        .map(|t| {
            let (advisor, barrier) = (advisor.clone(), barrier.clone());
            std::thread::spawn(move || {
                let (h, policy) = (host(Platform::Win32), NoPolicyService);
                let ctx = Context {
                    host: &h,
                    policy: &policy,
                };
                let mut events = mix();
                let ids: Vec<AgentId> = (0..agents)
                    .map(|a| AgentId::new(format!("agent-{a}")))
                    .collect();
                // Ten agents per session, as sub-agents share their parent's session.
                let sessions: Vec<SessionId> = (0..agents / 10)
                    .map(|s| SessionId::new(format!("s{s}")))
                    .collect();
                barrier.wait();
                for i in 0..per_thread {
                    let n = events.len();
                    let obs = &mut events[i % n];
                    let a = (i * 31 + t * 7) % agents;
                    obs.agent = ids[a].clone();
                    obs.session = Some(sessions[a / 10].clone());
                    std::hint::black_box(ready(advisor.post_execute(obs, None, &ctx)));
                }
            })
        })
        .collect();
    barrier.wait();
    let start = Instant::now();
    for h in handles {
        h.join().unwrap();
    }
    (threads * per_thread) as f64 / start.elapsed().as_secs_f64()
}

fn ledger_fill(capacity: usize, agents: usize) -> (usize, u64) {
    let config = Config::from_json(serde_json::json!({ "ledgerCapacity": capacity })).unwrap();
    let advisor = Advisor::new(standard_registry().build().unwrap(), config);
    let (h, policy) = (host(Platform::Win32), NoPolicyService);
    let ctx = Context {
        host: &h,
        policy: &policy,
    };
    let mut obs = failure(r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)");
    let before = rss_bytes();
    for a in 0..agents {
        obs.agent = AgentId::new(format!("agent-{a:07}"));
        std::hint::black_box(ready(advisor.post_execute(&obs, None, &ctx)));
    }
    let after = rss_bytes();
    (advisor.ledger().len(), after.saturating_sub(before))
}

/// `agents` agents with fail-fast on, each failing `calls` distinct calls: the
/// worst case per agent, every bounded fail-fast set full (256 watched calls,
/// 256 counted call ids).
fn fail_fast_fill(agents: usize, calls: usize) -> u64 {
    let config =
        Config::from_json(serde_json::json!({ "enforceAfter": 1, "maxDenials": 1 })).unwrap();
    let advisor = Advisor::new(standard_registry().build().unwrap(), config);
    let (h, policy) = (host(Platform::Win32), NoPolicyService);
    let ctx = Context {
        host: &h,
        policy: &policy,
    };
    let mut obs = failure(r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)");
    let before = rss_bytes();
    for a in 0..agents {
        obs.agent = AgentId::new(format!("agent-{a:07}"));
        for c in 0..calls {
            obs.call = format!("c{c}").as_str().into();
            obs.arguments = serde_json::json!({ "command": format!("npm test --shard {c}") });
            std::hint::black_box(ready(advisor.post_execute(&obs, None, &ctx)));
        }
    }
    rss_bytes().saturating_sub(before)
}

/// One agent posting a successful call in each of `sessions` sessions, each
/// described (header `cwd`, a mode event) to a `SessionPolicy`: the policy map
/// and the pre-flight memo each gain one entry per session.
fn session_fill(capacity: usize, sessions: usize) -> (usize, usize, u64) {
    let config = Config::from_json(serde_json::json!({ "sessionCapacity": capacity })).unwrap();
    let advisor = Advisor::new(standard_registry().build().unwrap(), config);
    let policy = SessionPolicy::with_capacity(
        PolicyDefaults {
            default_mode: Some(SandboxMode::ReadOnly),
            fallback_root: None,
            platform: Platform::Win32,
        },
        capacity,
    );
    let h = host(Platform::Win32);
    let ctx = Context {
        host: &h,
        policy: &policy,
    };
    let mut obs = success(foreground(0, "ok\n", "", None), "ok");
    let before = rss_bytes();
    for s in 0..sessions {
        let id = SessionId::new(format!("session-{s:07}"));
        policy.open_session(&id, &format!(r"D:\ws\project-{s:07}"));
        policy.set_mode(&id, SandboxMode::WorkspaceWrite);
        obs.session = Some(id);
        std::hint::black_box(ready(advisor.post_execute(&obs, None, &ctx)));
    }
    let after = rss_bytes();
    (
        advisor.remembered_sessions(),
        policy.remembered_sessions(),
        after.saturating_sub(before),
    )
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1 << 20) as f64
}

/// One memory measurement, run in a fresh process so that memory a previous
/// phase freed (and the allocator kept) cannot hide this phase's growth.
fn phase(name: &str) {
    match name {
        "agents" => {
            let (tracked, grown) = ledger_fill(2_000_000, 1_000_000);
            println!(
                "memory: 1,000,000 distinct agents, each advised once (ledgerCapacity 2,000,000)"
            );
            println!("  tracked agents : {tracked}");
            println!("  RSS growth     : {:.1} MiB", mib(grown));
            println!(
                "  bytes per agent: {:.0}",
                grown as f64 / tracked.max(1) as f64
            );
        }
        "fail-fast" => {
            let (agents, calls) = (2_000, 1_000);
            let grown = fail_fast_fill(agents, calls);
            println!(
                "memory: {agents} agents with fail-fast on, each failing {calls} distinct calls"
            );
            println!(
                "  bytes per agent: {:.0} (every bounded fail-fast set full)",
                grown as f64 / agents as f64
            );
        }
        "sessions" => {
            let (memo, described, grown) = session_fill(2_000_000, 1_000_000);
            println!(
                "memory: 1,000,000 sessions, each described and used once (sessionCapacity 2,000,000)"
            );
            println!("  remembered     : {memo} pre-flight verdicts, {described} policy records");
            println!("  RSS growth     : {:.1} MiB", mib(grown));
            println!(
                "  bytes/session  : {:.0}",
                grown as f64 / described.max(1) as f64
            );
        }
        "bounded" => {
            let (tracked, grown) = ledger_fill(advisor_core::DEFAULT_LEDGER_CAPACITY, 1_000_000);
            println!(
                "bounded: 1,000,000 agents with the default ledgerCapacity ({}) → {tracked} tracked, RSS growth {:.1} MiB",
                advisor_core::DEFAULT_LEDGER_CAPACITY,
                mib(grown)
            );
            let (memo, described, grown) =
                session_fill(advisor_core::DEFAULT_SESSION_CAPACITY, 1_000_000);
            println!(
                "bounded: 1,000,000 sessions with the default sessionCapacity ({}) → {memo} verdicts, {described} records, RSS growth {:.1} MiB",
                advisor_core::DEFAULT_SESSION_CAPACITY,
                mib(grown)
            );
        }
        other => eprintln!("unknown phase {other}"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--list") {
        return; // `cargo bench -- --list` probes every bench binary
    }
    if let Some(name) = args
        .iter()
        .position(|a| a == "--phase")
        .and_then(|i| args.get(i + 1))
    {
        phase(name);
        return;
    }
    let per_thread = 1_000_000;
    let one = events_per_second(1, 10_000, per_thread);
    let two = events_per_second(2, 10_000, per_thread);
    println!(
        "concurrency: 10,000 agents in 1,000 sessions, mixed events (18 ok / 1 failed exit / 1 ACL failure)"
    );
    println!("  1 thread : {:>12.0} events/s", one);
    println!(
        "  2 threads: {:>12.0} events/s  (scaling x{:.2})",
        two,
        two / one
    );
    let me = std::env::current_exe().expect("the bench binary's path");
    for name in ["agents", "fail-fast", "sessions", "bounded"] {
        let status = std::process::Command::new(&me)
            .args(["--phase", name])
            .status()
            .expect("the bench binary runs a phase");
        assert!(status.success(), "phase {name} failed");
    }
}
