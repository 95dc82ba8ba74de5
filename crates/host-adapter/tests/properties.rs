//! Properties of recognition over untrusted input, for every family the
//! standard registry compiles in (issue #8, "unbreakable on any input"):
//!
//! - no recognizer panics on arbitrary failure text or on an arbitrary success
//!   value, and a finding's gate and advisory do not either (each family is
//!   called directly, not through `Registry::owner`, whose `catch_unwind`
//!   would turn a panic into a silent miss);
//! - the registry's prefilter never hides a recognizer's match;
//! - a miss on a large input allocates (almost) nothing: a counting global
//!   allocator measures each family's `recognize` on 1 MiB inputs;
//! - recognition agrees with and without the `Error: ` envelope wherever the
//!   family reads text that may carry it;
//! - no family fires on a success that merely quotes a producer's line.
//!
//! Every registered family declares its producer shape in its own crate
//! (`family!` key `sample:`, feature `testing`); a family registered without
//! one fails `every_family_has_a_producer_shape_that_it_recognizes`.
// These tests walk every shipped family and read their producer samples.
#![cfg(all(feature = "all-families", feature = "testing"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// The counting allocator below needs `unsafe impl GlobalAlloc`; it forwards
// every call to `System` unchanged. It is the only unsafe code in this file.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use advisor_core::Host;
use advisor_core::testing::{
    ProducerSample, SampleShape, failure_with, foreground, resolved, success, unresolved,
};
use advisor_core::{
    Advisory, Environment, Observation, Platform, Registry, SUMMARY_MAX_CHARS, SandboxMode,
    Unresolved,
};
use proptest::prelude::*;
use serde_json::{Value, json};

// ---- the counting allocator ----------------------------------------------------

/// Counts, per thread and only while [`allocated`] runs, the bytes requested
/// (`BYTES`) and the bytes still live (`NET`). Per-thread, so the test
/// harness's other threads do not pollute a measurement.
struct Counting;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static BYTES: Cell<usize> = const { Cell::new(0) };
    static NET: Cell<isize> = const { Cell::new(0) };
}

fn count(requested: usize, grown: isize) {
    // `try_with`: the allocator can be called while thread-locals are torn down.
    let _ = COUNTING.try_with(|on| {
        if on.get() {
            let _ = BYTES.try_with(|b| b.set(b.get().saturating_add(requested)));
            let _ = NET.try_with(|n| n.set(n.get().saturating_add(grown)));
        }
    });
}

fn signed(bytes: usize) -> isize {
    isize::try_from(bytes).unwrap_or(isize::MAX)
}

// SAFETY: every method forwards to `System` with the caller's arguments unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size(), signed(layout.size()));
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size(), signed(layout.size()));
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size, signed(new_size) - signed(layout.size()));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(0, -signed(layout.size()));
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// What one measured call cost.
#[derive(Debug, Clone, Copy)]
struct Cost {
    /// Every byte requested (a `realloc` counts its new size).
    requested: usize,
    /// Bytes allocated and not freed when the call returned (what its result keeps).
    kept: isize,
}

/// Runs `f` and returns what it returned and what it allocated on this thread.
fn allocated<T>(f: impl FnOnce() -> T) -> (T, Cost) {
    BYTES.with(|b| b.set(0));
    NET.with(|n| n.set(0));
    COUNTING.with(|c| c.set(true));
    let out = f();
    COUNTING.with(|c| c.set(false));
    let cost = Cost {
        requested: BYTES.with(Cell::get),
        kept: NET.with(Cell::get),
    };
    (out, cost)
}

/// The counter counts: otherwise every allocation property below would hold vacuously.
#[test]
fn the_counting_allocator_counts() {
    let (v, cost) = allocated(|| vec![7u8; 1000]);
    assert!(cost.requested >= 1000 && cost.kept >= 1000, "{cost:?}");
    let ((), cost) = allocated(|| drop(vec![7u8; 1000]));
    assert!(cost.requested >= 1000 && cost.kept == 0, "{cost:?}");
    drop(v);
}

// ---- the registry, and the one place recognition is called ------------------------

