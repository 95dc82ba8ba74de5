//! `sandbox-advisor hook install --client claude-code|codex`: mounts the
//! advisor in a client's hook settings, keeping every other hook there.
//!
//! - **Claude Code** reads `.claude/settings.json` in the project (or
//!   `~/.claude/settings.json` for the user); the advisor answers
//!   `PreToolUse`, `PostToolUse` and `PostToolUseFailure` for `Bash`.
//! - **Codex** reads `hooks.json` in `CODEX_HOME` (default `~/.codex`), or
//!   `<project>/.codex/hooks.json` in a project it trusts; the advisor answers
//!   `PreToolUse` and `PostToolUse` for `Bash`. Codex runs a hook only once it
//!   is trusted, and skips an untrusted one without a word ([`super::trust`]).
//!
//! The file is merged, never replaced: an existing advisor handler (a command
//! that runs `sandbox-advisor … hook --dialect …`) is replaced where it
//! stands, any other handler and key is kept, and a second run with the same
//! command line changes nothing (so Codex's trust, which is per command line,
//! survives it). The file is written whole to a temporary file beside it and
//! renamed over it. A settings file that is a symbolic link is refused: the
//! rename would replace the link, not its target.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::Dialect;

/// The longest settings file read, in bytes.
pub const SETTINGS_MAX_BYTES: u64 = 4 * 1024 * 1024;

/// The client whose settings are edited.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Client {
    /// Claude Code.
    ClaudeCode,
    /// Codex.
    Codex,
}

impl Client {
    /// The hook dialect the client speaks.
    pub fn dialect(self) -> Dialect {
        match self {
            Client::ClaudeCode => Dialect::ClaudeCode,
            Client::Codex => Dialect::Codex,
        }
    }

    /// The events the advisor answers in this client.
    pub fn events(self) -> &'static [&'static str] {
        match self {
            Client::ClaudeCode => &["PreToolUse", "PostToolUse", "PostToolUseFailure"],
            Client::Codex => &["PreToolUse", "PostToolUse"],
        }
    }

    /// The settings file for `scope`.
    pub fn settings_path(self, scope: &Scope) -> Result<PathBuf, InstallError> {
        Ok(match (self, scope) {
            (Client::ClaudeCode, Scope::Project(dir)) => dir.join(".claude").join("settings.json"),
            (Client::ClaudeCode, Scope::User) => home()?.join(".claude").join("settings.json"),
            (Client::Codex, Scope::Project(dir)) => dir.join(".codex").join("hooks.json"),
            (Client::Codex, Scope::User) => match std::env::var_os("CODEX_HOME") {
                Some(home) if !home.is_empty() => PathBuf::from(home).join("hooks.json"),
                _ => home()?.join(".codex").join("hooks.json"),
            },
        })
    }
}

/// Whose settings: one project's, or the user's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// The project at this directory.
    Project(PathBuf),
    /// The user's own settings.
    User,
}

/// What `install` changed.
#[derive(Debug, Clone, PartialEq, Eq)]
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
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// The file is not what a settings file must be.
    #[error("{path}: {why}; nothing was changed")]
    Refused {
        /// The file.
        path: PathBuf,
        /// What is wrong, naming the key or the line.
        why: String,
    },
}

/// The command line a client runs for each event: `bin` quoted for a POSIX
/// shell, then the hook's own arguments.
pub fn command_line(bin: &Path, dialect: Dialect, extra: &[String]) -> String {
    let mut words = vec![shell_word(&bin.to_string_lossy())];
    words.extend(["hook", "--dialect", dialect.as_str()].map(str::to_owned));
    words.extend(extra.iter().map(|w| shell_word(w)));
    words.join(" ")
}

/// One word for `sh -c`: as it is when it holds only characters no shell
/// reads specially, else in single quotes.
fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./:=@%+,".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// True for a handler command that runs the advisor's hook (any binary path,
/// any dialect): the handlers `install` replaces.
pub fn is_advisor(command: &str) -> bool {
    command.contains("sandbox-advisor") && command.contains(" hook --dialect ")
}

