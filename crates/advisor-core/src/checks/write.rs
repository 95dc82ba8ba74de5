//! The facts the everyday refusals need: the host's own mount at a refused
//! path, and Codex's own configuration.

use crate::environment::SandboxMode;
use crate::paths::HostPath;

/// Which file the mount was read at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Judged {
    /// The path itself, which exists.
    Path,
    /// Its nearest existing ancestor: the path does not exist.
    Ancestor,
}

/// The host's own mount at a path ([`Check::MountAt`](super::Check::MountAt)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MountFact {
    /// Mounted read-write.
    Writable {
        /// Where it was read.
        judged: Judged,
        /// Whether this user may write there (create in it, for an
        /// ancestor), by the kernel's own access check.
        user_may_write: bool,
    },
    /// Mounted read-only (`ST_RDONLY`).
    ReadOnly {
        /// Where it was read.
        judged: Judged,
    },
    /// Not read; the kebab-case code says why (a link on the way, a hung
    /// mount, no permission to look).
    Unknown(&'static str),
}

/// The codes a [`MountFact::Unknown`] may carry (the hook's `hook::mount`;
/// `mount-check-unsupported` off Unix, where the mount is not read).
pub const MOUNT_UNKNOWN: &[&str] = &[
    "path-not-absolute",
    "path-through-link",
    "path-unreadable",
    "path-unusual",
    "mount-check-timed-out",
    "mount-check-not-started",
    "mount-check-unsupported",
];

/// The codes a [`CodexConfig::Unreadable`] may carry.
pub const CODEX_UNREADABLE: &[&str] = &[
    "codex-home-unknown",
    "codex-config-not-readable",
    "codex-config-not-toml",
    "codex-config-wrong-type",
    "codex-config-unknown-mode",
    "codex-config-relative-root",
];

/// The most writable roots kept from Codex's configuration.
pub const ROOTS_MAX: usize = 64;

/// The sandbox part of Codex's configuration, as its files say it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CodexSandbox {
    /// The mode Codex runs when its command line says none: `sandbox_mode`
    /// (the selected profile's first), else its default for the project's
    /// trust (`workspace-write` when trusted, `read-only` otherwise).
    pub mode: Option<SandboxMode>,
    /// `sandbox_workspace_write.writable_roots`, absolute, at most [`ROOTS_MAX`].
    pub writable_roots: Vec<HostPath>,
    /// `sandbox_workspace_write.network_access`; `None` when unset (off).
    pub network_access: Option<bool>,
    /// `sandbox_workspace_write.exclude_tmpdir_env_var`.
    pub exclude_tmpdir_env_var: bool,
    /// `sandbox_workspace_write.exclude_slash_tmp`.
    pub exclude_slash_tmp: bool,
    /// `$TMPDIR` of the client's process (the hook inherits it), when absolute.
    pub tmpdir: Option<HostPath>,
    /// The session's working directory (the payload's `cwd`), when absolute:
    /// the workspace `workspace-write` makes writable.
    pub cwd: Option<HostPath>,
}

/// Codex's configuration ([`Check::CodexConfig`](super::Check::CodexConfig)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CodexConfig {
    /// Its files, read (absent files are read as empty).
    Read(CodexSandbox),
    /// A file could not be read as Codex reads it; the kebab-case code says
    /// why (a link, another owner, too large, not TOML, a key of the wrong type).
    Unreadable(&'static str),
}
