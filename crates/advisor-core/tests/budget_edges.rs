//! A call's key against the arguments it is built from: the budget watches
//! one call exactly, and a respelling of its arguments is the same call.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use advisor_core::CallKey;
use serde_json::{Value, json};

/// Whether two argument values are one call or two.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Calls {
    Same,
    Different,
}

fn check(a: Value, b: Value, expected: Calls) {
    let found = match CallKey::new("bash", &a) == CallKey::new("bash", &b) {
        true => Calls::Same,
        false => Calls::Different,
    };
    assert_eq!(found, expected, "{a} against {b}");
}

/// A watched call that failed must not make a different call look watched
/// (it would be refused), nor a respelling of it look new (it would run).
#[test]
fn different_arguments_are_different_calls_and_a_respelling_is_the_same_call() {
    for (a, b, expected) in [
        (json!([1, 2]), json!([12]), Calls::Different),
        (json!(["a", "b"]), json!(["ab"]), Calls::Different),
        (json!([[1], [2]]), json!([[1, 2]]), Calls::Different),
        (json!({"a": [1, 2]}), json!({"a": [12]}), Calls::Different),
        (json!({"a": 1, "b": 2}), json!({"a": 12}), Calls::Different),
        (json!({"a": "1"}), json!({"a": 1}), Calls::Different),
        (json!([]), json!({}), Calls::Different),
        (json!(null), json!({}), Calls::Different),
        (
            json!({"a": 1, "b": 2}),
            json!({"b": 2, "a": 1}),
            Calls::Same,
        ),
        (
            json!([{"y": 1, "x": [2, 3]}]),
            json!([{"x": [2, 3], "y": 1}]),
            Calls::Same,
        ),
    ] {
        check(a, b, expected);
    }
}
