//! The sandbox part of Codex's own configuration, read as Codex reads it.
//!
//! Codex (0.171.0) builds its configuration from layers, each overriding
//! the one before (`codex-rs/core/src/config_loader/mod.rs`,
//! `load_config_layers_state`): `/etc/codex/config.toml`; the user's
//! `$CODEX_HOME/config.toml` (`~/.codex/config.toml`); in a trusted project,
//! `.codex/config.toml` of each directory from the project's root (the
//! nearest directory above the working directory holding `.git`) down to
//! the working directory; the profile the result selects (`profile =
//! "<name>"`, its `[profiles.<name>]` table); then the command line (`-c
//! key=value`, `--sandbox`, `--add-dir`, `--profile`). The hook sees the
//! files, and Codex's own command line ([`codex_cli`]), which outranks them.
//! From them it reads:
//!
//! | key | meaning |
//! |---|---|
//! | `sandbox_mode` (top level, or in the selected profile) | `read-only`, `workspace-write` or `danger-full-access` |
//! | `[sandbox_workspace_write]` `writable_roots` | more writable directories (absolute paths) |
//! | `[sandbox_workspace_write]` `network_access` | sockets allowed under `workspace-write` (default false) |
//! | `[sandbox_workspace_write]` `exclude_tmpdir_env_var`, `exclude_slash_tmp` | `$TMPDIR`, `/tmp` not writable (default false) |
//!
//! A project's files apply only when the user's file marks the project (the
//! working directory, or the project's root) `trust_level = "trusted"` under
//! `[projects."<dir>"]`. Measured with `codex exec` 0.171.0
//! (`.ci/clients.sh scenario … sandbox=config`): an untrusted project's
//! `.codex/config.toml` is ignored; a trusted one's applies; with no
//! `sandbox_mode` anywhere, a trusted project runs `workspace-write` and an
//! untrusted one `read-only` ([`effective_mode`]). A relative writable root
//! is resolved against the directory of the file that names it, as Codex
//! resolves it.
//!
//! A key of the wrong type or an unknown mode makes the file unreadable as a
//! whole: the advisor does not guess what Codex would make of it (Codex
//! itself refuses to start on it). Every list is bounded ([`ROOTS_MAX`]).

use std::path::{Path, PathBuf};

use advisor_core::{CodexConfig, CodexSandbox, HostPath, PathStyle, SandboxMode};

use super::files::{Owner, read_no_follow};
use super::{Inputs, codex_cli};

/// The most writable roots kept from one file.
pub const ROOTS_MAX: usize = advisor_core::ROOTS_MAX;

/// The largest `config.toml` read; a larger one is unreadable.
pub const CONFIG_MAX_BYTES: u64 = 256 * 1024;

/// The most directories walked up from the working directory to find the
/// project's root, and so the most project layers read.
pub const PROJECT_DEPTH_MAX: usize = 64;

/// Codex's system-wide file, the lowest layer.
pub const SYSTEM_CONFIG: &str = "/etc/codex/config.toml";

/// One file's sandbox keys, each `None` when the file does not set it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Layer {
    /// `sandbox_mode`.
    pub sandbox_mode: Option<SandboxMode>,
    /// `profile`, and the mode its table sets, if any.
    pub profile: Option<(String, Option<SandboxMode>)>,
    /// The profiles' modes this file defines, by name.
    pub profile_modes: Vec<(String, SandboxMode)>,
    /// `sandbox_workspace_write.writable_roots`.
    pub writable_roots: Option<Vec<HostPath>>,
    /// `sandbox_workspace_write.network_access`.
    pub network_access: Option<bool>,
    /// `sandbox_workspace_write.exclude_tmpdir_env_var`.
    pub exclude_tmpdir_env_var: Option<bool>,
    /// `sandbox_workspace_write.exclude_slash_tmp`.
    pub exclude_slash_tmp: Option<bool>,
    /// The directories `[projects."<dir>"]` marks trusted (the user's file).
    pub trusted_projects: Vec<String>,
}

