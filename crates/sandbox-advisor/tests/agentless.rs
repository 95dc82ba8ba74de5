//! A call with no agent (issue 13): a direct execute from outside an agent
//! loop is answered with a plain decision, never advised and never counted.

// Helpers outside #[test] functions are test code too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg(feature = "all-families")]

mod common;

use common::*;

const ACL_NO_AGENT: &str = r#"{"type":"post","session":"s1","call":"d1","tool":"pwsh","args":{"command":"Get-Date"},"error":{"message":"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\\ws)"}}"#;
const PRE_NO_AGENT: &str =
    r#"{"type":"pre","session":"s1","call":"d2","tool":"pwsh","args":{"command":"Get-Date"}}"#;
const PTY_NO_AGENT_NO_SESSION: &str = r#"{"type":"post","call":"d3","tool":"pwsh","error":{"message":"PTY shell exited during startup"}}"#;

fn config(dir: &std::path::Path) -> String {
    let path = dir.join("advisor.json");
    std::fs::write(&path, r#"{"enforceAfter": 1, "maxDenials": 2}"#).unwrap();
    path.to_str().unwrap().to_owned()
}

#[test]
fn a_post_or_pre_without_agent_gets_a_plain_decision_and_is_never_counted() {
    let dir = tempfile::tempdir().unwrap();
    let config = config(dir.path());
    let input = lines(&[
        HOST,
        SESSION,
        MODE,
        ACL_NO_AGENT,
        ACL_NO_AGENT,
        PRE_NO_AGENT,
        PTY_NO_AGENT_NO_SESSION,
        // The same failure from an agent is its first: advised once, and counted.
        ACL_A1,
        ACL_A1_AGAIN,
        PRE_A1,
    ]);
    let out = run(&["serve", "--config", &config], input.clone());
    assert_eq!(out.code, 0, "{}", out.stderr);
    insta::assert_snapshot!(shape(&out), @r#"
    {"seq":4,"type":"post","call":"d1","advisories":[],"withheld":[],"refusal":null}
    {"seq":5,"type":"post","call":"d1","advisories":[],"withheld":[],"refusal":null}
    {"seq":6,"type":"pre","call":"d2","advisories":[],"withheld":[],"refusal":null}
    {"seq":7,"type":"post","call":"d3","advisories":[],"withheld":[],"refusal":null}
    {"seq":8,"type":"post","agent":"a1","call":"c1","advisories":[{"family":"acl-provisioning","summary":"<summary>","text":"<text>","detail":"<detail>","diagnosis":{"category":"runner_setup_failed","phase":"setup","confidence":"confirmed","source":"runner","commandStarted":false,"effects":"none","retry":"after-remedy","remedyOwner":"user"},"source":{"kind":"sandbox-grant-advisor"}}],"withheld":[],"refusal":null}
    {"seq":9,"type":"post","agent":"a1","call":"c2","advisories":[],"withheld":[],"refusal":null}
    {"seq":10,"type":"pre","agent":"a1","call":"c4","advisories":[],"withheld":[],"refusal":{"family":"acl-provisioning","reason":"<reason>"}}
    "#);

    let text = run(
        &["replay", "-", "--format", "text", "--config", &config],
        input,
    );
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(
        text.stdout.contains(
            "events      10\nadvisories  1 (acl-provisioning 1)\nwithheld    0\nrefused     1\ninvalid     0"
        ),
        "{}",
        text.stdout
    );
}

#[test]
fn an_agentless_pre_is_never_refused_even_after_an_agent_spent_its_budget() {
    let dir = tempfile::tempdir().unwrap();
    let config = config(dir.path());
    let input = lines(&[HOST, SESSION, MODE, ACL_A1, PRE_A1, PRE_NO_AGENT]);
    let out = run(&["serve", "--config", &config], input);
    let json = out.json();
    assert_eq!(json[1]["refusal"]["family"], "acl-provisioning");
    assert_eq!(json[2]["type"], "pre", "{}", json[2]);
    assert!(json[2]["refusal"].is_null());
    assert!(json[2].get("agent").is_none());
}

#[test]
fn session_start_and_agent_end_still_need_an_agent() {
    let out = run(
        &["replay", "-", "--format", "json"],
        lines(&[
            r#"{"type":"session-start","session":"s1"}"#,
            r#"{"type":"agent-end"}"#,
            r#"{"type":"post","agent":"","call":"c1","tool":"pwsh","error":{"message":"m"}}"#,
        ]),
    );
    assert_eq!(out.code, 1);
    let errors: Vec<String> = out
        .json()
        .iter()
        .map(|l| l["error"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        errors,
        [
            "`session-start` line: missing field `agent`",
            "`agent-end` line: missing field `agent`",
            "`post` line: field `agent` must not be empty",
        ]
    );
}