/// Mounts `command` for `client` in the file at `path`.
pub fn install(client: Client, path: &Path, command: &str) -> Result<Change, InstallError> {
    let io = |source| InstallError::Io {
        path: path.to_owned(),
        source,
    };
    let existing = match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            return Err(refused(
                path,
                "it is a symbolic link (edit its target, or choose another scope)",
            ));
        }
        Ok(meta) if !meta.is_file() => return Err(refused(path, "it is not a regular file")),
        Ok(meta) if meta.len() > SETTINGS_MAX_BYTES => {
            return Err(refused(path, "it is longer than 4 MiB"));
        }
        Ok(_) => Some(std::fs::read_to_string(path).map_err(io)?),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(io(e)),
    };
    let merged = merge(existing.as_deref(), client, command).map_err(|why| refused(path, &why))?;
    if existing.as_deref() == Some(merged.as_str()) {
        return Ok(Change::Unchanged);
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io)?;
    }
    let temp = path.with_extension(format!("json.sandbox-advisor-{}", std::process::id()));
    std::fs::write(&temp, &merged).map_err(io)?;
    std::fs::rename(&temp, path).map_err(|e| {
        let _ = std::fs::remove_file(&temp);
        io(e)
    })?;
    Ok(Change::Written)
}

fn refused(path: &Path, why: &str) -> InstallError {
    InstallError::Refused {
        path: path.to_owned(),
        why: why.to_owned(),
    }
}

/// The settings text with the advisor's handlers for `client` set to
/// `command`, or why the text cannot be edited.
pub fn merge(existing: Option<&str>, client: Client, command: &str) -> Result<String, String> {
    let mut root = match existing.map(str::trim) {
        None | Some("") => Map::new(),
        Some(text) => match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(map)) => map,
            Ok(_) => return Err("it is not a JSON object".into()),
            Err(e) => {
                return Err(format!(
                    "not valid JSON at line {} column {}: {}",
                    e.line(),
                    e.column(),
                    crate::config::json_syntax_message(&e)
                ));
            }
        },
    };
    let hooks = root
        .entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(hooks) = hooks else {
        return Err("key `hooks` is not an object".into());
    };
    for event in client.events() {
        let groups = hooks
            .entry(*event)
            .or_insert_with(|| Value::Array(Vec::new()));
        let Value::Array(groups) = groups else {
            return Err(format!("key `hooks.{event}` is not an array"));
        };
        let at = remove_advisor(groups, event)?;
        let ours = json!({
            "matcher": "Bash",
            "hooks": [{"type": "command", "command": command}],
        });
        groups.insert(at.unwrap_or(groups.len()), ours);
    }
    let mut text = serde_json::to_string_pretty(&Value::Object(root))
        .map_err(|e| format!("cannot write it back: {e}"))?;
    text.push('\n');
    Ok(text)
}

/// Removes the advisor's handlers from `groups` (a group left empty goes with
/// them); the index of the first group that held one, where ours goes back.
fn remove_advisor(groups: &mut Vec<Value>, event: &str) -> Result<Option<usize>, String> {
    let mut first = None;
    let mut i = 0;
    while i < groups.len() {
        let Some(handlers) = groups[i].get_mut("hooks") else {
            i += 1;
            continue;
        };
        let Value::Array(handlers) = handlers else {
            return Err(format!("key `hooks.{event}[{i}].hooks` is not an array"));
        };
        let before = handlers.len();
        handlers.retain(|h| {
            !h.get("command")
                .and_then(Value::as_str)
                .is_some_and(is_advisor)
        });
        if handlers.len() != before {
            first.get_or_insert(i);
            if handlers.is_empty() {
                groups.remove(i);
                continue;
            }
        }
        i += 1;
    }
    Ok(first)
}

fn home() -> Result<PathBuf, InstallError> {
    directories::BaseDirs::new()
        .map(|dirs| dirs.home_dir().to_owned())
        .ok_or(InstallError::NoHome)
}

#[cfg(test)]
#[path = "install_tests.rs"]
mod tests;