/// Why a file could not be read as Codex's configuration; names the key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unreadable {
    /// Not TOML.
    #[error("not TOML: {0}")]
    NotToml(String),
    /// A key of the wrong type.
    #[error("`{0}` has the wrong type")]
    WrongType(&'static str),
    /// A mode Codex does not have.
    #[error("`{0}` names no sandbox mode")]
    UnknownMode(&'static str),
    /// A writable root that is not absolute, even against its file's directory.
    #[error("`sandbox_workspace_write.writable_roots` holds a path that is not absolute")]
    RelativeRoot,
}

fn mode(key: &'static str, value: &toml::Value) -> Result<SandboxMode, Unreadable> {
    value
        .as_str()
        .ok_or(Unreadable::WrongType(key))?
        .parse()
        .map_err(|_| Unreadable::UnknownMode(key))
}

fn flag(key: &'static str, value: Option<&toml::Value>) -> Result<Option<bool>, Unreadable> {
    value
        .map(|v| v.as_bool().ok_or(Unreadable::WrongType(key)))
        .transpose()
}

/// Reads one `config.toml`'s sandbox keys; `dir` is the file's directory,
/// against which a relative writable root is resolved.
pub fn layer(text: &str, dir: &str) -> Result<Layer, Unreadable> {
    let table: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| Unreadable::NotToml(e.message().to_owned()))?;
    let mut out = Layer::default();
    if let Some(v) = table.get("sandbox_mode") {
        out.sandbox_mode = Some(mode("sandbox_mode", v)?);
    }
    if let Some(profiles) = table.get("profiles") {
        let profiles = profiles
            .as_table()
            .ok_or(Unreadable::WrongType("profiles"))?;
        for (name, profile) in profiles.iter().take(ROOTS_MAX) {
            let profile = profile
                .as_table()
                .ok_or(Unreadable::WrongType("profiles.<name>"))?;
            if let Some(v) = profile.get("sandbox_mode") {
                let m = mode("profiles.<name>.sandbox_mode", v)?;
                out.profile_modes.push((name.clone(), m));
            }
        }
    }
    if let Some(v) = table.get("profile") {
        let name = v.as_str().ok_or(Unreadable::WrongType("profile"))?;
        out.profile = Some((name.to_owned(), None));
    }
    if let Some(sww) = table.get("sandbox_workspace_write") {
        let sww = sww
            .as_table()
            .ok_or(Unreadable::WrongType("sandbox_workspace_write"))?;
        if let Some(roots) = sww.get("writable_roots") {
            const KEY: &str = "sandbox_workspace_write.writable_roots";
            let roots = roots.as_array().ok_or(Unreadable::WrongType(KEY))?;
            let mut kept = Vec::new();
            for root in roots.iter().take(ROOTS_MAX) {
                let root = root.as_str().ok_or(Unreadable::WrongType(KEY))?;
                let path = if root.starts_with('/') {
                    HostPath::lexical(PathStyle::Posix, root)
                } else {
                    HostPath::lexical(PathStyle::Posix, &format!("{dir}/{root}"))
                };
                if !path.is_absolute() {
                    return Err(Unreadable::RelativeRoot);
                }
                kept.push(path);
            }
            out.writable_roots = Some(kept);
        }
        out.network_access = flag(
            "sandbox_workspace_write.network_access",
            sww.get("network_access"),
        )?;
        out.exclude_tmpdir_env_var = flag(
            "sandbox_workspace_write.exclude_tmpdir_env_var",
            sww.get("exclude_tmpdir_env_var"),
        )?;
        out.exclude_slash_tmp = flag(
            "sandbox_workspace_write.exclude_slash_tmp",
            sww.get("exclude_slash_tmp"),
        )?;
    }
    if let Some(projects) = table.get("projects") {
        let projects = projects
            .as_table()
            .ok_or(Unreadable::WrongType("projects"))?;
        for (dir, project) in projects.iter().take(ROOTS_MAX) {
            let trusted = project
                .as_table()
                .and_then(|p| p.get("trust_level"))
                .and_then(toml::Value::as_str)
                == Some("trusted");
            if trusted {
                out.trusted_projects.push(dir.clone());
            }
        }
    }
    Ok(out)
}

/// The effective sandbox keys of the user's layer and, when it applies, the
/// project's: a later layer's key replaces an earlier one's; the selected
/// profile's mode replaces `sandbox_mode`.
pub fn merge(layers: &[&Layer]) -> Layer {
    let mut out = Layer::default();
    for layer in layers {
        macro_rules! over {
            ($($field:ident),*) => { $(if layer.$field.is_some() { out.$field = layer.$field.clone(); })* };
        }
        over!(
            sandbox_mode,
            profile,
            writable_roots,
            network_access,
            exclude_tmpdir_env_var,
            exclude_slash_tmp
        );
        out.profile_modes
            .extend(layer.profile_modes.iter().cloned());
    }
    if let Some((name, selected)) = &mut out.profile {
        *selected = out
            .profile_modes
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, m)| *m);
        if let Some(m) = selected {
            out.sandbox_mode = Some(*m);
        }
    }
    out
}

/// Whether the user's layer trusts `dir` (named exactly, after lexical normalization).
pub fn trusts(user: &Layer, dir: &HostPath) -> bool {
    user.trusted_projects
        .iter()
        .any(|t| HostPath::lexical(PathStyle::Posix, t) == *dir)
}

/// The mode Codex runs when nothing on its command line says: the merged
/// `sandbox_mode`, else `workspace-write` in a trusted project and
/// `read-only` in an untrusted one (measured, see the module doc).
pub fn effective_mode(merged: &Layer, trusted: bool) -> SandboxMode {
    merged.sandbox_mode.unwrap_or(if trusted {
        SandboxMode::WorkspaceWrite
    } else {
        SandboxMode::ReadOnly
    })
}

