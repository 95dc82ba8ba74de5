//! Gemini CLI's settings files, read as Gemini CLI 0.61.0 reads them, for
//! three facts: whether its tool sandbox runs each command
//! (`security.toolSandboxing`, default off), whether the whole CLI runs in
//! a sandbox of its own (`tools.sandbox`, `GEMINI_SANDBOX`, `-s`), and
//! whether yolo mode is forbidden (`security.disableYoloMode`).
//!
//! Read in its bundle (`_doLoadSettings`, `mergeSettings`,
//! `getSystemSettingsPath`, `checkPathTrust`, `loadSandboxConfig`,
//! `getSandboxCommand`):
//!
//! - four files, later ones winning key by key: the system defaults
//!   (`GEMINI_CLI_SYSTEM_DEFAULTS_PATH`, else `system-defaults.json` beside
//!   the system settings), the user's `~/.gemini/settings.json` (home:
//!   `GEMINI_CLI_HOME`, else `HOME`), the workspace's `.gemini/settings.json`
//!   (not when the workspace is the home; only in a trusted folder), and
//!   the system settings (`GEMINI_CLI_SYSTEM_SETTINGS_PATH`, else
//!   `/etc/gemini-cli/settings.json`), which override everything;
//! - JSON with comments (`strip-json-comments`), an object at the top; a
//!   file that does not parse stops Gemini (`FatalConfigError`);
//!   `$VAR`/`${VAR}` are expanded in strings only, so a boolean is read as
//!   written and any string where a boolean belongs is unknown here;
//! - trust: `GEMINI_RESTRICTED_MODE=true` or `GEMINI_CLI_TRUST_WORKSPACE=false`
//!   distrust, `GEMINI_CLI_TRUST_WORKSPACE=true` trusts, folder trust off
//!   (`security.folderTrust.enabled: false`, outside the workspace file)
//!   trusts, else `trustedFolders.json` decides, and no such file means
//!   untrusted. The advisor does not evaluate that file's rules (real paths,
//!   parents): with one present, trust is unknown;
//! - the environment is Gemini's own, read from `/proc/<pid>/environ` of
//!   the Gemini process above the hook (a hook's may be redacted).
//!
//! Not counted: `admin.secureModeEnabled`, since remote admin settings the
//! advisor cannot read replace the `admin` block.
//!
//! Bounds: each file at most [`SETTINGS_MAX_BYTES`], the environment at most
//! [`ENVIRON_MAX_BYTES`]; read without following a link, regular files of
//! this user or root that no one else can write ([`files`](super::files)).
//! A file that exists but cannot be read or parsed makes every fact it
//! could set unknown, never guessed; a workspace file whose trust is not
//! known makes the facts it sets unknown, so that it can withhold the
//! advisor's speech but never turn it on.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use advisor_core::{GeminiCliSandbox, GeminiSettings, GeminiToolSandbox, GeminiYolo};
use serde_json::{Map, Value};

use super::files::{Owner, read_no_follow};

/// The most bytes of one settings file read.
pub const SETTINGS_MAX_BYTES: u64 = 256 * 1024;
/// The most bytes of Gemini's environment read.
pub const ENVIRON_MAX_BYTES: u64 = 256 * 1024;

/// Gemini's environment, as far as the settings need it.
pub type Env = HashMap<String, String>;

/// Gemini's environment from `/proc/<pid>/environ`; `None` when unreadable.
pub fn environ(pid: u32) -> Option<Env> {
    let path = format!("/proc/{pid}/environ");
    let bytes = read_no_follow(Path::new(&path), ENVIRON_MAX_BYTES, Owner::Kernel).ok()??;
    Some(
        bytes
            .split(|b| *b == 0)
            .filter_map(|kv| std::str::from_utf8(kv).ok()?.split_once('='))
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect(),
    )
}

/// One settings file.
#[derive(Debug, Clone, PartialEq)]
enum Layer {
    /// No such file: it sets nothing.
    Absent,
    /// Its top-level object.
    Read(Map<String, Value>),
    /// It exists, and could not be read or parsed.
    Unreadable,
}

