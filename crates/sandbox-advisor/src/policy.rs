//! The session policy a recorded stream describes, with a path grammar that can
//! follow a `host` line.
//!
//! [`SessionPolicy`] fixes its platform (the grammar of every recorded path) at
//! construction, while a stream may announce its host only after some session
//! facts. So this wrapper keeps the reduced facts it was given (each session's
//! first `cwd`, last mode and outage, plus a global outage) and, when the
//! platform changes, builds a fresh [`SessionPolicy`] for the new grammar and
//! replays those facts into it. Resolution itself is `SessionPolicy`'s.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use advisor_core::{
    Platform, PolicyQuery, PolicySource, ResolvedPolicy, SandboxMode, SessionId, Unresolved,
};
use async_trait::async_trait;
use host_adapter::{PolicyDefaults, SessionPolicy};

#[derive(Debug, Clone, Default)]
struct SessionFacts {
    cwd: Option<String>,
    mode: Option<SandboxMode>,
    unavailable: Option<Unresolved>,
}

#[derive(Debug, Default)]
struct Journal {
    sessions: HashMap<SessionId, SessionFacts>,
    all_unavailable: Option<Unresolved>,
}

/// A [`PolicySource`] over a [`SessionPolicy`] whose platform can be changed.
#[derive(Debug)]
pub struct ReplayPolicy {
    current: RwLock<Arc<SessionPolicy>>,
    journal: Mutex<Journal>,
}

impl ReplayPolicy {
    /// A policy with these deployment defaults and no session yet.
    pub fn new(defaults: PolicyDefaults) -> Self {
        Self {
            current: RwLock::new(Arc::new(SessionPolicy::new(defaults))),
            journal: Mutex::new(Journal::default()),
        }
    }

    fn policy(&self) -> Arc<SessionPolicy> {
        self.current
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn journal(&self) -> std::sync::MutexGuard<'_, Journal> {
        self.journal.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The platform whose path grammar recorded paths are read with.
    pub fn platform(&self) -> Platform {
        self.policy().defaults().platform
    }

    /// Switches the path grammar, re-reading every recorded root under it.
    pub fn set_platform(&self, platform: Platform) {
        let old = self.policy();
        if old.defaults().platform == platform {
            return;
        }
        let fresh = SessionPolicy::new(PolicyDefaults {
            platform,
            ..old.defaults().clone()
        });
        let journal = self.journal();
        for (session, facts) in &journal.sessions {
            if let Some(cwd) = &facts.cwd {
                fresh.open_session(session, cwd);
            }
            if let Some(mode) = facts.mode {
                fresh.set_mode(session, mode);
            }
            if let Some(why) = &facts.unavailable {
                fresh.fail_session(session, why.clone());
            }
        }
        if let Some(why) = &journal.all_unavailable {
            fresh.fail_all(why.clone());
        }
        *self.current.write().unwrap_or_else(PoisonError::into_inner) = Arc::new(fresh);
    }

    /// A session header; the first `cwd` is the session's immutable root.
    pub fn open_session(&self, session: &SessionId, cwd: Option<&str>) {
        let mut journal = self.journal();
        let facts = journal.sessions.entry(session.clone()).or_default();
        if let (None, Some(cwd)) = (&facts.cwd, cwd) {
            facts.cwd = Some(cwd.to_owned());
            self.policy().open_session(session, cwd);
        }
    }

    /// A `sandbox/mode` event; the last one wins.
    pub fn set_mode(&self, session: &SessionId, mode: SandboxMode) {
        let mut journal = self.journal();
        journal.sessions.entry(session.clone()).or_default().mode = Some(mode);
        self.policy().set_mode(session, mode);
    }

    /// From now on, resolution fails for `session`, or for every session.
    pub fn fail(&self, session: Option<&SessionId>, why: Unresolved) {
        let mut journal = self.journal();
        match session {
            Some(session) => {
                journal
                    .sessions
                    .entry(session.clone())
                    .or_default()
                    .unavailable = Some(why.clone());
                self.policy().fail_session(session, why);
            }
            None => {
                journal.all_unavailable = Some(why.clone());
                self.policy().fail_all(why);
            }
        }
    }
}

#[async_trait]
impl PolicySource for ReplayPolicy {
    async fn resolve(&self, query: PolicyQuery<'_>) -> Result<ResolvedPolicy, Unresolved> {
        self.policy().resolve_now(query)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_late_host_line_rereads_recorded_roots_with_its_grammar() {
        let policy = ReplayPolicy::new(PolicyDefaults {
            default_mode: SandboxMode::ReadOnly,
            fallback_root: None,
            platform: Platform::Linux,
        });
        let s = SessionId::new("s1");
        policy.open_session(&s, Some(r"D:\ws\sub\.."));
        policy.set_mode(&s, SandboxMode::WorkspaceWrite);
        policy.set_platform(Platform::Win32);
        let resolved = policy
            .policy()
            .resolve_now(PolicyQuery {
                session: Some(&s),
                approved_mode: None,
            })
            .unwrap();
        assert_eq!(resolved.mode, SandboxMode::WorkspaceWrite);
        assert_eq!(
            resolved.workspace_root.unwrap().path().as_str(),
            r"D:\ws",
            "read with the Windows grammar"
        );
    }
}
