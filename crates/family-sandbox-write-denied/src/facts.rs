//! What the gate, the brief and the detail all read: the client's sandbox
//! as its own configuration and the hook's checks describe it, the path
//! made absolute, and the decision codes.
//!
//! The writable roots the advisor knows, per client:
//!
//! | client | writable roots |
//! |---|---|
//! | Claude Code (sandbox on) | the working directory; `sandbox.filesystem.allowWrite` of every settings layer; `$CLAUDE_TMPDIR`, the temporary directory it sets for commands (`/tmp` itself is read-only, recorded in `docs/hooks/claude-code/sandbox-write-tmp`) |
//! | Codex `workspace-write` | the working directory; `sandbox_workspace_write.writable_roots`; `/tmp` unless `exclude_slash_tmp`; `$TMPDIR` unless `exclude_tmpdir_env_var` |
//! | Codex `read-only` | none |
//! | Gemini CLI (a result it marked) | the working directory but its `.git` (unless the command runs git); the sandbox's own `/tmp` (the `gemini` module) |
//!
//! Codex's `--add-dir` and `-c` overrides are on its command line, which the
//! hook cannot see; a write inside such a root is not refused, so the
//! only cost is that a refusal inside one (a real read-only mount, which the
//! mount check catches first) is not declined by this table.

use advisor_core::{
    ClaudeSandbox, CodexConfig, Containment, Environment, Host, HostPath, MountFact, PathStyle,
    SandboxMode, Unresolved, WithholdReason,
};

use crate::recognize::{Finding, Mark, Place};

/// Declined: the sandbox is off in Claude Code's settings.
pub const SANDBOX_OFF: &str = "sandbox-off";
/// Declined: `danger-full-access` confines nothing.
pub const UNCONFINED: &str = "unconfined-mode";
/// Declined: the host's own mount is read-only; that refused the write.
pub const HOST_READ_ONLY: &str = "host-mount-read-only";
/// Declined: the path lies inside a root the sandbox lets commands write;
/// something else refused it (a protected path, a mount of its own).
pub const INSIDE_ROOT: &str = "inside-writable-root";
/// Withheld: Claude Code's settings could not all be read.
pub const CLAUDE_SETTINGS_UNREADABLE: &str = "claude-settings-unreadable";
/// Withheld: Codex's configuration could not be read.
pub const CODEX_CONFIG_UNREADABLE: &str = "codex-config-unreadable";
/// Withheld: a relative path printed after the command changed directory.
pub const AFTER_CD: &str = "relative-path-after-directory-change";
/// Withheld: the session reported no absolute working directory.
pub const NO_ROOT: &str = "no-absolute-working-directory";
/// Withheld: the hook did not check the host's mount (no probe: `serve`,
/// `replay`, `explain`; or another platform than the host's own).
pub const MOUNT_NOT_CHECKED: &str = "mount-not-checked";

/// How the client's sandbox confines writes, as the advisor knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Confinement {
    /// Codex's `read-only`: every write is refused.
    ReadOnlyMode,
    /// Writes are refused outside these roots.
    OutsideRoots(Vec<Root>),
}

/// One writable root and where the advisor learned it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Root {
    /// The directory.
    pub path: HostPath,
    /// Where it comes from.
    pub kind: RootKind,
}

/// Where a writable root comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootKind {
    /// The session's working directory.
    Workspace,
    /// The client's configuration (`allowWrite`, `writable_roots`).
    Configured,
    /// A temporary directory the client keeps writable.
    Temporary,
}

/// What the gate decides before speaking, when it does not speak.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Not {
    /// Withhold, with the reason.
    Withhold(WithholdReason),
    /// Decline, with the code.
    Decline(&'static str),
}

fn posix(raw: &str) -> Option<HostPath> {
    let path = HostPath::lexical(PathStyle::Posix, raw);
    path.is_absolute().then_some(path)
}