fn layer(path: &Path) -> Layer {
    match read_no_follow(path, SETTINGS_MAX_BYTES, Owner::ThisUser) {
        Ok(None) => Layer::Absent,
        Ok(Some(bytes)) => std::str::from_utf8(&bytes)
            .ok()
            .and_then(|text| serde_json::from_str::<Value>(&strip_comments(text)).ok())
            .and_then(|v| match v {
                Value::Object(map) => Some(Layer::Read(map)),
                _ => None,
            })
            .unwrap_or(Layer::Unreadable),
        Err(_) => Layer::Unreadable,
    }
}

/// JSON with `//` and `/* */` comments outside strings blanked (each
/// comment character becomes a space, newlines kept), as
/// `strip-json-comments` does.
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let (mut string, mut escaped) = (false, false);
    while let Some(c) = chars.next() {
        if string {
            out.push(c);
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => string = false,
                _ => {}
            }
            continue;
        }
        match (c, chars.peek()) {
            ('"', _) => {
                string = true;
                out.push(c);
            }
            ('/', Some('/')) => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            ('/', Some('*')) => {
                chars.next();
                let mut star = false;
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                    }
                    if star && c == '/' {
                        break;
                    }
                    star = c == '*';
                }
                out.push(' ');
            }
            _ => out.push(c),
        }
    }
    out
}

/// A key's value as the merged settings hold it.
#[derive(Debug, Clone, PartialEq)]
enum Leaf {
    /// No layer sets it: the schema's default.
    Default,
    /// The value of the highest layer that sets it.
    Set(Value),
    /// A layer that could set it is unreadable, or sets a parent to a non-object.
    Unknown,
}

/// `keys` in `layers`, highest first: the first layer that sets it wins
/// (Gemini's deep merge, key by key).
fn leaf(layers: &[&Layer], keys: &[&str]) -> Leaf {
    'layers: for layer in layers {
        let mut map = match layer {
            Layer::Absent => continue,
            Layer::Unreadable => return Leaf::Unknown,
            Layer::Read(map) => map,
        };
        for (i, key) in keys.iter().enumerate() {
            match map.get(*key) {
                None => continue 'layers,
                Some(v) if i + 1 == keys.len() => return Leaf::Set(v.clone()),
                Some(Value::Object(inner)) => map = inner,
                Some(_) => return Leaf::Unknown,
            }
        }
    }
    Leaf::Default
}

/// A boolean key with its default: `None` when not a boolean or unknown.
fn boolean(layers: &[&Layer], keys: &[&str], default: bool) -> Option<bool> {
    match leaf(layers, keys) {
        Leaf::Default => Some(default),
        Leaf::Set(Value::Bool(b)) => Some(b),
        Leaf::Set(_) | Leaf::Unknown => None,
    }
}

/// The facts from one ordering of the layers (highest first).
fn facts(layers: &[&Layer], env: &Env, args_sandbox: bool) -> GeminiSettings {
    let tool_sandbox = match boolean(layers, &["security", "toolSandboxing"], false) {
        Some(true) => GeminiToolSandbox::On,
        Some(false) => GeminiToolSandbox::Off,
        None => GeminiToolSandbox::Unknown,
    };
    let yolo = match boolean(layers, &["security", "disableYoloMode"], false) {
        Some(true) => GeminiYolo::Disabled,
        Some(false) => GeminiYolo::Allowed,
        None => GeminiYolo::Unknown,
    };
    // `SANDBOX` is set inside Gemini's own sandbox; `GEMINI_SANDBOX` wins
    // over the settings unless empty; `-s` sets it.
    let env_off = |name: &str| env.get(name).is_none_or(|v| v.trim().is_empty());
    let setting_off = match leaf(layers, &["tools", "sandbox"]) {
        Leaf::Default | Leaf::Set(Value::Null | Value::Bool(false)) => true,
        Leaf::Set(Value::Object(_)) => matches!(
            leaf(layers, &["tools", "sandbox", "enabled"]),
            Leaf::Default | Leaf::Set(Value::Bool(false))
        ),
        Leaf::Set(_) | Leaf::Unknown => false,
    };
    let cli_off = env_off("SANDBOX") && env_off("GEMINI_SANDBOX") && setting_off && !args_sandbox;
    GeminiSettings {
        tool_sandbox,
        cli_sandbox: if cli_off {
            GeminiCliSandbox::Off
        } else {
            GeminiCliSandbox::OnOrUnknown
        },
        yolo,
    }
}

