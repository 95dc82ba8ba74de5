//! Unit tests of the parent module.
use super::*;

fn raw(text: &str) -> Box<RawValue> {
    RawValue::from_string(text.to_owned()).unwrap()
}

fn read(text: &str, role: Role) -> Value {
    for_recognition(&raw(text), role).unwrap().0
}

/// Every JSON value in a tree, as [`count`] counts them.
fn nodes(value: &Value) -> usize {
    1 + match value {
        Value::Array(items) => items.iter().map(nodes).sum(),
        Value::Object(map) => map.values().map(nodes).sum(),
        _ => 0,
    }
}

fn zeros(n: usize) -> String {
    format!("[{}]", vec!["0"; n].join(","))
}

#[test]
fn a_value_within_the_budget_is_built_whole() {
    let text = format!(
        r#"{{"command":"Get-Date","data":{}}}"#,
        zeros(VALUE_MAX_NODES - 3)
    );
    let whole: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(nodes(&whole), VALUE_MAX_NODES);
    assert_eq!(read(&text, Role::Args), whole);
    assert_eq!(read(&text, Role::Value), whole);
    assert_eq!(read("[1,2]", Role::Args), serde_json::json!([1, 2]));
}

#[test]
fn a_larger_value_keeps_the_top_level_members_that_fit() {
    let text = format!(
        r#"{{"kind":"foreground","big":{},"exitCode":1,"half":{},"other":{},"sandbox":{{"denied":true}}}}"#,
        zeros(VALUE_MAX_NODES),
        zeros(VALUE_MAX_NODES / 2),
        zeros(VALUE_MAX_NODES / 2),
    );
    let value = read(&text, Role::Value);
    let keys: Vec<&str> = value
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["kind", "exitCode", "half", "sandbox"]);
    assert_eq!(value["sandbox"], serde_json::json!({"denied": true}));
    assert!(nodes(&value) <= VALUE_MAX_NODES);

    let args = read(&text, Role::Args);
    let keys: Vec<&str> = args
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(keys, ["kind", "exitCode", "half", "sandbox", DIGEST_MEMBER]);
    assert!(nodes(&args) <= VALUE_MAX_NODES);
}

#[test]
fn a_large_array_or_many_members_stay_within_the_budget() {
    let members = format!(
        "{{{}}}",
        (0..VALUE_MAX_NODES * 2)
            .map(|i| format!(r#""k{i}":"v""#))
            .collect::<Vec<_>>()
            .join(",")
    );
    for text in [zeros(VALUE_MAX_NODES * 4), members] {
        for role in [Role::Args, Role::Value] {
            let value = read(&text, role);
            assert!(nodes(&value) <= VALUE_MAX_NODES, "{role:?}");
            assert_eq!(
                value.get(DIGEST_MEMBER).is_some(),
                role == Role::Args,
                "{role:?}"
            );
        }
    }
    assert_eq!(
        read(&zeros(VALUE_MAX_NODES * 4), Role::Value),
        serde_json::json!({})
    );
}

#[test]
fn the_digest_covers_the_whole_value_in_any_member_order() {
    let big = |tail: &str, head: &str| {
        format!(
            r#"{{"a":{head},"data":[{},{tail}],"z":"x"}}"#,
            vec![r#"{"p":1,"q":[true,null,"s"]}"#; VALUE_MAX_NODES].join(",")
        )
    };
    let base = read(&big(r#"{"m":1,"n":2.5}"#, "1"), Role::Args);
    let reordered = format!(
        r#"{{"z":"x","data":[{},{{"n":2.5,"m":1}}],"a":1}}"#,
        vec![r#"{"q":[true,null,"s"],"p":1}"#; VALUE_MAX_NODES].join(",")
    );
    assert_eq!(
        read(&reordered, Role::Args)[DIGEST_MEMBER],
        base[DIGEST_MEMBER]
    );
    for other in [
        big(r#"{"m":1,"n":2.6}"#, "1"),
        big(r#"{"m":1,"n":2.5,"o":null}"#, "1"),
        big(r#"{"m":"1","n":2.5}"#, "1"),
        big(r#"[{"m":1,"n":2.5}]"#, "1"),
        big(r#"{"m":1,"n":2.5}"#, "2"),
    ] {
        assert_ne!(
            read(&other, Role::Args)[DIGEST_MEMBER],
            base[DIGEST_MEMBER],
            "{:.80}",
            &other[other.len() - 40..]
        );
    }
    assert_ne!(
        digest("[1,2]", None).unwrap(),
        digest("[2,1]", None).unwrap()
    );
    assert_eq!(digest("1.50", None).unwrap(), digest("1.5", None).unwrap());
    assert_eq!(
        digest(r#""\u0041""#, None).unwrap(),
        digest(r#""A""#, None).unwrap()
    );
}

/// `n` arrays in one another around `inner`.
fn nested(n: usize, inner: &str) -> String {
    format!("{}{inner}{}", "[".repeat(n), "]".repeat(n))
}

#[test]
fn a_member_too_deep_is_left_out_and_the_rest_read() {
    // (text, role, members kept, left out: (count, level))
    let check = |text: &str, role: Role, keys: &[&str], left: Option<(usize, usize)>| {
        let (value, left_out) = for_recognition(&raw(text), role).unwrap();
        let got: Vec<&str> = value
            .as_object()
            .map(|m| m.keys().map(String::as_str).collect())
            .unwrap_or_default();
        assert_eq!(got, keys, "{:.60}", text);
        assert_eq!(left_out.map(|l| (l.count, l.level)), left, "{:.60}", text);
        if left.is_none() {
            assert_eq!(value, serde_json::from_str::<Value>(text).unwrap());
        }
    };
    let args = |deep: usize| format!(r#"{{"command":"Get-Date","data":{}}}"#, nested(deep, "0"));
    check(&args(126), Role::Args, &["command", "data"], None);
    // Only the array at level 129 goes; `data` keeps the levels above it.
    let kept = ["command", "data", DIGEST_MEMBER];
    check(&args(127), Role::Args, &kept, Some((1, 129)));
    check(&args(100_000), Role::Args, &kept, Some((1, 129)));
    check(&args(125), Role::Value, &["command", "data"], None);
    check(
        &args(126),
        Role::Value,
        &["command", "data"],
        Some((1, 129)),
    );
    // An array has no member to carry the identity in: it is read as `{}`, as a large one is.
    check(
        &nested(128, "0"),
        Role::Args,
        &[DIGEST_MEMBER],
        Some((1, 129)),
    );
    check(&nested(127, "0"), Role::Value, &[], Some((1, 129)));
    // A large value is projected from what is left.
    let large = format!(
        r#"{{"command":"x","deep":{},"big":{}}}"#,
        nested(200, "0"),
        zeros(VALUE_MAX_NODES)
    );
    check(
        &large,
        Role::Args,
        &["command", "deep", DIGEST_MEMBER],
        Some((1, 129)),
    );
}

#[test]
fn what_was_left_out_is_still_part_of_the_identity() {
    let args = |inner: &str| format!(r#"{{"command":"x","data":{}}}"#, nested(200, inner));
    let id = |text: &str| read(text, Role::Args)[DIGEST_MEMBER].clone();
    assert_eq!(id(&args("1")), id(&args("1")));
    assert_ne!(id(&args("1")), id(&args("2")));
    assert_ne!(
        id(&args("1")),
        id(&format!(r#"{{"command":"y","data":{}}}"#, nested(200, "1")))
    );
}
