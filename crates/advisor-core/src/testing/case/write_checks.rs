//! `[checks]` keys of the everyday refusals: the host's mount, Claude Code's
//! writable directories, Codex's configuration, the host's sockets.

use crate::checks::{
    CODEX_UNREADABLE, CodexConfig, CodexSandbox, Judged, MOUNT_UNKNOWN, MountFact,
};
use crate::paths::{HostPath, PathStyle};
use crate::testing::fixture::ChecksSpec;

fn absolute(key: &str, raw: &str) -> Result<HostPath, String> {
    let path = HostPath::lexical(PathStyle::Posix, raw);
    if path.is_absolute() {
        Ok(path)
    } else {
        Err(format!("checks.{key}: `{raw}` is not absolute"))
    }
}

fn paths(key: &str, raw: &[String]) -> Result<Vec<HostPath>, String> {
    raw.iter().map(|p| absolute(key, p)).collect()
}

/// `mount`, `mount_judged`, `mount_user_may_write`.
pub(super) fn mount(spec: &ChecksSpec) -> Result<Option<MountFact>, String> {
    let judged = match spec.mount_judged.as_deref() {
        None | Some("ancestor") => Judged::Ancestor,
        Some("path") => Judged::Path,
        Some(other) => return Err(format!("checks.mount_judged: unknown `{other}`")),
    };
    let Some(mount) = spec.mount.as_deref() else {
        if spec.mount_judged.is_some() || spec.mount_user_may_write.is_some() {
            return Err("checks: `mount_judged`/`mount_user_may_write` need `mount`".into());
        }
        return Ok(None);
    };
    Ok(Some(match mount {
        "writable" => MountFact::Writable {
            judged,
            user_may_write: spec.mount_user_may_write.unwrap_or(true),
        },
        "read-only" => MountFact::ReadOnly { judged },
        code => MountFact::Unknown(
            MOUNT_UNKNOWN
                .iter()
                .find(|c| **c == code)
                .ok_or_else(|| format!("checks.mount: unknown `{code}`"))?,
        ),
    }))
}

/// `mount_cwd`: the call's working directory the mount check had.
pub(super) fn mount_cwd(spec: &ChecksSpec) -> Result<Option<HostPath>, String> {
    match (&spec.mount, spec.mount_cwd.as_deref()) {
        (_, None) => Ok(None),
        (None, Some(_)) => Err("checks: `mount_cwd` needs `mount`".into()),
        (Some(_), Some(raw)) => absolute("mount_cwd", raw).map(Some),
    }
}

/// Claude Code's writable directories: `allow_write`, `claude_tmpdir` and
/// `working_directory`, when `claude_sandbox` is given.
pub(super) struct ClaudeDirs {
    pub allow_write: Vec<HostPath>,
    pub tmpdir: Option<HostPath>,
    pub project_dir: Option<HostPath>,
}

/// Reads [`ClaudeDirs`].
pub(super) fn claude(spec: &ChecksSpec) -> Result<ClaudeDirs, String> {
    let one = |key, raw: Option<&str>| raw.map(|t| absolute(key, t)).transpose();
    Ok(ClaudeDirs {
        allow_write: paths("allow_write", &spec.allow_write)?,
        tmpdir: one("claude_tmpdir", spec.claude_tmpdir.as_deref())?,
        project_dir: one("working_directory", spec.working_directory.as_deref())?,
    })
}

/// Whether any Claude Code key but `claude_sandbox` is given.
pub(super) fn claude_keys(spec: &ChecksSpec) -> bool {
    !spec.allow_write.is_empty() || spec.claude_tmpdir.is_some()
}

/// `codex_config` and the keys it needs.
pub(super) fn codex(spec: &ChecksSpec) -> Result<Option<CodexConfig>, String> {
    let keys = spec.codex_mode.is_some()
        || !spec.writable_roots.is_empty()
        || spec.network_access.is_some()
        || spec.exclude_slash_tmp
        || spec.exclude_tmpdir_env_var
        || spec.codex_tmpdir.is_some()
        || (spec.working_directory.is_some() && spec.claude_sandbox.is_none());
    match spec.codex_config.as_deref() {
        None if keys => Err("checks: Codex's keys need `codex_config = \"read\"`".into()),
        None => Ok(None),
        Some("read") => Ok(Some(CodexConfig::Read(CodexSandbox {
            mode: spec
                .codex_mode
                .as_deref()
                .map(str::parse)
                .transpose()
                .map_err(|e| format!("checks.codex_mode: {e}"))?,
            writable_roots: paths("writable_roots", &spec.writable_roots)?,
            network_access: spec.network_access,
            exclude_tmpdir_env_var: spec.exclude_tmpdir_env_var,
            exclude_slash_tmp: spec.exclude_slash_tmp,
            tmpdir: spec
                .codex_tmpdir
                .as_deref()
                .map(|t| absolute("codex_tmpdir", t))
                .transpose()?,
            cwd: spec
                .working_directory
                .as_deref()
                .map(|t| absolute("working_directory", t))
                .transpose()?,
        }))),
        Some(_) if keys => Err("checks: Codex's keys need `codex_config = \"read\"`".into()),
        Some(code) => Ok(Some(CodexConfig::Unreadable(
            CODEX_UNREADABLE
                .iter()
                .find(|c| **c == code)
                .ok_or_else(|| format!("checks.codex_config: unknown `{code}`"))?,
        ))),
    }
}
