//! The sandbox policy resolver, as `dsh-sandbox-policy` (seed 002) resolves it.
//!
//! - Mode: the explicit approved mode for the call, else the session's last
//!   `sandbox/mode` event, else the deployment default (`read-only` unless configured).
//! - Workspace root: the session header's immutable `cwd`, else the configured
//!   fallback root; canonicalized with filesystem semantics (symlinks resolved)
//!   before lexical normalization, at resolution time as the harness does. Path
//!   grammar follows the host that produced the events: a Windows session
//!   replayed on Linux keeps drive letters, both separators and case-insensitive
//!   comparison, and a recorded root that does not exist here is normalized
//!   lexically instead of failing. A UNC root (`\\server\share`) is never
//!   touched on the filesystem: an untrusted header must not open a connection.
//!
//! Sessions are held in a [`BoundedMap`]: a session's header, mode and outage
//! are forgotten only after `sessionCapacity` other sessions were touched
//! (opened, given a mode, failed or resolved) since its own last touch, so a
//! harness that never reports session ends cannot grow the map without limit.
//! A forgotten session resolves as one never described: the deployment
//! default mode and the fallback root.
//!
//! A harness with its own policy service implements
//! [`PolicySource`](advisor_core::PolicySource) instead.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{PoisonError, RwLock};

use async_trait::async_trait;

use advisor_core::{
    BoundedMap, DEFAULT_SESSION_CAPACITY, HostPath, Platform, PolicyQuery, PolicySource,
    ResolvedPolicy, SandboxMode, SessionId, Unresolved, WorkspaceRoot, paths,
};

/// The deployment's side of the policy: default mode, fallback root, host grammar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PolicyDefaults {
    /// The deployment default mode (the harness's default is `read-only`);
    /// `None` when nobody stated one: a session without a mode of its own
    /// then resolves to [`Unresolved::NoModeStated`], never to a guess.
    pub default_mode: Option<SandboxMode>,
    /// The root used when a session has no `cwd` (the harness defaults it to its own cwd).
    pub fallback_root: Option<String>,
    /// The platform whose path grammar the recorded paths use.
    pub platform: Platform,
}

impl Default for PolicyDefaults {
    fn default() -> Self {
        Self {
            default_mode: Some(SandboxMode::ReadOnly),
            fallback_root: None,
            platform: Platform::current(),
        }
    }
}

#[derive(Debug, Clone, Default)]
struct SessionRecord {
    cwd: Option<String>,
    mode: Option<SandboxMode>,
    unavailable: Option<Unresolved>,
    /// The change counter's value at this session's last change.
    revision: u64,
}

/// Per-session policy state: headers, `sandbox/mode` events, and outages.
#[derive(Debug)]
pub struct SessionPolicy {
    defaults: PolicyDefaults,
    /// The default mode now in force: `defaults.default_mode` until
    /// [`SessionPolicy::set_default_mode`] changes it.
    default_mode: RwLock<Option<SandboxMode>>,
    platform: RwLock<Platform>,
    sessions: BoundedMap<SessionId, SessionRecord>,
    unavailable: RwLock<Option<Unresolved>>,
    /// Advanced by every change; a session's revision is the larger of its own
    /// last change and the last change that applies to every session.
    changes: AtomicU64,
    global_revision: AtomicU64,
}

impl SessionPolicy {
    /// A resolver with these deployment defaults, remembering sessions up to
    /// [`DEFAULT_SESSION_CAPACITY`].
    pub fn new(defaults: PolicyDefaults) -> Self {
        Self::with_capacity(defaults, DEFAULT_SESSION_CAPACITY)
    }

    /// A resolver that forgets a session only after `session_capacity` other
    /// sessions were touched since it was (the configuration's `sessionCapacity`).
    pub fn with_capacity(defaults: PolicyDefaults, session_capacity: usize) -> Self {
        Self {
            platform: RwLock::new(defaults.platform),
            default_mode: RwLock::new(defaults.default_mode),
            defaults,
            sessions: BoundedMap::new(session_capacity),
            unavailable: RwLock::new(None),
            changes: AtomicU64::new(0),
            global_revision: AtomicU64::new(0),
        }
    }

    fn next_revision(&self) -> u64 {
        self.changes.fetch_add(1, Ordering::Relaxed) + 1
    }

    fn changed_everywhere(&self) {
        let at = self.next_revision();
        self.global_revision.fetch_max(at, Ordering::Relaxed);
    }