/// The session's working directory (the workspace root), absolute: the
/// resolved policy's root, else the one the client's facts name (Claude
/// Code's project directory, Codex's `cwd`, the payload's `cwd` the mount
/// check had), which need no stated mode.
pub fn workspace(env: &Environment) -> Result<HostPath, Not> {
    let resolved = env
        .policy()
        .ok()
        .and_then(|p| p.workspace_root.as_ref())
        .map(|root| root.path().as_str().to_owned());
    let known = match (&env.checks.claude_sandbox, &env.checks.codex_config) {
        (Some(claude), _) => claude.project_dir.clone(),
        (None, Some(CodexConfig::Read(codex))) => codex.cwd.clone(),
        // Gemini CLI: the payload's `cwd`, which the mount check had.
        (None, None) if env.host.kind == Host::GeminiCli => env.checks.working_directory.clone(),
        _ => None,
    };
    match (resolved, known) {
        (Some(root), _) => posix(&root).ok_or(Not::Withhold(WithholdReason::Other(NO_ROOT))),
        (None, Some(dir)) => Ok(dir),
        (None, None) => Err(Not::Withhold(WithholdReason::NoWorkspaceRoot)),
    }
}

/// The refused path, absolute: as printed, or a relative one resolved
/// against the working directory.
pub fn absolute(finding: &Finding, env: &Environment) -> Result<HostPath, Not> {
    match &finding.place {
        Place::Absolute(path) => Ok(path.clone()),
        Place::AfterDirectoryChange => Err(Not::Withhold(WithholdReason::Other(AFTER_CD))),
        Place::Relative => {
            let root = workspace(env)?;
            let joined = format!("{}/{}", root.as_str(), finding.path.inspect());
            posix(&joined).ok_or(Not::Withhold(WithholdReason::Other(NO_ROOT)))
        }
    }
}

/// The session's mode for Codex: the stated one (`--mode`, `defaultMode`),
/// else `sandbox_mode` of its configuration.
pub fn codex_mode(env: &Environment) -> Result<SandboxMode, Not> {
    match env.mode() {
        Ok(mode) => Ok(mode),
        Err(Unresolved::NoModeStated) => match &env.checks.codex_config {
            Some(CodexConfig::Read(config)) => config.mode.ok_or(Not::Withhold(
                WithholdReason::Unresolved(Unresolved::NoModeStated),
            )),
            Some(CodexConfig::Unreadable(_)) | None => Err(Not::Withhold(WithholdReason::Other(
                CODEX_CONFIG_UNREADABLE,
            ))),
        },
        Err(why) => Err(Not::Withhold(WithholdReason::Unresolved(why))),
    }
}

/// How the client's sandbox confines writes in this session.
pub fn confinement(finding: &Finding, env: &Environment) -> Result<Confinement, Not> {
    match env.host.kind {
        Host::Codex => codex(env),
        Host::ClaudeCode => claude(env),
        Host::GeminiCli => gemini(finding, env),
        // Not among this family's hosts (never asked here).
        Host::Dsh => Err(Not::Decline(UNCONFINED)),
    }
}

fn root(path: HostPath, kind: RootKind) -> Root {
    Root { path, kind }
}

fn codex(env: &Environment) -> Result<Confinement, Not> {
    match codex_mode(env)? {
        SandboxMode::DangerFullAccess => return Err(Not::Decline(UNCONFINED)),
        SandboxMode::ReadOnly => return Ok(Confinement::ReadOnlyMode),
        SandboxMode::WorkspaceWrite => {}
    }
    let Some(CodexConfig::Read(config)) = &env.checks.codex_config else {
        return Err(Not::Withhold(WithholdReason::Other(
            CODEX_CONFIG_UNREADABLE,
        )));
    };
    let mut roots = vec![root(workspace(env)?, RootKind::Workspace)];
    roots.extend(
        config
            .writable_roots
            .iter()
            .map(|p| root(p.clone(), RootKind::Configured)),
    );
    if !config.exclude_slash_tmp {
        roots.extend(posix("/tmp").map(|p| root(p, RootKind::Temporary)));
    }
    if !config.exclude_tmpdir_env_var {
        roots.extend(config.tmpdir.clone().map(|p| root(p, RootKind::Temporary)));
    }
    Ok(Confinement::OutsideRoots(distinct(roots)))
}

