//! Codex's hook trust, read and given through `codex app-server`.
//!
//! Codex runs a hook only when its definition is trusted, and skips an
//! untrusted one silently: nothing on stderr, nothing in `--json`. Trust is
//! kept per hook as a hash of its definition, so a new command line needs
//! trust again. `codex app-server` (JSON lines on stdio) exposes it:
//! `initialize`, the `initialized` notification, then `hooks/list` with the
//! project's directory, which names each hook's `key`, `currentHash` and
//! `trustStatus`; `config/value/write` of `hooks.state."<key>"` =
//! `{enabled: true, trusted_hash: <currentHash>}` trusts one. The hash is
//! read from `hooks/list`, never computed here (its recipe is Codex's).
//!
//! **What is trusted.** Only the hooks install wrote ([`Ours`]): an entry of
//! `hooks/list` whose `sourcePath` is the file install wrote (the same file
//! on disk), whose key lies in that file, whose event is one install wrote,
//! whose matcher is the client's and whose `command` is exactly the command
//! line install wrote, which must be the advisor's handler ([`Handler`]; a
//! `command` handler, not a managed one). An entry
//! Codex marks `modified` is trusted again only when it is exactly that.
//! Every other entry (another file, another layer such as a repository's
//! `.codex/hooks.json` when the install was `--user`, another event, any
//! other command, even one that names the advisor) is never trusted;
//! the untrusted ones are reported, so the user sees them.
//!
//! Bounds: the whole conversation has [`DEADLINE`]; at most
//! [`OUTPUT_MAX_BYTES`] of the server's output are read; the server is
//! killed when the conversation ends, however it ends.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::Dialect;
use super::install::Handler;

/// The longest the whole conversation with `codex app-server` may take.
pub const DEADLINE: Duration = Duration::from_secs(30);

/// The most of the server's output read, in bytes.
pub const OUTPUT_MAX_BYTES: u64 = 16 * 1024 * 1024;

/// The most entries of `hooks/list` read.
pub const LISTED_MAX: usize = 4096;

/// The longest text of an entry kept (longer is cut, and then matches
/// nothing install wrote).
pub const FIELD_MAX_CHARS: usize = 8192;

/// One hook as `hooks/list` shows it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Listed {
    /// Codex's key for it (`<hooks.json>:<event>:<group>:<handler>`).
    pub key: String,
    /// Its event, as Codex names it (`preToolUse`).
    pub event: String,
    /// `command` for a command handler.
    pub handler_type: String,
    /// The command line.
    pub command: String,
    /// The group's matcher, when it has one.
    pub matcher: Option<String>,
    /// The file it comes from.
    pub source_path: String,
    /// True for a hook an administrator's policy manages.
    pub managed: bool,
    /// `trusted`, `untrusted`, `modified`, or another status Codex reports.
    pub status: String,
    /// The hash Codex would trust.
    pub hash: String,
}

impl Listed {
    /// Reads one entry of `hooks/list`.
    pub fn from_json(h: &Value) -> Self {
        Self {
            key: text(&h["key"]),
            event: text(&h["eventName"]),
            handler_type: text(&h["handlerType"]),
            command: text(&h["command"]),
            matcher: h["matcher"].as_str().map(|_| text(&h["matcher"])),
            source_path: text(&h["sourcePath"]),
            managed: h["isManaged"].as_bool() != Some(false),
            status: text(&h["trustStatus"]),
            hash: text(&h["currentHash"]),
        }
    }

    /// True when Codex will run it.
    pub fn is_trusted(&self) -> bool {
        matches!(self.status.as_str(), "trusted" | "managed")
    }
}

/// What install wrote: the only hooks it trusts.
#[derive(Debug, Clone, Copy)]
pub struct Ours<'a> {
    /// The file it wrote.
    pub path: &'a Path,
    /// The groups' matcher.
    pub matcher: &'a str,
    /// Each event it wrote, as the file names it (`PreToolUse`), with the
    /// command line it wrote there.
    pub hooks: &'a [(String, String)],
}

impl Ours<'_> {
    /// True when `listed` is one of the hooks install wrote (module doc).
    pub fn is(&self, listed: &Listed) -> bool {
        let written = self.hooks.iter().any(|(event, command)| {
            codex_event(event) == listed.event && *command == listed.command
        });
        written
            && Handler::parse(&listed.command, Dialect::Codex).is_some()
            && listed.handler_type == "command"
            && !listed.managed
            && listed.matcher.as_deref() == Some(self.matcher)
            && listed.key.starts_with(&format!("{}:", listed.source_path))
            && same_file(Path::new(&listed.source_path), self.path)
    }
}

