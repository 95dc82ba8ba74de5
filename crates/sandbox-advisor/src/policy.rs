//! The session policy a recorded stream describes.
//!
//! A thin face over [`SessionPolicy`]: the stream may announce its host only
//! after some session facts, and `SessionPolicy` reads roots at resolution
//! time with its current grammar, so a late `host` line is one O(1) switch.

use advisor_core::{
    Platform, PolicyQuery, PolicySource, ResolvedPolicy, SandboxMode, SessionId, Unresolved,
};
use async_trait::async_trait;
use host_adapter::{PolicyDefaults, SessionPolicy};

/// A [`PolicySource`] over a [`SessionPolicy`] whose platform can be changed.
#[derive(Debug)]
pub struct ReplayPolicy {
    inner: SessionPolicy,
}

impl ReplayPolicy {
    /// A policy with these deployment defaults and no session yet.
    pub fn new(defaults: PolicyDefaults) -> Self {
        Self {
            inner: SessionPolicy::new(defaults),
        }
    }

    /// The same, remembering sessions up to `session_capacity` (`sessionCapacity`).
    pub fn with_capacity(defaults: PolicyDefaults, session_capacity: usize) -> Self {
        Self {
            inner: SessionPolicy::with_capacity(defaults, session_capacity),
        }
    }

    /// The platform whose path grammar recorded paths are read with.
    pub fn platform(&self) -> Platform {
        self.inner.platform()
    }

    /// Switches the path grammar.
    pub fn set_platform(&self, platform: Platform) {
        self.inner.set_platform(platform);
    }

    /// A session header; the first `cwd` is the session's immutable root.
    pub fn open_session(&self, session: &SessionId, cwd: Option<&str>) {
        if let Some(cwd) = cwd {
            self.inner.open_session(session, cwd);
        }
    }

    /// A `sandbox/mode` event; the last one wins.
    pub fn set_mode(&self, session: &SessionId, mode: SandboxMode) {
        self.inner.set_mode(session, mode);
    }

    /// From now on, resolution fails for `session`, or for every session.
    pub fn fail(&self, session: Option<&SessionId>, why: Unresolved) {
        match session {
            Some(session) => self.inner.fail_session(session, why),
            None => self.inner.fail_all(why),
        }
    }
}

#[async_trait]
impl PolicySource for ReplayPolicy {
    async fn resolve(&self, query: PolicyQuery<'_>) -> Result<ResolvedPolicy, Unresolved> {
        self.inner.resolve_now(query)
    }

    fn revision(&self, session: &SessionId) -> Option<u64> {
        Some(self.inner.revision_of(session))
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
            .inner
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
