//! The sandbox policy resolver, as `dsh-sandbox-policy` (seed 002) resolves it.
//!
//! - Mode: the explicit approved mode for the call, else the session's last
//!   `sandbox/mode` event, else the deployment default (`read-only` unless configured).
//! - Workspace root: the session header's immutable `cwd`, else the configured
//!   fallback root; canonicalized with filesystem semantics (symlinks resolved)
//!   before lexical normalization. Path grammar follows the host that produced
//!   the events: a Windows session replayed on Linux keeps drive letters,
//!   both separators and case-insensitive comparison, and a recorded root that
//!   does not exist here is normalized lexically instead of failing.
//!
//! A harness with its own policy service implements
//! [`PolicySource`](advisor_core::PolicySource) instead.

use async_trait::async_trait;
use dashmap::DashMap;

use advisor_core::{
    HostPath, Platform, PolicyQuery, PolicySource, ResolvedPolicy, SandboxMode, SessionId,
    Unresolved, WorkspaceRoot,
};

/// The deployment's side of the policy: default mode, fallback root, host grammar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PolicyDefaults {
    /// The deployment default mode (the harness's default is `read-only`).
    pub default_mode: SandboxMode,
    /// The root used when a session has no `cwd` (the harness defaults it to its own cwd).
    pub fallback_root: Option<String>,
    /// The platform whose path grammar the recorded paths use.
    pub platform: Platform,
}

impl Default for PolicyDefaults {
    fn default() -> Self {
        Self {
            default_mode: SandboxMode::ReadOnly,
            fallback_root: None,
            platform: Platform::current(),
        }
    }
}

#[derive(Debug, Clone, Default)]
struct SessionRecord {
    root: Option<WorkspaceRoot>,
    mode: Option<SandboxMode>,
    unavailable: Option<Unresolved>,
}

/// Per-session policy state: headers, `sandbox/mode` events, and outages.
#[derive(Debug)]
pub struct SessionPolicy {
    defaults: PolicyDefaults,
    fallback_root: Option<WorkspaceRoot>,
    sessions: DashMap<SessionId, SessionRecord>,
    unavailable: std::sync::RwLock<Option<Unresolved>>,
}

impl SessionPolicy {
    /// A resolver with these deployment defaults.
    pub fn new(defaults: PolicyDefaults) -> Self {
        let fallback_root = defaults
            .fallback_root
            .as_deref()
            .map(|r| canonical_root(defaults.platform, r));
        Self {
            defaults,
            fallback_root,
            sessions: DashMap::new(),
            unavailable: std::sync::RwLock::new(None),
        }
    }

    /// The deployment defaults.
    pub fn defaults(&self) -> &PolicyDefaults {
        &self.defaults
    }

    /// Records a session header; its `cwd` becomes the session's immutable root.
    /// A second header for the same session does not move the root.
    pub fn open_session(&self, session: &SessionId, cwd: &str) {
        let root = canonical_root(self.defaults.platform, cwd);
        let mut record = self.sessions.entry(session.clone()).or_default();
        if record.root.is_none() {
            record.root = Some(root);
        }
    }

    /// Appends a `sandbox/mode` event; the last one wins.
    pub fn set_mode(&self, session: &SessionId, mode: SandboxMode) {
        self.sessions.entry(session.clone()).or_default().mode = Some(mode);
    }

    /// From now on, resolution fails for this session.
    pub fn fail_session(&self, session: &SessionId, why: Unresolved) {
        self.sessions
            .entry(session.clone())
            .or_default()
            .unavailable = Some(why);
    }

    /// From now on, resolution fails for every session.
    pub fn fail_all(&self, why: Unresolved) {
        if let Ok(mut slot) = self.unavailable.write() {
            *slot = Some(why);
        }
    }

    /// Resolves synchronously (the same rules as the [`PolicySource`] impl).
    pub fn resolve_now(&self, query: PolicyQuery<'_>) -> Result<ResolvedPolicy, Unresolved> {
        if let Some(why) = self.unavailable.read().ok().and_then(|g| g.clone()) {
            return Err(why);
        }
        let session = query.session.ok_or(Unresolved::NoSession)?;
        let record = self
            .sessions
            .get(session)
            .map(|r| r.clone())
            .unwrap_or_default();
        if let Some(why) = record.unavailable {
            return Err(why);
        }
        let mode = query
            .approved_mode
            .or(record.mode)
            .unwrap_or(self.defaults.default_mode);
        let workspace_root = record.root.or_else(|| self.fallback_root.clone());
        Ok(ResolvedPolicy {
            mode,
            workspace_root,
        })
    }
}

#[async_trait]
impl PolicySource for SessionPolicy {
    async fn resolve(&self, query: PolicyQuery<'_>) -> Result<ResolvedPolicy, Unresolved> {
        self.resolve_now(query)
    }
}

/// Canonicalizes a root: filesystem semantics first when the path is local to
/// this machine's grammar and exists, lexical normalization otherwise.
pub fn canonical_root(platform: Platform, raw: &str) -> WorkspaceRoot {
    let style = platform.path_style();
    if platform.path_style() == Platform::current().path_style() {
        if let Ok(real) = std::fs::canonicalize(raw) {
            if let Some(text) = real.to_str() {
                // Windows' canonical form is a verbatim `\\?\C:\…` path; the harness's realpath is not.
                let text = text
                    .strip_prefix(r"\\?\")
                    .filter(|t| t.as_bytes().get(1) == Some(&b':'))
                    .unwrap_or(text);
                return WorkspaceRoot::new(HostPath::lexical(style, text));
            }
        }
        if let Ok(absolute) = std::path::absolute(raw) {
            if let Some(text) = absolute.to_str() {
                return WorkspaceRoot::new(HostPath::lexical(style, text));
            }
        }
    }
    WorkspaceRoot::new(HostPath::lexical(style, raw))
}
