//! What a family may know about where a failure happened: the host, and the
//! session's resolved sandbox policy.

use std::fmt;
use std::str::FromStr;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use crate::ids::SessionId;
use crate::paths::{HostPath, PathStyle};

/// The operating system of the host that produced the events.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Platform {
    /// Windows (`process.platform === 'win32'`).
    Win32,
    /// Linux.
    Linux,
    /// macOS.
    Macos,
}

impl Platform {
    /// The platform this process runs on.
    pub fn current() -> Self {
        if cfg!(windows) {
            Platform::Win32
        } else if cfg!(target_os = "macos") {
            Platform::Macos
        } else {
            Platform::Linux
        }
    }

    /// The path grammar of this platform.
    pub fn path_style(self) -> PathStyle {
        match self {
            Platform::Win32 => PathStyle::Windows,
            Platform::Linux | Platform::Macos => PathStyle::Posix,
        }
    }

    /// The id used in the protocol and in text (`win32`, `linux`, `macos`).
    pub fn as_str(self) -> &'static str {
        match self {
            Platform::Win32 => "win32",
            Platform::Linux => "linux",
            Platform::Macos => "macos",
        }
    }
}

/// Whether the host process is an Electron binary — a measured fact, not an assumption.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HostBinary {
    /// A GUI-subsystem Electron executable (the packaged desktop app).
    Electron,
    /// Anything else (a console-subsystem `node`, this CLI, a Rust harness).
    NotElectron,
}

/// Facts about the host that produced the events, supplied by the harness.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostFacts {
    /// The agent host whose tool pipeline produced the events.
    pub kind: crate::Host,
    /// The host's operating system.
    pub platform: Platform,
    /// Whether the host process is an Electron binary.
    pub binary: HostBinary,
    /// The host's temp directory (`os.tmpdir()` on the producing host), when known.
    pub temp_dir: Option<String>,
}

impl HostFacts {
    /// The facts of the process this code runs in, as a DeepSeek-harness host.
    pub fn current() -> Self {
        Self {
            kind: crate::Host::Dsh,
            platform: Platform::current(),
            binary: HostBinary::NotElectron,
            temp_dir: std::env::temp_dir().to_str().map(str::to_owned),
        }
    }

    /// True on a Windows host.
    pub fn is_windows(&self) -> bool {
        self.platform == Platform::Win32
    }
}

/// The harness's closed sandbox-mode vocabulary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SandboxMode {
    /// Every write is denied.
    ReadOnly,
    /// Writes are allowed below the workspace root.
    WorkspaceWrite,
    /// No confinement at all.
    DangerFullAccess,
}

impl SandboxMode {
    /// Every mode, in the harness's order.
    pub const ALL: [SandboxMode; 3] = [
        SandboxMode::ReadOnly,
        SandboxMode::WorkspaceWrite,
        SandboxMode::DangerFullAccess,
    ];

    /// The mode's wire spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            SandboxMode::ReadOnly => "read-only",
            SandboxMode::WorkspaceWrite => "workspace-write",
            SandboxMode::DangerFullAccess => "danger-full-access",
        }
    }

    /// True for the modes that spawn commands through the sandbox.
    pub fn confines(self) -> bool {
        !matches!(self, SandboxMode::DangerFullAccess)
    }
}

impl fmt::Display for SandboxMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A mode spelling outside the closed vocabulary.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown sandbox mode {0:?} (expected read-only, workspace-write or danger-full-access)")]
pub struct UnknownMode(pub String);

impl FromStr for SandboxMode {
    type Err = UnknownMode;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        SandboxMode::ALL
            .into_iter()
            .find(|m| m.as_str() == s)
            .ok_or_else(|| UnknownMode(s.to_owned()))
    }
}

/// The session's workspace root, as the policy resolver reports it (canonical).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct WorkspaceRoot(HostPath);

impl WorkspaceRoot {
    /// Wraps a resolved root.
    pub fn new(path: HostPath) -> Self {
        Self(path)
    }

    /// The root as a host path.
    pub fn path(&self) -> &HostPath {
        &self.0
    }
}

impl fmt::Display for WorkspaceRoot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// One complete per-call policy, as the resolver returned it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedPolicy {
    /// The effective mode.
    pub mode: SandboxMode,
    /// The workspace root; a third-party resolver may not report one.
    pub workspace_root: Option<WorkspaceRoot>,
}