    /// The revision of what [`SessionPolicy::resolve_now`] answers for
    /// `session`: it changes with the session's header, mode or outage, and
    /// with a platform switch or an outage of every session.
    pub fn revision_of(&self, session: &SessionId) -> u64 {
        let own = self.sessions.read(session, |r| r.revision).unwrap_or(0);
        own.max(self.global_revision.load(Ordering::Relaxed))
    }

    /// How many sessions are remembered (at most `capacity + capacity / 8`).
    pub fn remembered_sessions(&self) -> usize {
        self.sessions.len()
    }

    /// The platform whose path grammar recorded paths are read with now.
    pub fn platform(&self) -> Platform {
        *self.platform.read().unwrap_or_else(PoisonError::into_inner)
    }

    /// Switches the path grammar (a recorded stream may announce its host late).
    /// Roots are read at resolution time, so this is O(1).
    pub fn set_platform(&self, platform: Platform) {
        *self
            .platform
            .write()
            .unwrap_or_else(PoisonError::into_inner) = platform;
        self.changed_everywhere();
    }

    /// Replaces the default mode (a stream that announces a host whose mode
    /// nobody stated drops the harness's default); `None`: no default.
    pub fn set_default_mode(&self, mode: Option<SandboxMode>) {
        *self
            .default_mode
            .write()
            .unwrap_or_else(PoisonError::into_inner) = mode;
        self.changed_everywhere();
    }

    /// Records a session header; its `cwd` becomes the session's immutable root.
    /// A second header for the same session does not move the root.
    pub fn open_session(&self, session: &SessionId, cwd: &str) {
        self.sessions
            .upsert(session, SessionRecord::default, |record| {
                if record.cwd.is_none() {
                    record.cwd = Some(cwd.to_owned());
                    record.revision = self.next_revision();
                }
            });
    }

    /// Appends a `sandbox/mode` event; the last one wins.
    pub fn set_mode(&self, session: &SessionId, mode: SandboxMode) {
        self.sessions
            .upsert(session, SessionRecord::default, |record| {
                if record.mode != Some(mode) {
                    record.mode = Some(mode);
                    record.revision = self.next_revision();
                }
            });
    }

    /// From now on, resolution fails for this session.
    pub fn fail_session(&self, session: &SessionId, why: Unresolved) {
        self.sessions
            .upsert(session, SessionRecord::default, |record| {
                record.unavailable = Some(why);
                record.revision = self.next_revision();
            });
    }

    /// From now on, resolution fails for every session.
    pub fn fail_all(&self, why: Unresolved) {
        *self
            .unavailable
            .write()
            .unwrap_or_else(PoisonError::into_inner) = Some(why);
        self.changed_everywhere();
    }

    /// Resolves synchronously (the same rules as the [`PolicySource`] impl).
    pub fn resolve_now(&self, query: PolicyQuery<'_>) -> Result<ResolvedPolicy, Unresolved> {
        if let Some(why) = self
            .unavailable
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
        {
            return Err(why);
        }
        let session = query.session.ok_or(Unresolved::NoSession)?;
        let (cwd, mode) = match self
            .sessions
            .read(session, |record| match &record.unavailable {
                Some(why) => Err(why.clone()),
                None => Ok((record.cwd.clone(), record.mode)),
            }) {
            Some(known) => known?,
            None => (None, None),
        };
        let mode = query
            .approved_mode
            .or(mode)
            .or(*self
                .default_mode
                .read()
                .unwrap_or_else(PoisonError::into_inner))
            .ok_or(Unresolved::NoModeStated)?;
        let root = cwd.or_else(|| self.defaults.fallback_root.clone());
        let workspace_root = root.map(|r| canonical_root(self.platform(), &r));
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

    fn revision(&self, session: &SessionId) -> Option<u64> {
        Some(self.revision_of(session))
    }
}

/// Canonicalizes a root: filesystem semantics first when the path is local to
/// this machine's grammar, exists and is not a UNC spelling; lexical
/// normalization otherwise.
pub fn canonical_root(platform: Platform, raw: &str) -> WorkspaceRoot {
    let style = platform.path_style();
    if style == Platform::current().path_style() && !paths::is_unc_or_device(raw) {
        if let Ok(real) = std::fs::canonicalize(raw) {
            if let Some(text) = real.to_str() {
                // Windows' canonical form is a verbatim `\\?\C:\…` path; the harness's realpath is not.
                let text = paths::strip_verbatim_drive(text);
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
