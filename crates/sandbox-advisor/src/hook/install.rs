//! `sandbox-advisor hook install --client <client>`: mounts the advisor in a
//! client's hook settings and touches nothing else.
//!
//! - **What it writes**: per event the client's module names
//!   ([`client::HookClient`]; one module per client), one group `{"matcher":
//!   "Bash", "hooks": [{"type": "command", "command": <the handler>}]}`
//!   (Gemini CLI's matcher is `run_shell_command`),
//!   where the handler is the one command line [`Handler`] defines.
//! - **What it replaces**: only a group of exactly that shape whose command
//!   is the advisor's handler in install's own form (any binary named
//!   `sandbox-advisor`, `--dialect d` or `--dialect=d`, at most `--mode` and
//!   `--config`; [`handler`] says exactly). The first is replaced where it
//!   stands; a later one is removed.
//! - **What it keeps**: everything else, byte for byte (numbers, key order,
//!   spacing, escapes), including every handler that merely names the
//!   advisor (a policy gate `… && sandbox-advisor hook …`, another matcher,
//!   extra words): those are listed in the output, never changed. The text
//!   inserted follows the file's indentation and line endings.
//! - **What it refuses**, naming the key or the line and changing nothing: a
//!   file that is not JSON, or whose root, `hooks` or an event's value is not
//!   what the client reads; a key that appears twice in one object; a file
//!   over [`SETTINGS_MAX_BYTES`]; a symbolic link anywhere below the scope's
//!   root; a file with several names; a file whose owner this user cannot
//!   keep ([`file`]).
//! - A second run with the same command line changes nothing (so Codex's
//!   trust, which is per command line, survives it).

pub mod client;
pub mod edit;
pub mod handler;
pub mod json;
pub mod render;

mod claude_code;
mod codex;
mod file;
mod gemini_cli;

use std::path::PathBuf;

use advisor_core::quote::escaped;

pub use client::{CLIENTS, HookClient, Place, TrustStep};
pub use edit::{Found, Plan};
pub use handler::Handler;

/// The longest settings file read, in bytes.
pub const SETTINGS_MAX_BYTES: u64 = 4 * 1024 * 1024;

/// Whose settings: one project's, or the user's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// The project at this directory.
    Project(PathBuf),
    /// The user's own settings.
    User,
}

/// What `install` changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// The file was written: the advisor's handlers were added or replaced.
    Written,
    /// The file already held exactly these handlers.
    Unchanged,
}

/// Why the settings could not be edited; each names the file.
#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    /// No home directory is known.
    #[error("no home directory is known (HOME is unset); pass --project DIR")]
    NoHome,
    /// The file cannot be read or written.
    #[error("{}: {source}", escaped(&path.to_string_lossy()))]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// The file is not one install will edit.
    #[error("{}: {why}; nothing was changed", escaped(&path.to_string_lossy()))]
    Refused {
        /// The file, or the directory on the way to it.
        path: PathBuf,
        /// What is wrong, naming the key or the line.
        why: String,
    },
}

/// What one install did.
#[derive(Debug)]
pub struct Installed {
    /// The settings file.
    pub path: PathBuf,
    /// Whether it was written.
    pub change: Change,
    /// What was replaced, and what was left alone.
    pub plan: Plan,
}

/// Mounts `handler` for `client` in the settings file at `place`.
pub fn install(
    client: &dyn HookClient,
    place: &Place,
    handler: &Handler,
) -> Result<Installed, InstallError> {
    let opened = file::open(place)?;
    let path = opened.path().to_owned();
    let (text, plan) = merge(opened.text(), client, &handler.command_line())
        .map_err(|why| file::refused(&path, why))?;
    if plan.edits.is_empty() {
        return Ok(Installed {
            path,
            change: Change::Unchanged,
            plan,
        });
    }
    opened.replace(&text)?;
    Ok(Installed {
        path,
        change: Change::Written,
        plan,
    })
}

/// The settings text with the advisor's groups for `client` running
/// `command`, and the edit that made it; or why the text cannot be edited.
/// The result is read back: it must hold exactly one advisor group per event,
/// running `command`.
pub fn merge(
    old: Option<&str>,
    client: &dyn HookClient,
    command: &str,
) -> Result<(String, Plan), String> {
    let plan = edit::plan(old, client, command)?;
    let text = plan.apply(old.unwrap_or_default());
    let root = json::parse(&text).map_err(|e| format!("the edit came out wrong ({e})"))?;
    let again = edit::scan(&root, client)?;
    let exact = again
        .events
        .iter()
        .all(|e| matches!(e.ours.as_slice(), [(_, c)] if c == command));
    if !exact {
        return Err("the edit came out wrong (not one advisor group per event)".into());
    }
    Ok((text, plan))
}

/// What the settings file at `place` holds for `client` (`--check`).
#[derive(Debug)]
pub struct Mounted {
    /// The settings file.
    pub path: PathBuf,
    /// Whether it exists.
    pub exists: bool,
    /// Per event, the commands of the advisor's groups in it.
    pub events: Vec<(&'static str, Vec<String>)>,
    /// Handlers that name the advisor but are not its handler.
    pub kept: Vec<Found>,
}

/// Reads the settings file at `place` without changing it.
pub fn mounted(client: &dyn HookClient, place: &Place) -> Result<Mounted, InstallError> {
    let opened = file::open(place)?;
    let path = opened.path().to_owned();
    let Some(text) = opened.text() else {
        let events = client.events().iter().map(|e| (*e, Vec::new())).collect();
        return Ok(Mounted {
            path,
            exists: false,
            events,
            kept: Vec::new(),
        });
    };
    let read = || -> Result<Mounted, String> {
        let root = json::parse(text).map_err(|e| e.to_string())?;
        let scan = edit::scan(&root, client)?;
        Ok(Mounted {
            path: path.clone(),
            exists: true,
            events: scan
                .events
                .into_iter()
                .map(|e| (e.event, e.ours.into_iter().map(|(_, c)| c).collect()))
                .collect(),
            kept: scan.kept,
        })
    };
    read().map_err(|why| InstallError::Refused {
        path: path.clone(),
        why,
    })
}

/// The user's home directory.
pub(crate) fn home() -> Result<PathBuf, InstallError> {
    directories::BaseDirs::new()
        .map(|dirs| dirs.home_dir().to_owned())
        .ok_or(InstallError::NoHome)
}

#[cfg(test)]
#[path = "install_tests.rs"]
mod tests;
