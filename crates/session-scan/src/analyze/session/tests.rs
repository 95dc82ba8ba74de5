//! What a session keeps of its pending calls and steps, within its bounds.

use super::*;
use crate::model::Format;

fn session(pending_max: usize) -> Session {
    Session::new(
        SessionHeader {
            path: "s.jsonl".into(),
            format: Format::ClaudeCode,
            id: "s".into(),
            parent: None,
            subagent: false,
            cwd: None,
            platform: None,
        },
        pending_max,
    )
}

/// Arguments whose compact text is `len` bytes.
fn arguments(len: usize) -> Value {
    Value::String("x".repeat(len - 2))
}

#[test]
fn pending_calls_keep_no_more_than_their_bytes() {
    // Each call costs 2 × 2 (its id, twice) + 4 (tool) + 1000 + 128 bytes.
    let cost = 2 * 2 + 4 + 1000 + PENDING_OVERHEAD;
    let mut s = session(3 * cost);
    for n in 0..10 {
        s.call(format!("c{n}"), StepId(n), "Bash".into(), arguments(1000));
    }
    let mut kept: Vec<&String> = s.pending.keys().collect();
    kept.sort();
    assert_eq!(kept, ["c7", "c8", "c9"], "the newest are kept");
    assert_eq!(s.pending_bytes, 3 * cost);
    assert!(
        s.settle_call("c0").is_none(),
        "a dropped call is not matched"
    );
    let settled = s.settle_call("c8").map(|p| p.arguments);
    assert_eq!(
        settled.as_deref(),
        Some(arguments(1000).to_string().as_str())
    );
    assert_eq!(s.pending_bytes, 2 * cost);
    // A call larger than the whole bound is kept without its arguments.
    s.call(
        "big".into(),
        StepId(99),
        "Bash".into(),
        arguments(10 * cost),
    );
    assert_eq!(s.pending.get("big").map(|p| &*p.arguments), Some("null"));
}

#[test]
fn the_pending_order_stays_within_twice_the_pending_calls() {
    let mut s = session(PENDING_BYTES);
    for n in 0..20_000 {
        let call = format!("c{n}");
        s.call(call.clone(), StepId(n % 7), "Bash".into(), Value::Null);
        if n % 10 != 0 {
            s.settle_call(&call);
        }
    }
    assert_eq!(s.pending.len(), 2_000);
    assert!(
        s.pending_order.len() <= 2 * s.pending.len() + 64,
        "{} entries for {} pending calls",
        s.pending_order.len(),
        s.pending.len()
    );
}

#[test]
fn the_oldest_step_is_settled_first_when_steps_are_full() {
    let mut s = session(PENDING_BYTES);
    for n in 0..STEPS_MAX as u64 + 3 {
        s.step(StepId(n)).calls += 1;
    }
    assert_eq!(s.steps.len(), STEPS_MAX);
    for gone in 0..3 {
        assert!(
            !s.steps.contains_key(&StepId(gone)),
            "step {gone} is still held"
        );
    }
    assert!(s.steps.contains_key(&StepId(3)));
}

/// A bound large enough not to matter.
const PENDING_BYTES: usize = 1 << 30;
