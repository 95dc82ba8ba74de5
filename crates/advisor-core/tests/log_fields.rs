//! The host log through a real advisor: a hostile agent id, tool name and
//! resolver message add no field to any line a logfmt reader reads.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use advisor_core::testing::StaticPolicy;
use advisor_core::{AgentId, CallId, Config, PendingCall, Registry, SessionId, Unresolved};
use serde_json::json;
use support::logfmt;
use support::*;

/// An agent id that, printed raw, forges a `family` and a `reason` field.
const FORGING_AGENT: &str = r#"a1 family=forged reason="x""#;
/// A tool name that forges a field and a second line.
const FORGING_TOOL: &str = "bash seat=forged\nINFO forged=1";
/// A resolver message that forges a field.
const FORGING_RESOLVER: &str = "down forged=yes \"quoted\" \\";

/// Every line the advisor logged while deciding a spoken advisory, a withheld
/// one, a declined one and a refused call for the forging agent.
fn logged() -> String {
    let config = Config::from_json(json!({"enforceAfter": 1, "maxDenials": 1})).unwrap();
    let advisor = advisor(
        Registry::builder()
            .fail_fast_family(Provisioning)
            .family(ALPHA)
            .family(Fake::new("gated", "GATED", Rule::Confining))
            .family(Fake::new("declines", "DECLINE", Rule::Decline)),
        config,
    );
    let host = linux();
    let policy = StaticPolicy(Err(Unresolved::ResolverError(FORGING_RESOLVER.into())));
    let log = LogCapture::default();
    log.scoped(|| {
        run(async {
            let c = ctx(&host, &policy);
            for (call, message) in [
                ("c1", "ALPHA"),
                ("c2", "GATED"),
                ("c3", "DECLINE"),
                ("c4", "PROVISIONING"),
            ] {
                let mut o = fail(FORGING_AGENT, call, message);
                o.session = Some(SessionId::new("s1"));
                o.tool = FORGING_TOOL.into();
                advisor.post_execute(&o, None, &c).await;
            }
            let pending = PendingCall {
                agent: AgentId::new(FORGING_AGENT),
                session: Some(SessionId::new("s1")),
                call: CallId::new("c5"),
                tool: FORGING_TOOL.into(),
                arguments: json!({"command": "echo hi"}),
            };
            assert!(advisor.pre_execute(&pending).refusal.is_some());
        })
    });
    log.text()
}

/// What each line must show: its agent is the whole id, its family is the
/// advisor's, and nothing forged is a field.
fn check(line: &str) {
    let pairs = logfmt::parse(line).unwrap_or_else(|e| panic!("{e}\n{line}"));
    let values = |key: &str| -> Vec<Option<&str>> {
        pairs
            .iter()
            .filter(|(k, _)| k == key)
            .map(|(_, v)| v.as_deref())
            .collect()
    };
    assert_eq!(values("agent"), [Some(FORGING_AGENT)], "{line}");
    let families = values("family");
    assert_eq!(families.len(), 1, "{line}");
    assert!(families[0] != Some("forged"), "{line}");
    for forged in ["forged", "forged=1"] {
        assert!(values(forged).is_empty(), "{forged}: {line}");
    }
    assert!(values("reason").iter().all(|v| *v != Some("x")), "{line}");
    assert!(
        values("seat").iter().all(|v| *v != Some("forged")),
        "{line}"
    );
    if let Some(tool) = values("tool").first() {
        assert_eq!(*tool, Some(FORGING_TOOL), "{line}");
    }
}

#[test]
fn a_forging_agent_id_adds_no_field_to_any_line() {
    let text = logged();
    let lines: Vec<&str> = text.lines().collect();
    // spoken, withheld, declined (debug), spoken (provisioning) and refused:
    // one line each, nothing split.
    let expected = [
        "advisory delivered",
        "advisory withheld",
        "not this family's story",
        "advisory delivered",
        "refused a call",
    ];
    assert_eq!(lines.len(), expected.len(), "{text}");
    for (line, what) in lines.iter().zip(expected) {
        assert!(line.contains(what), "{what}: {line}");
        check(line);
    }
    let withheld = logfmt::parse(lines[1]).unwrap();
    let detail = withheld.iter().find(|(k, _)| k == "detail");
    assert!(
        detail.is_some_and(|(_, v)| v.as_deref().is_some_and(|v| v.contains(FORGING_RESOLVER))),
        "the resolver's message is one field: {}",
        lines[1]
    );
}