/// Why the policy could not be resolved. Never a cue to use the deployment default.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unresolved {
    /// No policy service is mounted.
    #[error("no sandbox policy service is mounted")]
    NoPolicyService,
    /// The call carries no session to resolve against.
    #[error("the call has no session")]
    NoSession,
    /// Nobody stated the session's sandbox mode: no `--mode`, no mode event,
    /// no configured default. A mode is never assumed in its place.
    #[error(
        "nobody stated the session's sandbox mode (no --mode, no sandbox-mode event, no defaultMode)"
    )]
    NoModeStated,
    /// The resolver failed; its message is the resolver's, not the advisor's.
    #[error("the policy resolver failed: {}", .0.escaped())]
    ResolverError(crate::Untrusted),
}

impl Unresolved {
    /// The stable kebab-case code used on the host log and in the protocol.
    pub fn code(&self) -> &'static str {
        match self {
            Unresolved::NoPolicyService => "no-policy-service",
            Unresolved::NoSession => "no-session",
            Unresolved::NoModeStated => "no-mode-stated",
            Unresolved::ResolverError(_) => "resolver-error",
        }
    }
}

/// The state of the session's policy as a family sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PolicyState {
    /// No family asked for it, so the resolver was not consulted.
    NotConsulted,
    /// The resolver answered.
    Resolved(ResolvedPolicy),
    /// The resolver could not answer.
    Unresolved(Unresolved),
}

/// What a family needs resolved before it can decide.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PolicyNeed {
    /// The finding speaks for itself; do not consult the resolver.
    NotNeeded,
    /// Resolve the session's mode and root first.
    Required,
}

/// The question put to a policy resolver for one call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PolicyQuery<'a> {
    /// The call's session, when it has one.
    pub session: Option<&'a SessionId>,
    /// An explicit approved mode for this call, which outranks the session's own.
    pub approved_mode: Option<SandboxMode>,
}

/// A source of per-call sandbox policy (the harness's `ctx.sandboxPolicy`).
#[async_trait]
pub trait PolicySource: Send + Sync {
    /// Resolves one complete policy, or says why it cannot.
    async fn resolve(&self, query: PolicyQuery<'_>) -> Result<ResolvedPolicy, Unresolved>;

    /// A number that changes whenever what `resolve` answers for `session`
    /// may have changed (its mode, its root, an outage). The pre-flight seat
    /// keeps a session's verdicts only while this number stays the same, so a
    /// session switched to `danger-full-access` is not advised from a verdict
    /// computed under its old mode. `None` (the default) means the source
    /// cannot tell: verdicts are then kept for as long as the session is
    /// remembered.
    fn revision(&self, _session: &SessionId) -> Option<u64> {
        None
    }
}

/// A composition with no policy service mounted: every query is unresolvable.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoPolicyService;

#[async_trait]
impl PolicySource for NoPolicyService {
    async fn resolve(&self, _query: PolicyQuery<'_>) -> Result<ResolvedPolicy, Unresolved> {
        Err(Unresolved::NoPolicyService)
    }
}

/// Everything a family's gate and advice may consult.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Environment {
    /// Facts about the producing host.
    pub host: HostFacts,
    /// The session's policy, resolved lazily.
    pub policy: PolicyState,
    /// When set, advisories cite this address instead of discussion numbers.
    pub href: Option<String>,
    /// The language of the summary and the brief.
    pub locale: crate::Locale,
    /// The desktop app's version, only when the deployment configured it
    /// (`hostVersion`); nothing in the process tells it.
    pub host_version: Option<crate::HostVersion>,
    /// What the host probe checked outside the sandbox for this finding
    /// (only what the family asked for; all unknown without a probe).
    pub checks: crate::HostChecks,
}

impl Environment {
    /// The resolved mode, or why there is none.
    pub fn mode(&self) -> Result<SandboxMode, Unresolved> {
        match &self.policy {
            PolicyState::Resolved(p) => Ok(p.mode),
            PolicyState::Unresolved(u) => Err(u.clone()),
            PolicyState::NotConsulted => Err(Unresolved::NoPolicyService),
        }
    }

    /// The resolved policy, or why there is none.
    pub fn policy(&self) -> Result<&ResolvedPolicy, Unresolved> {
        match &self.policy {
            PolicyState::Resolved(p) => Ok(p),
            PolicyState::Unresolved(u) => Err(u.clone()),
            PolicyState::NotConsulted => Err(Unresolved::NoPolicyService),
        }
    }

    /// How the configured desktop version stands against the release `fixed_in`.
    pub fn desktop_version(&self, fixed_in: crate::HostVersion) -> crate::VersionFact {
        crate::VersionFact::of(self.host_version, fixed_in)
    }

    /// Cites discussion numbers (`#7735`), or the configured `href` in their place.
    pub fn cite(&self, discussions: &[&str]) -> String {
        match &self.href {
            Some(href) => href.clone(),
            None => discussions.join(", "),
        }
    }
}
