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