fn registry() -> Registry {
    host_adapter::standard_registry().build().unwrap()
}

const WS: &str = r"D:\ws";

/// Environments a finding's gate and advisory are run under.
fn environments() -> Vec<Environment> {
    let mut electron = resolved(Platform::Win32, SandboxMode::WorkspaceWrite, Some(WS));
    electron.host.binary = advisor_core::HostBinary::Electron;
    electron.host.temp_dir = Some(r"D:\ws\tmp".into());
    let mut href = resolved(Platform::Win32, SandboxMode::ReadOnly, Some(WS));
    href.href = Some("https://example.invalid/advice".into());
    vec![
        electron,
        href,
        resolved(Platform::Win32, SandboxMode::DangerFullAccess, None),
        resolved(Platform::Linux, SandboxMode::WorkspaceWrite, Some("/ws")),
        unresolved(Platform::Win32, Unresolved::NoSession),
    ]
}

/// What an advisory must be whatever the input: a bounded one-line summary and
/// a bounded text with no control character but `\n`.
fn assert_advisory_is_sane(family: &str, advisory: &Advisory) {
    let summary = advisory.summary.as_str();
    assert!(
        summary.chars().count() <= SUMMARY_MAX_CHARS,
        "{family}: {summary:?}"
    );
    assert!(
        !summary.chars().any(char::is_control),
        "{family}: {summary:?}"
    );
    assert!(
        advisory.text.len() < 64 * 1024,
        "{family}: {} bytes",
        advisory.text.len()
    );
    let bad = advisory.text.chars().find(|c| c.is_control() && *c != '\n');
    assert_eq!(bad, None, "{family}: control character in the text");
}

/// The ids of the families whose own recognizer matches `observation`, in
/// precedence order. Each recognizer is called directly, so a panic fails the
/// test; a finding's gate and advisory are exercised too.
fn recognized_by(registry: &Registry, observation: &Observation) -> Vec<&'static str> {
    let mut out = Vec::new();
    for family in registry.families() {
        if let Some(finding) = family.recognize(observation) {
            for env in environments() {
                let _ = finding.policy_need(&env.host);
                let _ = finding.gate(&env);
                assert_advisory_is_sane(family.id().as_str(), &finding.advise(&env));
            }
            out.push(family.id().as_str());
        }
    }
    // The prefilter may only skip families that would not have matched, on
    // every host: the owner there is the first of that host's families that
    // recognizes the observation.
    for host in advisor_core::Host::ALL {
        let owner = registry.owner(observation, host).map(|o| o.family.as_str());
        let first = out
            .iter()
            .copied()
            .find(|id| registry.families_on(host).any(|f| f.id().as_str() == *id));
        assert_eq!(owner, first, "the prefilter hid a match on {host}");
    }
    out
}

// ---- strategies -------------------------------------------------------------------

/// Pieces that sit around every producer's shape; each family's own anchors
/// and quoted lines are added from the registry ([`fragments`]).
const GENERIC_FRAGMENTS: &[&str] = &[
    "Error: ",
    "AggregateError: ",
    "): ",
    ")",
    " Runner failure: ",
    "D:\\ws\\",
    "C:\\",
    "\\\\srv\\share\\",
    "$env:TEMP\\",
    "%TMP%\\",
    "\n",
    "\r\n",
    "\u{1b}[31m",
    " ",
];

/// The generic pieces plus every registered family's needles and quoted lines.
fn fragments() -> Vec<String> {
    let registry = registry();
    let mut out: Vec<String> = GENERIC_FRAGMENTS.iter().map(|s| (*s).to_owned()).collect();
    for family in registry.families() {
        match family.anchors() {
            advisor_core::Anchors::FailureText { needles }
            | advisor_core::Anchors::OutputText { needles } => {
                out.extend(needles.iter().map(|n| (*n).to_owned()));
            }
            advisor_core::Anchors::ForegroundRun { stderr_needles, .. } => {
                out.extend(stderr_needles.iter().map(|n| (*n).to_owned()));
            }
            advisor_core::Anchors::ForegroundRunOrFailureText {
                stderr_needles,
                needles,
                ..
            } => {
                out.extend(stderr_needles.iter().map(|n| (*n).to_owned()));
                out.extend(needles.iter().map(|n| (*n).to_owned()));
            }
            advisor_core::Anchors::Always => {}
        }
        if let Some(sample) = family.producer_sample() {
            out.extend(sample.quoted.iter().map(|q| (*q).to_owned()));
        }
    }
    out
}

