//! Claude Code's own sandbox settings, as the hook reads them: its layers,
//! lowest precedence first (user, project, local, managed); the last that
//! sets `sandbox.enabled` wins, off when none does; the domain lists add up.

use std::path::{Path, PathBuf};

use advisor_core::{ClaudeSandbox, Untrusted};

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
    let (mut allowed, mut denied) = (Vec::new(), Vec::new());
    for path in paths.iter().flatten() {
        match layer(path) {
            Layer::Absent => {}
            Layer::Unreadable => all_read = false,
            Layer::Read {
                enabled: set,
                allowed: a,
                denied: d,
            } => {
                if let Some(set) = set {
                    enabled = Some(set);
                }
                extend(&mut allowed, a);
                extend(&mut denied, d);
            }
        }
    }
    ClaudeSandbox {
        enabled: enabled.filter(|_| all_read),
        allowed_domains: allowed,
        denied_domains: denied,
    }
}

fn extend(into: &mut Vec<Untrusted>, more: Vec<Untrusted>) {
    let room = advisor_core::DOMAINS_MAX.saturating_sub(into.len());
    into.extend(more.into_iter().take(room));
}

fn layer(path: &Path) -> Layer {
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
    }
}
