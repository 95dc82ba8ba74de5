//! Withheld advisories as people read them: a reason in words, told once per session.
//!
//! The protocol's JSON lines keep the core's contract (each withheld advisory
//! reported once per agent, family, seat and reason, with a stable code). The
//! text report and the host log are for people: a pre-flight check is computed
//! once per session, so when it withholds, every agent of that session would
//! repeat the same sentence. They tell it once, in words, and point later
//! agents back to the line where it was told.

use std::collections::HashMap;

use advisor_core::disclosure::WITHHELD_TARGET;
use advisor_core::quote::{escaped, log_field};
use advisor_core::{AgentId, FamilyId, Seat, SessionId, Withheld, WithholdReason};

/// The reason in words. A family's own code (`WithholdReason::Other`) carries
/// no sentence of its own, so the codes the shipped families use are worded
/// here; an unknown code is given as itself, once, never as its own explanation.
pub fn reason_text(reason: &WithholdReason) -> String {
    let sentence = match reason {
        WithholdReason::Other(code) => match *code {
            "no-temp-dir" => Some(
                "the host reported no temp directory (a `host` line without `tmpdir`), so the \
                 temp root cannot be compared with the workspace root",
            ),
            "temp-root-not-comparable" => Some(
                "the temp directory and the workspace root could be compared neither on disk nor \
                 by spelling",
            ),
            "unrecognized-stamp-mode" => {
                Some("the executor's `sandbox` stamp names a mode outside the harness's vocabulary")
            }
            "workspace-root-not-absolute" => {
                Some("the policy reported a workspace root that is not an absolute Windows path")
            }
            _ => None,
        },
        _ => None,
    };
    match sentence {
        Some(sentence) => format!("{} — {sentence}", reason.code()),
        None if matches!(reason, WithholdReason::Other(_)) => reason.code().to_owned(),
        // The core's sentence may quote a resolver's message: escaped like any text the CLI did not write.
        None => format!("{} — {}", reason.code(), escaped(&reason.to_string())),
    }
}

/// Whether a withheld advisory is told in full or points back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Told {
    /// The first time: the reason in full.
    First,
    /// The session's pre-flight check already withheld this for another agent, at line `at`.
    Again {
        /// The input line where it was told.
        at: u64,
    },
}

type Key = (Option<SessionId>, FamilyId, &'static str);

/// Which session-wide withholds were already told, and where.
#[derive(Debug, Default)]
pub struct SessionNotes {
    told: HashMap<Key, u64>,
}

impl SessionNotes {
    /// Notes `withheld`, from line `seq` in `session`. A pre-flight withhold is
    /// the session's (its check runs once per session), so only its first
    /// agent hears it in full; a failure-seat withhold depends on the call and
    /// is always told.
    pub fn note(&mut self, seq: u64, session: Option<&SessionId>, withheld: &Withheld) -> Told {
        if withheld.seat != Seat::Preflight {
            return Told::First;
        }
        let key = (session.cloned(), withheld.family, withheld.reason.code());
        match self.told.get(&key) {
            Some(&at) => Told::Again { at },
            None => {
                self.told.insert(key, seq);
                Told::First
            }
        }
    }
}

/// Logs a withheld advisory on the host log: at WARN the first time, at DEBUG
/// when the session's pre-flight withhold was already told.
pub fn log(session: Option<&SessionId>, agent: Option<&AgentId>, withheld: &Withheld, told: Told) {
    let session = session.map_or("-", SessionId::as_str);
    let agent = agent.map_or("-", AgentId::as_str);
    let seat = match withheld.seat {
        Seat::Failure => "failure",
        Seat::Preflight => "pre-flight",
    };
    match told {
        Told::First => tracing::warn!(
            target: WITHHELD_TARGET,
            session = %log_field(session), agent = %log_field(agent),
            family = %withheld.family, seat, reason = withheld.reason.code(),
            detail = %log_field(&reason_text(&withheld.reason)),
            "advisory withheld"
        ),
        Told::Again { at } => tracing::debug!(
            target: WITHHELD_TARGET,
            session = %log_field(session), agent = %log_field(agent),
            family = %withheld.family, seat, reason = withheld.reason.code(),
            "advisory withheld for this agent too, as told at line {at}"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_family_code_is_never_its_own_explanation() {
        for code in [
            "no-temp-dir",
            "temp-root-not-comparable",
            "unrecognized-stamp-mode",
            "workspace-root-not-absolute",
        ] {
            let text = reason_text(&WithholdReason::Other(code));
            assert!(text.starts_with(&format!("{code} — ")), "{text}");
            assert!(!text.ends_with(code), "{text}");
        }
        assert_eq!(reason_text(&WithholdReason::Other("new-code")), "new-code");
        assert_eq!(
            reason_text(&WithholdReason::NoWorkspaceRoot),
            "no-workspace-root — the policy reports no workspace root"
        );
    }

    #[test]
    fn a_preflight_withhold_is_told_once_per_session() {
        let w = |seat| Withheld {
            family: FamilyId::new("temp-root-inside-workspace"),
            seat,
            reason: WithholdReason::Other("no-temp-dir"),
            diagnosis: None,
        };
        let (s1, s2) = (SessionId::new("s1"), SessionId::new("s2"));
        let mut notes = SessionNotes::default();
        assert_eq!(notes.note(5, Some(&s1), &w(Seat::Preflight)), Told::First);
        assert_eq!(
            notes.note(7, Some(&s1), &w(Seat::Preflight)),
            Told::Again { at: 5 }
        );
        assert_eq!(notes.note(8, Some(&s2), &w(Seat::Preflight)), Told::First);
        assert_eq!(notes.note(9, Some(&s1), &w(Seat::Failure)), Told::First);
    }
}