/// Whether Gemini honours the workspace's settings file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Trust {
    Trusted,
    Untrusted,
    Unknown,
}

fn trust(outside: &[&Layer], env: &Env, home: &Path) -> Trust {
    let var = |name: &str| env.get(name).map(String::as_str);
    if var("GEMINI_RESTRICTED_MODE") == Some("true")
        || var("GEMINI_CLI_TRUST_WORKSPACE") == Some("false")
    {
        return Trust::Untrusted;
    }
    if var("GEMINI_CLI_TRUST_WORKSPACE") == Some("true") {
        return Trust::Trusted;
    }
    match boolean(outside, &["security", "folderTrust", "enabled"], true) {
        Some(false) => return Trust::Trusted,
        Some(true) => {}
        None => return Trust::Unknown,
    }
    let folders = match var("GEMINI_CLI_TRUSTED_FOLDERS_PATH").filter(|p| !p.is_empty()) {
        Some(path) => PathBuf::from(path),
        None if var("SANDBOX") == Some("sandbox-exec") => home.join(".cache/.gemini"),
        None => home.join(".gemini"),
    }
    .join("trustedFolders.json");
    match std::fs::symlink_metadata(&folders) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Trust::Untrusted,
        _ => Trust::Unknown,
    }
}

/// The settings facts for a Gemini process with environment `env`, home
/// `home` (`HOME` of the hook when Gemini's environment has none), working
/// in `workspace`, whose command line asks for its own sandbox when
/// `args_sandbox`.
pub fn read(
    env: &Env,
    home: Option<&Path>,
    workspace: Option<&Path>,
    args_sandbox: bool,
) -> GeminiSettings {
    let var = |name: &str| env.get(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    let Some(home) = var("GEMINI_CLI_HOME")
        .or_else(|| var("HOME"))
        .or_else(|| home.map(Path::to_path_buf))
    else {
        return GeminiSettings::UNKNOWN;
    };
    let system_path = var("GEMINI_CLI_SYSTEM_SETTINGS_PATH")
        .unwrap_or_else(|| PathBuf::from("/etc/gemini-cli/settings.json"));
    let defaults_path = var("GEMINI_CLI_SYSTEM_DEFAULTS_PATH").unwrap_or_else(|| {
        system_path
            .parent()
            .unwrap_or(Path::new("/"))
            .join("system-defaults.json")
    });
    let system = layer(&system_path);
    let defaults = layer(&defaults_path);
    let user = layer(&home.join(".gemini/settings.json"));
    let workspace = match workspace {
        Some(dir) if dir.is_absolute() && dir != home => layer(&dir.join(".gemini/settings.json")),
        Some(_) => Layer::Absent,
        None => Layer::Unreadable,
    };
    let outside = [&system, &user, &defaults];
    let without = facts(&outside, env, args_sandbox);
    let with = facts(&[&system, &workspace, &user, &defaults], env, args_sandbox);
    match trust(&outside, env, &home) {
        Trust::Trusted => with,
        Trust::Untrusted => without,
        // Where the two readings differ, the workspace file decides: unknown.
        Trust::Unknown => GeminiSettings {
            tool_sandbox: if with.tool_sandbox == without.tool_sandbox {
                with.tool_sandbox
            } else {
                GeminiToolSandbox::Unknown
            },
            cli_sandbox: if with.cli_sandbox == without.cli_sandbox {
                with.cli_sandbox
            } else {
                GeminiCliSandbox::OnOrUnknown
            },
            yolo: if with.yolo == without.yolo {
                with.yolo
            } else {
                GeminiYolo::Unknown
            },
        },
    }
}

#[cfg(test)]
#[path = "gemini_settings_tests.rs"]
mod tests;