fn text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        3 => prop::sample::select(fragments()),
        1 => "[0-9]{1,10}",
        2 => any::<String>(),
    ];
    prop::collection::vec(piece, 0..10).prop_map(|parts| parts.concat())
}

/// Keys the shell projection and the families read, plus arbitrary ones.
fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(&[
            "kind", "exitCode", "stdout", "stderr", "text", "sandbox", "mode", "denied",
            "enforcement", "runnerFailed", "command", "cwd", "truncated",
        ][..])
        .prop_map(str::to_owned),
        1 => any::<String>(),
    ]
}

/// Arbitrary JSON, nested at most four deep.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        prop::sample::select(&[-1_073_741_502_i64, 3_221_225_794, 0, 1, 127][..])
            .prop_map(Value::from),
        prop::sample::select(
            &[
                "foreground",
                "workspace-write",
                "read-only",
                "danger-full-access"
            ][..]
        )
        .prop_map(Value::from),
        text().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..6)
                .prop_map(|entries| Value::Object(entries.into_iter().collect())),
        ]
    })
}

/// A shell foreground projection with arbitrary facts: the shape the success
/// families read, so arbitrary values actually reach their recognizers.
fn foreground_value() -> impl Strategy<Value = Value> {
    let code = prop_oneof![
        prop::sample::select(&[-1_073_741_502_i64, 3_221_225_794, 0, 1, 127][..])
            .prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        json_value(),
    ];
    let stamp = prop_oneof![
        Just(None),
        (
            prop_oneof![
                prop::sample::select(&["workspace-write", "read-only", "danger-full-access"][..])
                    .prop_map(Value::from),
                json_value(),
            ],
            any::<bool>(),
            any::<bool>(),
        )
            .prop_map(|(mode, denied, runner_failed)| Some(json!({
                "mode": mode, "denied": denied, "enforcement": "partial", "runnerFailed": runner_failed,
            }))),
        json_value().prop_map(Some),
    ];
    (code, text(), text(), stamp).prop_map(|(code, stdout, stderr, stamp)| {
        let mut v = foreground(0, &stdout, &stderr, stamp);
        v["exitCode"] = code;
        v
    })
}

fn arguments() -> impl Strategy<Value = Value> {
    prop_oneof![
        (text(), text()).prop_map(|(command, cwd)| json!({"command": command, "cwd": cwd})),
        prop::collection::vec(text(), 0..4).prop_map(|argv| json!({"command": argv})),
        json_value(),
    ]
}

fn with_arguments(mut observation: Observation, arguments: Value) -> Observation {
    observation.arguments = arguments;
    observation
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Arbitrary failure text (message, content, members): no family panics.
    #[test]
    fn no_recognizer_panics_on_arbitrary_failure_text(
        message in text(),
        content in text(),
        members in prop::collection::vec(text(), 0..3),
        args in arguments(),
    ) {
        let registry = registry();
        let members: Vec<&str> = members.iter().map(String::as_str).collect();
        let observation = with_arguments(failure_with(&message, &content, &members), args);
        recognized_by(&registry, &observation);
    }

    /// An arbitrary success value (any JSON, bounded depth): no family panics.
    #[test]
    fn no_recognizer_panics_on_an_arbitrary_success_value(
        value in json_value(),
        content in text(),
        args in arguments(),
    ) {
        let registry = registry();
        recognized_by(&registry, &with_arguments(success(value, &content), args));
    }

    /// An arbitrary shell projection: the success families' own shape, arbitrary facts.
    #[test]
    fn no_recognizer_panics_on_an_arbitrary_shell_projection(
        value in foreground_value(),
        content in text(),
        args in arguments(),
    ) {
        let registry = registry();
        recognized_by(&registry, &with_arguments(success(value, &content), args));
    }
}