fn claude(env: &Environment) -> Result<Confinement, Not> {
    let Some(ClaudeSandbox {
        enabled,
        allow_write,
        tmpdir,
        ..
    }) = &env.checks.claude_sandbox
    else {
        return Err(Not::Withhold(WithholdReason::Other(
            CLAUDE_SETTINGS_UNREADABLE,
        )));
    };
    match enabled {
        Some(true) => {}
        Some(false) => return Err(Not::Decline(SANDBOX_OFF)),
        None => {
            return Err(Not::Withhold(WithholdReason::Other(
                CLAUDE_SETTINGS_UNREADABLE,
            )));
        }
    }
    let mut roots = vec![root(workspace(env)?, RootKind::Workspace)];
    roots.extend(
        allow_write
            .iter()
            .map(|p| root(p.clone(), RootKind::Configured)),
    );
    roots.extend(tmpdir.clone().map(|p| root(p, RootKind::Temporary)));
    Ok(Confinement::OutsideRoots(distinct(roots)))
}

/// `roots` without a directory named twice (the first naming kept).
fn distinct(roots: Vec<Root>) -> Vec<Root> {
    let mut kept: Vec<Root> = Vec::with_capacity(roots.len());
    for r in roots {
        if !kept.iter().any(|k| k.path == r.path) {
            kept.push(r);
        }
    }
    kept
}

/// The first root that holds `path` (or is it).
pub fn holding<'r>(path: &HostPath, roots: &'r [Root]) -> Option<&'r Root> {
    roots
        .iter()
        .find(|r| path.relation_to(&r.path) != Containment::Outside)
}

// ---- Gemini CLI (its facts; its brief is the `gemini` module) ------------------------

/// Declined: Gemini CLI did not mark the result as its sandbox's refusal.
pub const NOT_MARKED: &str = "not-marked";

/// The directory Gemini keeps read-only inside the workspace for commands
/// that do not run `git`.
pub const GIT_DIR: &str = ".git";

/// The writable roots of a result Gemini marked: the workspace and the
/// sandbox's own `/tmp`; a declined result without the mark.
pub fn gemini(finding: &Finding, env: &Environment) -> Result<Confinement, Not> {
    if finding.mark != Mark::SandboxExpansion {
        return Err(Not::Decline(NOT_MARKED));
    }
    let roots = vec![
        Root {
            path: workspace(env)?,
            kind: RootKind::Workspace,
        },
        Root {
            path: HostPath::lexical(PathStyle::Posix, "/tmp"),
            kind: RootKind::Temporary,
        },
    ];
    Ok(Confinement::OutsideRoots(roots))
}

/// The workspace's `.git` when `path` lies in it and the command does not
/// run git: the one place inside the workspace Gemini's sandbox keeps
/// read-only. `None` for every other path, and for any other host.
pub fn kept_git_dir(finding: &Finding, path: &HostPath, env: &Environment) -> Option<HostPath> {
    if env.host.kind != Host::GeminiCli
        || finding.mark != Mark::SandboxExpansion
        || finding.runs_git
    {
        return None;
    }
    let root = workspace(env).ok()?;
    let git = HostPath::lexical(PathStyle::Posix, &format!("{}/{GIT_DIR}", root.as_str()));
    (path.relation_to(&git) != Containment::Outside).then_some(git)
}

/// Whether the refused path lies in the workspace's `.git`, kept read-only
/// from this command ([`kept_git_dir`]).
pub fn in_git_dir(finding: &Finding, env: &Environment) -> bool {
    absolute(finding, env)
        .ok()
        .and_then(|path| kept_git_dir(finding, &path, env))
        .is_some()
}

/// Whether the host says this user could write there outside the sandbox.
pub fn user_may_write(env: &Environment) -> bool {
    !matches!(
        env.checks.mount,
        Some(MountFact::Writable {
            user_may_write: false,
            ..
        })
    )
}
