//! Instruction counts of the paths that matter, under valgrind's callgrind
//! (gungraun): figures that repeat exactly whatever else the machine is
//! doing, so `cargo xtask instructions` can gate a regression of 3 % on a
//! noisy machine. The divan benches (`hot_path`, `hook`) stay the wall-clock
//! figures.
//!
//! Each bench's setup function builds everything the path reads (registry,
//! advisor, observation, engine, payload bytes) outside the measurement; only
//! the bench function itself is counted, and it hands its input back so that
//! dropping it is not counted either. A path that keeps no state is run
//! once in its setup too, so a lazily built table is counted where it is
//! built, not on the measured call: a long-lived host pays it once. The hook
//! path is measured cold on purpose: every hook invocation is a fresh process.
//!
//! Run it (needs valgrind and the runner of the same version as the
//! `gungraun` dev-dependency: `cargo install --locked gungraun-runner
//! --version 0.20.0`):
//!
//! ```text
//! cargo xtask instructions            # run, compare with the baseline, gate
//! cargo xtask instructions --update   # run, rewrite the baseline
//! cargo bench -p sandbox-advisor --bench instructions   # gungraun's own report
//! ```
//!
//! The gate builds it in the `release` profile (CI has built its
//! dependencies there already); `cargo bench` builds the `bench` profile,
//! the same code with line tables for `callgrind_annotate`, and counts the same.
//!
//! The baseline is `instructions.baseline.toml` beside this file.
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic, missing_docs)]

use std::future::Future;
use std::hint::black_box;
use std::pin::pin;
use std::task::{Context as TaskContext, Poll, Waker};

use advisor_core::testing::{failure, failure_with, foreground, host, success};
use advisor_core::{
    Advisor, Config, Context, Family, Host, NoPolicyService, Observation, Platform, Registry,
    SandboxMode,
};
use gungraun::{library_benchmark, library_benchmark_group, main};
use host_adapter::standard_registry;
use sandbox_advisor::config::FileConfig;
use sandbox_advisor::engine::Engine;
use sandbox_advisor::hook::{self, Dialect, Settings, payload};
use sandbox_advisor::protocol::{self, Event};

/// std seeds every `RandomState` from `getrandom`, and looks the function up
/// by name so that another can stand in for libc's; this binary's stands in.
/// serde_json's maps (an `IndexMap` under `RandomState`, feature
/// `preserve_order`) and std's `HashMap`s then probe alike in every run.
/// With per-process random keys, a lookup of an absent key sometimes meets
/// a false match and compares one more key: the success path's count moved
/// between 4,171 and 4,203, the `serve` line's by up to 73, and the gate
/// needs exact repeats. Hashing costs the same under any key; only those
/// chance collisions are fixed.
///
/// # Safety
///
/// `buf` must be valid for writes of `len` bytes, as for libc's `getrandom`.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn getrandom(buf: *mut u8, len: usize, _flags: u32) -> isize {
    if len == 0 {
        return 0;
    }
    // SAFETY: the caller hands a buffer of `len` writable bytes (libc's contract).
    let bytes = unsafe { std::slice::from_raw_parts_mut(buf, len) };
    for (i, b) in bytes.iter_mut().enumerate() {
        *b = (i as u8).wrapping_mul(151).wrapping_add(7);
    }
    isize::try_from(len).unwrap_or(isize::MAX)
}

/// The ACL backend's message (`hot_path.rs`, the hook bench).
const ACL_LINE: &str = r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)";
const KIB_4: usize = 4096;
const MIB: usize = 1 << 20;

/// Polls a future that completes without waiting (every path here does).
fn ready<F: Future>(f: F) -> F::Output {
    let mut f = pin!(f);
    loop {
        if let Poll::Ready(out) = f.as_mut().poll(&mut TaskContext::from_waker(Waker::noop())) {
            return out;
        }
    }
}

fn registry() -> Registry {
    standard_registry()
        .build()
        .expect("the standard registry builds")
}

/// Build output that no family's anchor is in (`hot_path.rs`'s filler).
fn filler(bytes: usize) -> String {
    let line = "   Compiling serde v1.0.219 (registry+https://example.invalid/index)  warning: unused import\n";
    line.repeat(bytes / line.len() + 1)[..bytes].to_owned()
}

fn failure_nomatch(bytes: usize) -> Observation {
    let message = filler(bytes);
    failure_with(&message, &format!("Error: {message}"), &[])
}

/// An advisor on a Windows host with everything a call needs.
struct Posted {
    advisor: Advisor,
    host: advisor_core::HostFacts,
    policy: NoPolicyService,
    obs: Observation,
}

impl Posted {
    fn new(obs: Observation) -> Self {
        Self {
            advisor: Advisor::new(registry(), Config::default()),
            host: host(Platform::Win32),
            policy: NoPolicyService,
            obs,
        }
    }

    /// One `post_execute`, then the agent's end (the ledger's claims
    /// released, so the next call is a first one again); returns the number
    /// of advisories.
    fn post_and_end(&self) -> usize {
        let ctx = Context {
            host: &self.host,
            policy: &self.policy,
        };
        let d = ready(self.advisor.post_execute(black_box(&self.obs), None, &ctx));
        self.advisor.agent_end(&self.obs.agent);
        d.additional_contexts.len()
    }
}

fn owned_by(registry: &Registry, obs: &Observation) -> bool {
    registry.owner(black_box(obs), Host::Dsh).is_some()
}

// --- setups: built outside the measurement, warmed where stateless --------

fn setup_success_4k() -> Posted {
    let out = filler(KIB_4);
    let posted = Posted::new(success(foreground(0, &out, "", None), &out));
    assert_eq!(posted.post_and_end(), 0, "a success that matches nothing");
    posted
}

