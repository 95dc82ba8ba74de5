//! Unit tests of the parent module.
use super::*;

fn err(line: &str) -> String {
    parse_line(line.as_bytes()).unwrap_err()
}

#[test]
fn errors_name_the_field() {
    assert_eq!(err("[1]"), "the line is not a JSON object");
    assert_eq!(err(r#"{"agent":"a1"}"#), "missing field `type`");
    assert_eq!(err(r#"{"type":7}"#), "field `type` must be a string");
    assert!(
        err(r#"{"type":"nope"}"#)
            .starts_with(r#"unknown type "nope" (expected one of: hello, host"#)
    );
    assert!(
        err(r#"{"type":"sandbox-mode","session":"s1","mode":"full"}"#)
            .starts_with("`sandbox-mode` line: field `mode`: unknown variant `full`")
    );
    assert!(err(r#"{"type":"post","agent":"a1","call":"c1","tool":"t"}"#).contains("`error`"));
    assert!(
        err(r#"{"type":"pre","agent":"","call":"c1","tool":"t"}"#)
            .contains("field `agent` must not be empty")
    );
    assert_eq!(
        err(r#"{"type":"post","agent":5,"call":"c1","tool":"t","error":{"message":"m"}}"#),
        "`post` line: field `agent` must be a non-empty string, not the number 5"
    );
    assert!(
        err(r#"{"type":"host","platform":"win32","electron":"yes"}"#).contains("field `electron`")
    );
    assert!(
        err(r#"{"type":"post","agent":"a1","call":"c1","tool":"t","error":{"message":1}}"#)
            .contains("field `error.message`")
    );
}

#[test]
fn a_huge_bad_value_is_not_echoed_whole() {
    let line = format!(
        r#"{{"type":"sandbox-mode","session":"s1","mode":"{}"}}"#,
        "x".repeat(100_000)
    );
    assert!(err(&line).chars().count() <= ERROR_MAX_CHARS + 1);
}

#[test]
fn extra_fields_are_ignored_and_defaults_apply() {
    let event = parse_line(
        br#"{"type":"post","agent":"a1","call":"c1","tool":"bash","x":1,"error":{"message":"m"}}"#,
    )
    .unwrap();
    let Event::Post(call, post) = event else {
        panic!("not a post")
    };
    assert_eq!(call.session, None);
    assert_eq!(call.args, serde_json::json!({}));
    let advisor_core::Outcome::Failure(f) = post.outcome else {
        panic!("not a failure")
    };
    assert_eq!(f.content, "Error: m");
}

#[test]
fn a_resolver_message_is_kept_at_its_size() {
    let line = format!(
        r#"{{"type":"policy-unavailable","reason":"resolver-error","message":"{}"}}"#,
        "é".repeat(100_000)
    );
    let Ok(Event::PolicyUnavailable {
        why: Unresolved::ResolverError(message),
        ..
    }) = parse_line(line.as_bytes())
    else {
        panic!("not a resolver error")
    };
    let kept = message.inspect();
    assert!(
        kept.len() <= caps::MESSAGE_MAX_BYTES,
        "{} bytes",
        kept.len()
    );
    assert!(kept.starts_with("éé") && kept.ends_with('…'));
}

#[test]
fn members_beyond_the_cap_are_checked_and_dropped() {
    let members = |items: &[String]| {
        format!(
            r#"{{"type":"post","agent":"a1","call":"c1","tool":"t","error":{{"message":"m","members":[{}]}}}}"#,
            items.join(",")
        )
    };
    let many: Vec<String> = (0..MEMBERS_MAX * 3).map(|i| format!("\"m{i}\"")).collect();
    let Ok(Event::Post(_, post)) = parse_line(members(&many).as_bytes()) else {
        panic!("not a post")
    };
    let advisor_core::Outcome::Failure(f) = post.outcome else {
        panic!("not a failure")
    };
    assert_eq!(f.members.len(), MEMBERS_MAX);
    assert_eq!(f.members[MEMBERS_MAX - 1], format!("m{}", MEMBERS_MAX - 1));
    let mut bad = many.clone();
    bad.push("7".into());
    assert_eq!(
        err(&members(&bad)),
        format!(
            "`post` line: field `error.members[{}]` must be a string, not the number 7",
            MEMBERS_MAX * 3
        )
    );
}

#[test]
fn null_args_are_absent_args() {
    for args in [r#""args":null,"#, ""] {
        let line = format!(r#"{{"type":"pre","agent":"a1","call":"c1",{args}"tool":"t"}}"#);
        let Ok(Event::Pre(call)) = parse_line(line.as_bytes()) else {
            panic!("not a pre")
        };
        assert_eq!(call.args, serde_json::json!({}), "{line}");
    }
}

#[test]
fn a_long_bad_value_is_quoted_in_part_never_copied_whole() {
    let e =
        serde_json::from_str::<SandboxMode>(&format!("\"{}\"", "x".repeat(1_000_000))).unwrap_err();
    let message = wording::without_position(&e);
    assert!(message.starts_with("unknown variant `xxx"), "{message:.80}");
    assert!(message.len() <= 4096, "{} bytes", message.len());
    let short = serde_json::from_str::<SandboxMode>("\"full\"").unwrap_err();
    assert_eq!(
        wording::without_position(&short),
        "unknown variant `full`, expected one of `read-only`, `workspace-write`, `danger-full-access`"
    );
}
