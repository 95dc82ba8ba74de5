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
//! Bounds: the whole conversation has [`DEADLINE`]; at most
//! [`OUTPUT_MAX_BYTES`] of the server's output are read; the server is
//! killed when the conversation ends, however it ends.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::install::is_advisor;

/// The longest the whole conversation with `codex app-server` may take.
pub const DEADLINE: Duration = Duration::from_secs(30);

/// The most of the server's output read, in bytes.
pub const OUTPUT_MAX_BYTES: u64 = 16 * 1024 * 1024;

/// One of the advisor's hooks as Codex sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookTrust {
    /// Codex's key for it (`<hooks.json>:<event>:<group>:<handler>`).
    pub key: String,
    /// Its event, as Codex names it (`preToolUse`).
    pub event: String,
    /// `trusted`, `untrusted`, `modified`, or another status Codex reports.
    pub status: String,
    hash: String,
}

impl HookTrust {
    /// True when Codex will run it.
    pub fn is_trusted(&self) -> bool {
        matches!(self.status.as_str(), "trusted" | "managed")
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

    fn advisor_hooks(&mut self, cwd: &Path) -> Result<Vec<HookTrust>, TrustError> {
        let listed = self.request("hooks/list", json!({"cwds": [cwd]}))?;
        Ok(listed["data"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|entry| entry["hooks"].as_array().into_iter().flatten())
            .filter(|h| h["command"].as_str().is_some_and(is_advisor))
            .map(|h| HookTrust {
                key: text(&h["key"]),
                event: text(&h["eventName"]),
                status: text(&h["trustStatus"]),
                hash: text(&h["currentHash"]),
            })
            .collect())
    }
}

fn text(value: &Value) -> String {
    value
        .as_str()
        .unwrap_or_default()
        .chars()
        .take(1024)
        .collect()
}

/// The advisor's hooks Codex sees for a session started in `cwd`, with
/// their trust.
pub fn check(codex: &Path, cwd: &Path) -> Result<Vec<HookTrust>, TrustError> {
    Server::open(codex, cwd)?.advisor_hooks(cwd)
}

/// Trusts every advisor hook Codex sees from `cwd` that is not trusted yet,
/// then reads the trust back.
pub fn trust(codex: &Path, cwd: &Path) -> Result<Vec<HookTrust>, TrustError> {
    let mut server = Server::open(codex, cwd)?;
    for hook in server.advisor_hooks(cwd)? {
        if hook.is_trusted() || hook.key.is_empty() || hook.hash.is_empty() {
            continue;
        }
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
    server.advisor_hooks(cwd)
}