fn setup_failure(bytes: usize) -> (Registry, Observation) {
    let (r, obs) = (registry(), failure_nomatch(bytes));
    assert!(!owned_by(&r, &obs), "an unrelated failure");
    (r, obs)
}

fn setup_acl_line() -> Observation {
    let obs = failure(ACL_LINE);
    assert!(family_acl::AclProvisioning.recognize(&obs).is_some());
    obs
}

fn setup_acl_match() -> Posted {
    let posted = Posted::new(failure(ACL_LINE));
    assert_eq!(posted.post_and_end(), 1, "the ACL advisory");
    posted
}

/// The `post` line of the bundled example stream whose `result.value` is a
/// shell value (`examples/sessions/mixed.jsonl`, call `c3`: the CIM access
/// denial), as most `post` lines carry one.
fn setup_serve_line() -> &'static [u8] {
    let line = include_str!("../../../examples/sessions/mixed.jsonl")
        .lines()
        .find(|l| l.contains(r#""type":"post""#) && l.contains(r#""call":"c3""#))
        .expect("mixed.jsonl has call c3");
    assert!(matches!(
        protocol::parse_line(line.as_bytes()),
        Ok(Event::Post(..))
    ));
    line.as_bytes()
}

/// What `hook --dialect claude-code --platform win32 --mode workspace-write`
/// holds when the payload arrives: the engine built (here over the
/// in-process ledger, so no file is opened in the measurement) and the
/// payload's bytes. The payload is the hook bench's PostToolUse that matches
/// nothing, the common case.
struct HookInput {
    engine: Engine,
    runtime: tokio::runtime::Runtime,
    settings: Settings,
    bytes: Vec<u8>,
}

fn setup_hook() -> HookInput {
    let bytes = serde_json::json!({
        "session_id": "s1", "transcript_path": "C:\\Users\\dev\\.claude\\projects\\ws\\s.jsonl",
        "cwd": "D:\\ws", "permission_mode": "default", "hook_event_name": "PostToolUse",
        "tool_name": "pwsh", "tool_input": {"command": "Get-ChildItem"}, "tool_use_id": "toolu_01",
        "tool_response": "\n    Directory: D:\\ws\n\nMode   LastWriteTime   Length Name\n----   -------------   ------ ----\nd----  01/12/2026 20:00        src\n-a---  01/12/2026 20:00   1024 Cargo.toml\n",
    })
    .to_string()
    .into_bytes();
    HookInput {
        engine: hook::engine(&FileConfig::default(), standard_registry(), Vec::new())
            .expect("the hook's engine builds"),
        runtime: tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a runtime"),
        settings: Settings {
            platform: Some(Platform::Win32),
            mode: Some(SandboxMode::WorkspaceWrite),
            host: Dialect::ClaudeCode.default_host(),
        },
        bytes,
    }
}

// --- the measured paths ----------------------------------------------------

// A success with 4 KiB of stdout (exit 0) that matches nothing, through
// `Advisor::post_execute` on a Windows host (the pre-flight lookup included).
#[library_benchmark]
#[bench::success_4k(setup = setup_success_4k)]
fn success_4k_post_execute(posted: Posted) -> (usize, Posted) {
    (posted.post_and_end(), posted)
}

// A failure whose message is 4 KiB (and 1 MiB) of unrelated text, through
// `Registry::owner` (the shipped prefilter).
#[library_benchmark]
#[bench::failure_4k(args = (KIB_4), setup = setup_failure)]
#[bench::failure_1mib(args = (MIB), setup = setup_failure)]
fn failure_nomatch_owner(input: (Registry, Observation)) -> (bool, (Registry, Observation)) {
    (owned_by(black_box(&input.0), &input.1), input)
}

// The ACL family's recognizer alone on the backend's line.
#[library_benchmark]
#[bench::acl_line(setup = setup_acl_line)]
fn acl_recognize(obs: Observation) -> (bool, Observation) {
    let found = family_acl::AclProvisioning.recognize(black_box(&obs));
    (found.is_some(), obs)
}

// The ACL match path: recognition, gate, the advisory rendered, the
// ledger's claim and its release at the agent's end.
#[library_benchmark]
#[bench::acl_line(setup = setup_acl_match)]
fn acl_match_render(posted: Posted) -> (usize, Posted) {
    (posted.post_and_end(), posted)
}

// One `serve` input line parsed into its event.
#[library_benchmark]
#[bench::post_with_value(setup = setup_serve_line)]
fn serve_parse_line(line: &'static [u8]) -> Result<Event, String> {
    protocol::parse_line(black_box(line))
}

// One hook invocation after start-up: the payload's bytes parsed, the
// events run through the engine, the answer rendered; what `hook` does
// between reading stdin and writing stdout (`cli::commands::run_hook`).
#[library_benchmark]
#[bench::post_no_match(setup = setup_hook)]
fn hook_decide(mut input: HookInput) -> (Option<String>, hook::Answer, HookInput) {
    let dialect = Dialect::ClaudeCode;
    let payload = payload::parse(
        dialect.reference(),
        input.settings.host,
        black_box(&input.bytes),
    )
    .expect("a valid payload");
    let answer = hook::answer(&mut input.engine, &input.runtime, input.settings, payload)
        .expect("an answer");
    let stdout = answer.stdout.as_ref().map(|out| format!("{out}\n"));
    (stdout, answer, input)
}

library_benchmark_group!(
    name = paths;
    benchmarks =
        success_4k_post_execute,
        failure_nomatch_owner,
        acl_recognize,
        acl_match_render,
        serve_parse_line,
        hook_decide
);

main!(library_benchmark_groups = paths);