impl Unreadable {
    /// The stable kebab-case code (`advisor_core::CODEX_UNREADABLE`).
    pub fn code(&self) -> &'static str {
        match self {
            Unreadable::NotToml(_) => "codex-config-not-toml",
            Unreadable::WrongType(_) => "codex-config-wrong-type",
            Unreadable::UnknownMode(_) => "codex-config-unknown-mode",
            Unreadable::RelativeRoot => "codex-config-relative-root",
        }
    }
}

/// One file read as a layer: absent is empty; a link, another owner, a
/// larger file or bad UTF-8 is unreadable.
fn read_layer(file: &Path) -> Result<Layer, &'static str> {
    let bytes = match read_no_follow(file, CONFIG_MAX_BYTES, Owner::ThisUser) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return Ok(Layer::default()),
        Err(_) => return Err("codex-config-not-readable"),
    };
    let text = std::str::from_utf8(&bytes).map_err(|_| "codex-config-not-readable")?;
    let dir = file.parent().and_then(Path::to_str).unwrap_or("/");
    layer(text, dir).map_err(|e| e.code())
}

/// The project's root for `cwd`: the nearest directory at or above it
/// holding `.git` (Codex's default marker), else `cwd` itself.
fn project_root(cwd: &Path) -> PathBuf {
    cwd.ancestors()
        .take(PROJECT_DEPTH_MAX)
        .find(|dir| std::fs::symlink_metadata(dir.join(".git")).is_ok())
        .unwrap_or(cwd)
        .to_path_buf()
}

/// Codex's configuration as its files say it for a session in `env.cwd`.
pub(super) fn codex_config(env: &Inputs) -> CodexConfig {
    let Some(home) = env
        .codex_home
        .clone()
        .or_else(|| env.home.as_ref().map(|h| h.join(".codex")))
        .filter(|h| h.is_absolute())
    else {
        return CodexConfig::Unreadable("codex-home-unknown");
    };
    match read_all(&home, env) {
        Ok(config) => CodexConfig::Read(config),
        Err(code) => CodexConfig::Unreadable(code),
    }
}

fn read_all(home: &Path, env: &Inputs) -> Result<CodexSandbox, &'static str> {
    let system = read_layer(Path::new(SYSTEM_CONFIG))?;
    let user = read_layer(&home.join("config.toml"))?;
    let mut layers = vec![system, user.clone()];
    let cwd = env.cwd.as_deref().filter(|c| c.is_absolute());
    let mut trusted = false;
    if let Some(cwd) = cwd {
        let root = project_root(cwd);
        let posix = |p: &Path| p.to_str().map(|s| HostPath::lexical(PathStyle::Posix, s));
        trusted = [posix(cwd), posix(&root)]
            .iter()
            .flatten()
            .any(|dir| trusts(&user, dir));
        if trusted {
            let mut dirs: Vec<&Path> = cwd
                .ancestors()
                .take(PROJECT_DEPTH_MAX)
                .take_while(|d| d.starts_with(&root))
                .collect();
            dirs.reverse();
            for dir in dirs {
                layers.push(read_layer(&dir.join(".codex").join("config.toml"))?);
            }
        }
    }
    let cli = env
        .codex_arguments
        .as_deref()
        .map(codex_cli::parse)
        .unwrap_or_default();
    let mut merged = merge(&layers.iter().collect::<Vec<_>>());
    if let Some(profile) = &cli.profile {
        merged.profile = Some((profile.clone(), None));
        merged = merge(&[&merged]);
    }
    let here = |raw: &str| match cwd {
        Some(cwd) if !raw.starts_with('/') => absolute(Some(&cwd.join(raw))),
        _ => absolute(Some(Path::new(raw))),
    };
    let mut writable_roots = match &cli.writable_roots {
        Some(roots) => roots.iter().filter_map(|r| here(r)).collect(),
        None => merged.writable_roots.clone().unwrap_or_default(),
    };
    writable_roots.extend(cli.add_dirs.iter().filter_map(|d| here(d)));
    writable_roots.truncate(ROOTS_MAX);
    Ok(CodexSandbox {
        mode: Some(cli.mode.unwrap_or_else(|| effective_mode(&merged, trusted))),
        writable_roots,
        network_access: cli.network_access.or(merged.network_access),
        exclude_tmpdir_env_var: cli
            .exclude_tmpdir_env_var
            .or(merged.exclude_tmpdir_env_var)
            .unwrap_or(false),
        exclude_slash_tmp: cli
            .exclude_slash_tmp
            .or(merged.exclude_slash_tmp)
            .unwrap_or(false),
        tmpdir: absolute(env.tmpdir.as_deref()),
        cwd: absolute(env.cwd.as_deref()),
    })
}

/// A path of this process's environment, normalized, when absolute.
fn absolute(path: Option<&Path>) -> Option<HostPath> {
    let path = HostPath::lexical(PathStyle::Posix, path?.to_str()?);
    path.is_absolute().then_some(path)
}

#[cfg(test)]
mod tests;