/// The runner-unavailable wrapper a confined call's failure can carry in front of the runner's line.
const UNAVAILABLE: &str = "sandbox mode \"workspace-write\" is requested but no sandbox backend is usable on this host; refusing to run the command unconfined. Install bubblewrap or run a Landlock-enforcing kernel (Linux), ensure sandbox-exec is usable (macOS), or ensure the ACL restricted-token runner can start (Windows) — otherwise switch the consumer to danger-full-access. Runner failure: ";

/// A failure family's producer line with arbitrary operands and carriers, so the
/// post-match code (the finding, the gate, the advisory) sees hostile text.
fn shaped_failure() -> impl Strategy<Value = String> {
    let carrier = prop::sample::select(vec![
        String::new(),
        "Error: ".to_owned(),
        "Error: Error: ".to_owned(),
        "windows-acl-run: ".to_owned(),
        format!("{UNAVAILABLE}windows-acl-run: "),
    ]);
    let acl = (
        carrier.clone(),
        prop::sample::select(&["Set", "Get"][..]),
        prop_oneof!["[0-9]{1,10}", text()],
        prop::sample::select(&["grantWrite(", "revokeWrite(", ""][..]),
        text(),
    )
        .prop_map(|(carrier, api, code, label, path)| {
            let close = if label.is_empty() { "" } else { ")" };
            format!("{carrier}{api}NamedSecurityInfoW failed (Win32 {code}): {label}{path}{close}")
        });
    let temp = (carrier, text(), text()).prop_map(|(carrier, w, t)| {
        format!(
            "{carrier}Windows ACL temp root must be outside the workspace: workspace={w}; temp={t}"
        )
    });
    let aggregate = (
        prop::sample::select(&["", "Error: ", "AggregateError: "][..]),
        prop::sample::select(
            &[
                "sandbox-local windows-acl temp grant materialization failed and its cleanup also failed",
                "sandbox-local windows-acl workspace grant failed and its cleanup also failed",
            ][..],
        ),
        text(),
    )
        .prop_map(|(envelope, sentence, rest)| format!("{envelope}{sentence}\n{rest}"));
    prop_oneof![
        acl,
        temp,
        aggregate,
        Just("PTY shell exited during startup".to_owned())
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Producer lines carrying arbitrary operands, under an arbitrary tool name:
    /// no panic in recognition, gate or advisory, and every advisory stays sane.
    #[test]
    fn no_panic_on_producer_lines_with_arbitrary_operands(
        message in shaped_failure(),
        tool in text(),
        members in prop::collection::vec(text(), 0..3),
        in_content in any::<bool>(),
    ) {
        let registry = registry();
        let members: Vec<&str> = members.iter().map(String::as_str).collect();
        let mut observation = if in_content {
            failure_with("", &message, &members)
        } else {
            failure_with(&message, &format!("Error: {message}"), &members)
        };
        observation.tool = advisor_core::ToolName::new(tool);
        recognized_by(&registry, &observation);
    }
}

// ---- producer shapes, per family -------------------------------------------------------

/// Every registered family's producer sample, declared in its own crate.
fn producers(registry: &Registry) -> Vec<(&'static str, ProducerSample)> {
    registry
        .families()
        .map(|f| {
            let id = f.id().as_str();
            (
                id,
                f.producer_sample().unwrap_or_else(|| {
                    panic!("`{id}` declares no producer sample (family! key `sample:`)")
                }),
            )
        })
        .collect()
}

/// The families that read a success value at all, from their anchors.
fn reads_success(registry: &Registry) -> Vec<&'static str> {
    registry
        .families()
        .filter(|f| !matches!(f.anchors(), advisor_core::Anchors::FailureText { .. }))
        .map(|f| f.id().as_str())
        .collect()
}

/// The success families whose key lives in the value's stderr (quoting there *is* their shape).
fn reads_stderr(registry: &Registry) -> Vec<&'static str> {
    registry
        .families()
        .filter(|f| {
            matches!(f.anchors(), advisor_core::Anchors::ForegroundRun { stderr_needles, .. } if !stderr_needles.is_empty())
        })
        .map(|f| f.id().as_str())
        .collect()
}

