//! What the hook writes on stdout: one JSON object in the dialect's
//! `hookSpecificOutput` form, or nothing.
//!
//! Both dialects read the same two answers, so one renderer serves both; the
//! tests hold every object it writes to each dialect's documented field set
//! ([`mod@super::reference`]).

use serde_json::{Map, Value, json};

use super::reference::{EventKind, EventRef};
use crate::engine::Decision;

/// Between two advisories in one `additionalContext`.
pub const ADVISORY_SEPARATOR: &str = "\n\n";

/// The answer to `decision` on `event`, or `None` for silence (empty stdout).
///
/// - A refusal (only a `pre` has one) is `permissionDecision: "deny"` with
///   the refusal's reason as `permissionDecisionReason`.
/// - Advisories are `additionalContext`: each advisory's `text` (the brief,
///   or the full account under `advisoryText: "full"`), joined by a blank line.
pub fn render(event: &EventRef, decision: &Decision) -> Option<Value> {
    let mut specific = Map::new();
    if let Some(refusal) = decision
        .refusal
        .as_ref()
        .filter(|_| event.kind == EventKind::Pre)
    {
        specific.insert("permissionDecision".into(), json!("deny"));
        specific.insert("permissionDecisionReason".into(), json!(refusal.reason));
    }
    if !decision.advisories.is_empty() {
        let texts: Vec<&str> = decision
            .advisories
            .iter()
            .map(|a| a.text.as_str())
            .collect();
        specific.insert(
            "additionalContext".into(),
            json!(texts.join(ADVISORY_SEPARATOR)),
        );
    }
    if specific.is_empty() {
        return None;
    }
    let mut answer = Map::new();
    answer.insert("hookEventName".into(), json!(event.name));
    answer.append(&mut specific);
    Some(json!({ "hookSpecificOutput": answer }))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::panic)]

    use advisor_core::{Advisory, AgentId, CallId, FamilyId, Refusal, SessionId, ToolName};

    use super::*;
    use crate::engine::Hook;
    use crate::hook::reference::{CLAUDE_CODE, CODEX, Reference};

    fn decision(hook: Hook, advisories: &[&str], refusal: Option<&str>) -> Decision {
        Decision {
            hook,
            agent: Some(AgentId::new("s1")),
            session: Some(SessionId::new("s1")),
            call: Some((CallId::new("c1"), ToolName::new("pwsh"))),
            advisories: advisories
                .iter()
                .map(|t| Advisory::new(FamilyId::new("acl-provisioning"), "summary", (*t).into()))
                .collect(),
            withheld: Vec::new(),
            refusal: refusal.map(|r| Refusal {
                family: FamilyId::new("acl-provisioning"),
                reason: r.into(),
            }),
        }
    }

    /// Every answer to every event of `dialect`: a refusal, one advisory, two.
    fn answers(dialect: &Reference) -> Vec<(&'static EventRef, Value)> {
        let mut out = Vec::new();
        for event in dialect.events {
            let hook = match event.kind {
                EventKind::Pre => Hook::Pre,
                EventKind::Post | EventKind::PostFailure => Hook::Post,
            };
            for d in [
                decision(hook, &[], Some("sandbox-advisor refused this call")),
                decision(hook, &["brief one"], None),
                decision(hook, &["brief one", "brief two"], None),
            ] {
                if let Some(answer) = render(event, &d) {
                    out.push((event, answer));
                }
            }
        }
        out
    }

    /// Each object the hook writes uses only the fields the dialect's reference allows.
    #[test]
    fn emits_only_documented_fields() {
        for dialect in [&CLAUDE_CODE, &CODEX] {
            let answers = answers(dialect);
            assert!(
                answers.len() >= dialect.events.len() * 2,
                "{}",
                dialect.dialect
            );
            for (event, answer) in answers {
                let top = answer.as_object().unwrap();
                for key in top.keys() {
                    assert!(
                        dialect.output_top.contains(&key.as_str()),
                        "{key} in {answer}"
                    );
                }
                let specific = top["hookSpecificOutput"].as_object().unwrap();
                for (key, value) in specific {
                    assert!(
                        event.output.contains(&key.as_str()),
                        "{key} on {}",
                        event.name
                    );
                    assert!(value.is_string(), "{key}: {value}");
                }
                assert_eq!(specific["hookEventName"], event.name);
                if let Some(decision) = specific.get("permissionDecision") {
                    assert!(event.decisions.contains(&decision.as_str().unwrap()));
                    // Codex: a `deny` needs a reason with a non-blank character.
                    let reason = specific["permissionDecisionReason"].as_str().unwrap();
                    assert!(!reason.trim().is_empty());
                }
            }
        }
    }

    #[test]
    fn a_refusal_is_a_deny_with_its_reason() {
        let pre = CODEX.event("PreToolUse").unwrap();
        let answer = render(pre, &decision(Hook::Pre, &[], Some("refused: why"))).unwrap();
        assert_eq!(
            answer.to_string(),
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"refused: why"}}"#
        );
        // A post-execute event cannot refuse: a stray refusal is not written there.
        let post = CLAUDE_CODE.event("PostToolUse").unwrap();
        assert_eq!(render(post, &decision(Hook::Post, &[], Some("x"))), None);
    }

    #[test]
    fn advisories_are_joined_by_a_blank_line_and_silence_is_nothing() {
        let post = CLAUDE_CODE.event("PostToolUseFailure").unwrap();
        let answer = render(post, &decision(Hook::Post, &["a\nb", "c"], None)).unwrap();
        assert_eq!(
            answer["hookSpecificOutput"]["additionalContext"],
            "a\nb\n\nc"
        );
        assert_eq!(
            answer["hookSpecificOutput"]["hookEventName"],
            "PostToolUseFailure"
        );
        assert_eq!(render(post, &decision(Hook::Post, &[], None)), None);
    }
}
