//! Claude Code's own sandbox settings, as the hook reads them: its layers,
//! lowest precedence first (user, project, local, managed); the last that
//! sets `sandbox.enabled` wins, off when none does; the domain lists and
//! `sandbox.filesystem.allowWrite` add up. Of `allowWrite`, an absolute path
//! and a `~/` path (in the user's home) are read; an entry with a glob
//! character or another form is skipped (the advisor does not guess what
//! it grants). The temporary directory Claude Code keeps writable for its
//! commands is `$CLAUDE_TMPDIR` of the hook's environment.

use std::path::{Path, PathBuf};

use advisor_core::{ClaudeSandbox, HostPath, PathStyle, Untrusted};

use super::Inputs;
use super::files::{Owner, read_no_follow};

/// The largest settings file read; a larger one is unreadable.
pub const SETTINGS_MAX_BYTES: u64 = 256 * 1024;

/// The longest domain kept from a settings list; a longer entry is skipped.
const DOMAIN_MAX_BYTES: usize = 255;

/// One settings layer as read.
enum Layer {
    /// No such file.
    Absent,
    /// There, but not read (a link, another owner, too large, not JSON).
    Unreadable,
    /// Read.
    Read {
        enabled: Option<bool>,
        allowed: Vec<Untrusted>,
        denied: Vec<Untrusted>,
        allow_write: Vec<HostPath>,
    },
}

/// Claude Code's layers, lowest precedence first: user, project, local, managed.
pub(super) fn claude_sandbox(env: &Inputs) -> ClaudeSandbox {
    let user = env
        .claude_config
        .clone()
        .or_else(|| env.home.as_ref().map(|h| h.join(".claude")))
        .map(|dir| dir.join("settings.json"));
    let project = env.project.as_ref().map(|p| p.join(".claude"));
    let paths = [
        user,
        project.as_ref().map(|d| d.join("settings.json")),
        project.as_ref().map(|d| d.join("settings.local.json")),
        Some(PathBuf::from("/etc/claude-code/managed-settings.json")),
    ];
    let mut enabled = Some(false);
    let mut all_read = true;
    let (mut allowed, mut denied, mut writable) = (Vec::new(), Vec::new(), Vec::new());
    for path in paths.iter().flatten() {
        match layer(path, env.home.as_deref()) {
            Layer::Absent => {}
            Layer::Unreadable => all_read = false,
            Layer::Read {
                enabled: set,
                allowed: a,
                denied: d,
                allow_write: w,
            } => {
                if let Some(set) = set {
                    enabled = Some(set);
                }
                extend(&mut allowed, a);
                extend(&mut denied, d);
                let room = advisor_core::ROOTS_MAX.saturating_sub(writable.len());
                writable.extend(w.into_iter().take(room));
            }
        }
    }
    ClaudeSandbox {
        enabled: enabled.filter(|_| all_read),
        allowed_domains: allowed,
        denied_domains: denied,
        allow_write: writable,
        tmpdir: absolute(env.claude_tmpdir.as_deref()),
        project_dir: absolute(env.project.as_deref()),
    }
}

/// A path of this process's environment, normalized, when absolute.
fn absolute(path: Option<&Path>) -> Option<HostPath> {
    let path = HostPath::lexical(PathStyle::Posix, path?.to_str()?);
    path.is_absolute().then_some(path)
}

/// One `allowWrite` entry as a directory: absolute, or `~/…` in `home`;
/// `None` for a glob or any other form.
fn writable_root(entry: &str, home: Option<&Path>) -> Option<HostPath> {
    if entry.contains(['*', '?', '[', ']', '{', '}']) {
        return None;
    }
    let path = if let Some(rest) = entry.strip_prefix("~/") {
        format!("{}/{rest}", home?.to_str()?)
    } else if entry.starts_with('/') {
        entry.to_owned()
    } else {
        return None;
    };
    let path = HostPath::lexical(PathStyle::Posix, &path);
    path.is_absolute().then_some(path)
}

fn extend(into: &mut Vec<Untrusted>, more: Vec<Untrusted>) {
    let room = advisor_core::DOMAINS_MAX.saturating_sub(into.len());
    into.extend(more.into_iter().take(room));
}

fn layer(path: &Path, home: Option<&Path>) -> Layer {
    let bytes = match read_no_follow(path, SETTINGS_MAX_BYTES, Owner::ThisUser) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return Layer::Absent,
        Err(_) => return Layer::Unreadable,
    };
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(&bytes) else {
        return Layer::Unreadable;
    };
    let sandbox = value.get("sandbox");
    let list = |key: &str| -> Vec<Untrusted> {
        sandbox
            .and_then(|s| s.get("network"))
            .and_then(|n| n.get(key))
            .and_then(serde_json::Value::as_array)
            .map(|items| {
                items
                    .iter()
                    .filter_map(serde_json::Value::as_str)
                    .filter(|d| d.len() <= DOMAIN_MAX_BYTES)
                    .take(advisor_core::DOMAINS_MAX)
                    .map(Untrusted::new)
                    .collect()
            })
            .unwrap_or_default()
    };
    Layer::Read {
        enabled: sandbox
            .and_then(|s| s.get("enabled"))
            .and_then(serde_json::Value::as_bool),
        allowed: list("allowedDomains"),
        denied: list("deniedDomains"),
        allow_write: sandbox
            .and_then(|s| s.get("filesystem"))
            .and_then(|f| f.get("allowWrite"))
            .and_then(serde_json::Value::as_array)
            .map(|items| {
                items
                    .iter()
                    .filter_map(serde_json::Value::as_str)
                    .filter(|p| p.len() <= 4096)
                    .take(advisor_core::ROOTS_MAX)
                    .filter_map(|p| writable_root(p, home))
                    .collect()
            })
            .unwrap_or_default(),
    }
}