#[test]
fn every_family_has_a_producer_shape_that_it_recognizes() {
    let registry = registry();
    for (id, p) in producers(&registry) {
        let observation = match p.shape {
            SampleShape::Message(message) => {
                let m = message(WS);
                failure_with(&m, &format!("Error: {m}"), &[])
            }
            SampleShape::Value(value) => value(r"D:\ws\a.txt"),
        };
        assert!(
            recognized_by(&registry, &observation).contains(&id),
            "`{id}` does not recognize its own producer shape"
        );
        // Its advisory carries the family's own diagnosis, not the unclassified default.
        let env = resolved(Platform::Win32, SandboxMode::WorkspaceWrite, Some(WS));
        let family = registry.families().find(|f| f.id().as_str() == id).unwrap();
        if let Some(finding) = family.recognize(&observation) {
            assert_ne!(
                finding.advise(&env).diagnosis,
                advisor_core::Diagnosis::UNCLASSIFIED,
                "`{id}` declares no diagnosis (family! key `diagnose:`)"
            );
        }
    }
}

/// The texts of every advisory the registry's families give for `observation`
/// under one fixed environment, for comparing two spellings of one failure.
fn advice(registry: &Registry, observation: &Observation) -> Vec<(&'static str, String)> {
    let env = resolved(Platform::Win32, SandboxMode::WorkspaceWrite, Some(WS));
    registry
        .families()
        .filter_map(|f| {
            f.recognize(observation)
                .map(|r| (f.id().as_str(), r.advise(&env).text))
        })
        .collect()
}

/// A single-line operand a producer would print: a path-like string.
fn operand() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(WS.to_owned()),
        r"[A-Z]:\\[A-Za-z0-9 ._()-]{1,30}",
        r"\\\\[a-z]{1,8}\\[a-z]{1,8}(\\[A-Za-z0-9 ._-]{1,12}){0,3}",
        "[^\r\n]{1,40}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// Wrapping the message (and the content) in `Error: ` — or finding only the
    /// enveloped content — changes nothing for the families that strip it.
    /// The envelope is the harness's rendering of a failure: the families of
    /// the other hosts read their clients' output, where `Error: ` is text.
    #[test]
    fn recognition_is_invariant_under_the_error_envelope(operand in operand()) {
        let registry = registry();
        let harness: Vec<&str> = registry.families_on(Host::Dsh).map(|f| f.id().as_str()).collect();
        for (id, p) in producers(&registry).into_iter().filter(|(id, _)| harness.contains(id)) {
            let bare = match p.shape {
                SampleShape::Message(message) => message(&operand),
                SampleShape::Value(value) => {
                    // A value reader never reads the rendered content, wrapped or not.
                    let plain = value(&operand);
                    let mut wrapped = plain.clone();
                    if let advisor_core::Outcome::Success(s) = &mut wrapped.outcome {
                        s.content = format!("Error: {}", s.content);
                    }
                    prop_assert_eq!(advice(&registry, &plain), advice(&registry, &wrapped), "{}", id);
                    continue;
                }
            };
            let enveloped = format!("Error: {bare}");
            let plain = failure_with(&bare, &enveloped, &[]);
            let wrapped = failure_with(&enveloped, &format!("Error: {enveloped}"), &[]);
            let ours = |o: &Observation| advice(&registry, o).into_iter().find(|(f, _)| *f == id);
            prop_assert_eq!(ours(&plain), ours(&wrapped), "{}: message wrapped", id);
            // The content carrier alone, with and without the envelope.
            let content_only = failure_with("", &bare, &[]);
            let content_wrapped = failure_with("", &enveloped, &[]);
            prop_assert_eq!(ours(&content_only), ours(&content_wrapped), "{}: content", id);
        }
    }
}

// ---- quoting a producer's line is not producing it ---------------------------------------