/// Codex's name for a settings file's event: `PreToolUse` → `preToolUse`.
pub fn codex_event(event: &str) -> String {
    let mut chars = event.chars();
    chars
        .next()
        .map(|c| c.to_ascii_lowercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

/// True when both paths name one file: the same text, or the same file once
/// each is resolved.
fn same_file(listed: &Path, ours: &Path) -> bool {
    if listed == ours {
        return true;
    }
    match (std::fs::canonicalize(listed), std::fs::canonicalize(ours)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// What Codex lists, split by [`Ours`].
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// The hooks install wrote, with their trust.
    pub ours: Vec<Listed>,
    /// Every other hook Codex would skip (not trusted): none of them is
    /// trusted by install.
    pub others_untrusted: Vec<Listed>,
}

impl Report {
    /// The hooks to trust: install's own that Codex does not trust yet
    /// (untrusted, or `modified` and now exactly install's), never another.
    pub fn to_trust(&self) -> impl Iterator<Item = &Listed> {
        self.ours
            .iter()
            .filter(|h| !h.is_trusted() && !h.key.is_empty() && !h.hash.is_empty())
    }

    /// Splits `listed` by `ours`.
    pub fn of(listed: Vec<Listed>, ours: &Ours<'_>) -> Self {
        let (ours_listed, others): (Vec<Listed>, Vec<Listed>) =
            listed.into_iter().partition(|h| ours.is(h));
        Self {
            ours: ours_listed,
            others_untrusted: others.into_iter().filter(|h| !h.is_trusted()).collect(),
        }
    }
}

/// Why the conversation with `codex app-server` failed.
#[derive(Debug, thiserror::Error)]
pub enum TrustError {
    /// The server could not be started.
    #[error("cannot start `{0} app-server`: {1}")]
    Start(String, std::io::Error),
    /// It did not answer in time, or closed its output.
    #[error("`codex app-server` gave no answer to `{0}` within {DEADLINE:?}")]
    NoAnswer(&'static str),
    /// It answered with an error.
    #[error("`codex app-server` refused `{0}`: {1}")]
    Refused(&'static str, String),
}

struct Server {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Value>,
    next: u64,
    until: Instant,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    fn start(codex: &Path, cwd: &Path) -> Result<Self, TrustError> {
        let shown = codex.display().to_string();
        let mut child = Command::new(codex)
            .arg("app-server")
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| TrustError::Start(shown.clone(), e))?;
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(i), Some(o)) => (i, o),
            _ => {
                let _ = child.kill();
                let e = std::io::Error::other("no pipes");
                return Err(TrustError::Start(shown, e));
            }
        };
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout.take(OUTPUT_MAX_BYTES)).lines() {
                let Ok(line) = line else { break };
                if let Ok(value) = serde_json::from_str::<Value>(&line) {
                    if tx.send(value).is_err() {
                        break;
                    }
                }
            }
        });
        Ok(Self {
            child,
            stdin,
            lines,
            next: 1,
            until: Instant::now() + DEADLINE,
        })
    }

    fn send(&mut self, message: &Value) -> Result<(), ()> {
        let mut line = message.to_string();
        line.push('\n');
        self.stdin.write_all(line.as_bytes()).map_err(|_| ())
    }

    /// Sends a request and waits for the answer with its id; notifications
    /// and other answers in between are skipped.
    fn request(&mut self, method: &'static str, params: Value) -> Result<Value, TrustError> {
        let id = self.next;
        self.next += 1;
        self.send(&json!({"id": id, "method": method, "params": params}))
            .map_err(|()| TrustError::NoAnswer(method))?;
        loop {
            let left = self.until.saturating_duration_since(Instant::now());
            let message = match self.lines.recv_timeout(left) {
                Ok(m) => m,
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {
                    return Err(TrustError::NoAnswer(method));
                }
            };
            if message.get("id") != Some(&json!(id)) || message.get("method").is_some() {
                continue;
            }
            if let Some(error) = message.get("error") {
                let text: String = error.to_string().chars().take(300).collect();
                return Err(TrustError::Refused(method, text));
            }
            return Ok(message.get("result").cloned().unwrap_or(Value::Null));
        }
    }

    fn open(codex: &Path, cwd: &Path) -> Result<Self, TrustError> {
        let mut server = Self::start(codex, cwd)?;
        let client = json!({"clientInfo": {"name": "sandbox-advisor", "version": env!("CARGO_PKG_VERSION")}});
        server.request("initialize", client)?;
        server
            .send(&json!({"method": "initialized"}))
            .map_err(|()| TrustError::NoAnswer("initialized"))?;
        Ok(server)
    }

    fn list(&mut self, cwd: &Path) -> Result<Vec<Listed>, TrustError> {
        let listed = self.request("hooks/list", json!({"cwds": [cwd]}))?;
        Ok(listed["data"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|entry| entry["hooks"].as_array().into_iter().flatten())
            .take(LISTED_MAX)
            .map(Listed::from_json)
            .collect())
    }
}

fn text(value: &Value) -> String {
    value
        .as_str()
        .unwrap_or_default()
        .chars()
        .take(FIELD_MAX_CHARS)
        .collect()
}

/// The hooks Codex sees for a session started in `cwd`, split by `ours`.
pub fn check(codex: &Path, cwd: &Path, ours: &Ours<'_>) -> Result<Report, TrustError> {
    let listed = Server::open(codex, cwd)?.list(cwd)?;
    Ok(Report::of(listed, ours))
}

/// Trusts the hooks install wrote that Codex does not trust yet (and no
/// other), then reads the trust back.
pub fn trust(codex: &Path, cwd: &Path, ours: &Ours<'_>) -> Result<Report, TrustError> {
    let mut server = Server::open(codex, cwd)?;
    let before = Report::of(server.list(cwd)?, ours);
    for hook in before.to_trust() {
        let key_path = format!(
            "hooks.state.{}",
            serde_json::to_string(&hook.key).unwrap_or_default()
        );
        server.request(
            "config/value/write",
            json!({
                "keyPath": key_path,
                "value": {"enabled": true, "trusted_hash": hook.hash},
                "mergeStrategy": "upsert",
            }),
        )?;
    }
    Ok(Report::of(server.list(cwd)?, ours))
}

#[cfg(test)]
#[path = "trust_tests.rs"]
mod tests;