/// A success (exit code, stamp and stderr that carry no family's facts) whose
/// stdout, stderr or rendered content quotes `line`.
fn quoting_success(line: &str, exit_code: i64, place: u8, around: &str) -> Observation {
    let quoted = format!("{around}{line}\n{around}");
    let (stdout, stderr) = match place % 3 {
        0 => (quoted.as_str(), ""),
        1 => ("", quoted.as_str()),
        _ => ("", ""),
    };
    let stamp = json!({"mode": "workspace-write", "denied": false, "enforcement": "partial"});
    let content = format!("{stdout}\n[stderr]\n{stderr}\n{quoted}\n[exit code: {exit_code}]");
    let mut o = success(foreground(exit_code, stdout, stderr, Some(stamp)), &content);
    o.arguments = json!({"command": format!(r"type D:\ws\log.txt; echo {line}")});
    o
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// No failure family fires on a success quoting any of the seven producer
    /// lines, wherever it is quoted, whatever the stamp says; and the success
    /// families do not fire on a quotation in stdout or the rendered content.
    #[test]
    fn quoting_a_producer_line_in_a_success_fires_nothing(
        exit_code in prop::sample::select(&[0_i64, 1, 2, 127][..]),
        place in 0u8..3,
        around in "[ -~]{0,20}",
        denied in any::<bool>(),
    ) {
        let registry = registry();
        let lines: Vec<&str> = producers(&registry).iter().flat_map(|(_, p)| p.quoted.iter().copied()).collect();
        let (reads_stderr, reads_success) = (reads_stderr(&registry), reads_success(&registry));
        for line in lines {
            let mut observation = quoting_success(line, exit_code, place, &around);
            let fired = recognized_by(&registry, &observation);
            let allowed: &[&str] = if place % 3 == 1 { &reads_stderr } else { &[] };
            prop_assert!(fired.iter().all(|f| allowed.contains(f)), "{:?} fired on {:?}", fired, line);
            // Failure families stay silent even under a denial stamp.
            observation = quoting_success(line, exit_code.max(1), place, &around);
            if let advisor_core::Outcome::Success(s) = &mut observation.outcome {
                s.value["sandbox"]["denied"] = Value::Bool(denied);
            }
            let fired = recognized_by(&registry, &observation);
            prop_assert!(fired.iter().all(|f| reads_success.contains(f)), "{:?} fired on {:?}", fired, line);
        }
    }
}

// ---- allocation on a miss ----------------------------------------------------------

const MIB: usize = 1024 * 1024;

/// The most a miss may allocate, whatever the input's size.
const MISS_BUDGET: usize = 4 * 1024;

/// Deterministic printable text with spaces and newlines (no producer shape in it).
fn noise(len: usize) -> String {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut out = String::with_capacity(len);
    while out.len() < len {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let c = match state % 64 {
            0 => '\n',
            1..=8 => ' ',
            n => char::from(b'!' + u8::try_from(n).unwrap_or(0)),
        };
        out.push(c);
    }
    out
}

/// `unit` repeated to about `len` bytes.
fn repeat_to(unit: &str, len: usize) -> String {
    unit.repeat(len / unit.len() + 1)
}

/// Large inputs every family must miss, by name.
fn misses() -> Vec<(&'static str, Observation)> {
    let text = noise(MIB);
    // Each producer's anchor, present but not in the producer's shape.
    let near = repeat_to(
        "the runner said SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\\ws)\n\
         x PTY shell exited during startup\n\
         quoted: Windows ACL temp root must be outside the workspace: workspace=a; temp=b\n\
         note: sandbox-local windows-acl temp grant materialization failed and its cleanup also failed\n",
        MIB,
    );
    let stderr_near = repeat_to(
        "0x800410031 cimv2 0x80041003_ couldn't create signal pipe [exit code: -1073741502]\n",
        MIB,
    );
    let not_denied = json!({"mode": "workspace-write", "denied": false, "enforcement": "partial"});
    let big_value = json!({
        "kind": "background",
        "jobId": "j1",
        "output": (0..32 * 1024).map(|i| json!({"line": i, "text": "0x80041003 cimv2"})).collect::<Vec<_>>(),
    });
    vec![
        (
            "failure, 1 MiB noise",
            failure_with(&text, &format!("Error: {text}"), &[&text]),
        ),
        (
            "failure, 1 MiB of anchors out of shape",
            failure_with(&near, &format!("Error: {near}"), &[&near]),
        ),
        (
            "success, 1 MiB noise in stdout, stderr, content",
            success(foreground(1, &text, &text, Some(not_denied.clone())), &text),
        ),
        (
            "success, 1 MiB of anchors out of shape",
            success(foreground(0, &near, &stderr_near, Some(not_denied)), &near),
        ),
        (
            "success, a large non-shell value",
            success(big_value, &text),
        ),
    ]
}

/// Each family's `recognize` and the registry's `owner()` on each large miss:
/// no match, and at most [`MISS_BUDGET`] bytes allocated. The registry builds
/// each host's needle sets (and, for a text dense in their rare bytes, the
/// automaton) on the first text that needs them, once: the misses are shown
/// to it once before anything is counted.
#[test]
fn a_miss_on_a_large_input_allocates_almost_nothing() {
    let registry = registry();
    for (_, observation) in misses() {
        registry.owner(&observation, advisor_core::Host::Dsh);
    }
    let mut report = Vec::new();
    for (name, observation) in misses() {
        for family in registry.families() {
            let (found, cost) = allocated(|| family.recognize(&observation).is_some());
            assert!(!found, "{} recognized the miss `{name}`", family.id());
            report.push((family.id().as_str(), name, cost.requested));
        }
        let (owner, cost) = allocated(|| {
            registry
                .owner(&observation, advisor_core::Host::Dsh)
                .map(|o| o.family)
        });
        assert_eq!(owner, None, "`{name}` has an owner");
        report.push(("registry.owner()", name, cost.requested));
    }
    for (who, name, bytes) in &report {
        eprintln!("{bytes:>8} B  {who:<28} {name}");
    }
    let over: Vec<_> = report
        .iter()
        .filter(|(_, _, bytes)| *bytes > MISS_BUDGET)
        .collect();
    assert!(
        over.is_empty(),
        "over the {MISS_BUDGET} B budget on a miss: {over:?}"
    );
}

/// What recognition allocates on a large input it does recognize. A match may
/// allocate, but what its finding keeps must stay within a small multiple of
/// the input (at most two copies of the quoted text), and with many paths it
/// must stay bounded. The totals are printed with `--nocapture`, for the record.
#[test]
fn a_match_on_a_large_input_keeps_a_bounded_amount() {
    let registry = registry();
    let long_dir = format!(r"D:\ws\{}", "a".repeat(MIB));
    let many_paths = (0..64 * 1024)
        .map(|i| format!(r"D:\ws\f{i}"))
        .collect::<Vec<_>>()
        .join(" ");
    let denied = |mode: &str| json!({"mode": mode, "denied": true, "enforcement": "partial"});
    // Every family's own producer shape around a 1 MiB operand…
    let mut cases: Vec<(&str, &str, Observation)> = producers(&registry)
        .into_iter()
        .map(|(id, p)| {
            let observation = match p.shape {
                SampleShape::Message(message) => {
                    let m = message(&long_dir);
                    failure_with(&m, &format!("Error: {m}"), &[])
                }
                SampleShape::Value(value) => value(&long_dir),
            };
            (id, "its producer shape around a 1 MiB operand", observation)
        })
        .collect();
    // …and a command naming many paths, which a denial stamp makes a family scan.
    cases.push((
        "workspace-denial",
        "64 Ki paths (560 KiB), read-only stamp, declined by the gate",
        with_arguments(
            success(
                foreground(1, "", "Access is denied.", Some(denied("read-only"))),
                "",
            ),
            json!({ "command": many_paths }),
        ),
    ));
    for (id, name, observation) in cases {
        let family = registry.families().find(|f| f.id().as_str() == id).unwrap();
        let (finding, cost) = allocated(|| family.recognize(&observation));
        assert!(finding.is_some(), "{id}: {name}");
        eprintln!(
            "{:>9} B requested, {:>8} B kept  {id:<18} match: {name}",
            cost.requested, cost.kept
        );
        let kept = usize::try_from(cost.kept).unwrap_or(0);
        assert!(kept <= 2 * MIB + 64 * 1024, "{id}: {name}: keeps {kept} B");
        drop(finding);
    }
}
