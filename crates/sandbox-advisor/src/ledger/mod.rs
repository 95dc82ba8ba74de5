//! Where the CLI keeps its once-per-agent facts: `--ledger` / the `ledger` key.
//!
//! | value | `serve` | `hook` |
//! |---|---|---|
//! | `memory` | the default: the sidecar's own process | one process per event: nothing is shared (for tests) |
//! | `file` | an on-disk store shared with other processes on the machine | the default |
//! | `redis://host:port/db` | Redis, shared by a fleet; this process's ledger behind it | Redis, then the on-disk store behind it, which mirrors Redis's claims ([`mirror`]) |
//!
//! `--state-dir` (or `stateDir`) places the on-disk store; the default is the
//! platform's per-user state directory (`ledger_file::FileStore::default_dir`).
//!
//! A ledger value is only ever shown through `ledger_redis::redact_url` (the
//! described line, a clap error, a config error, a fault): its user
//! information and query never reach a log or a terminal.
//!
//! A hook's whole conversation with Redis is bounded by [`HOOK_REDIS_CONVERSATION`],
//! and after a first timeout it makes no second connection: a frozen server
//! costs one hook at most that, then the on-disk store answers.

use std::ffi::OsStr;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use advisor_core::LedgerStore;
use ledger_file::{Collection, FileStore};
use ledger_redis::{AfterTimeout, RedisOptions, RedisStore, redact_url};

mod deferred;
mod mirror;

use deferred::Deferred;

/// The ledger a command runs with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LedgerSpec {
    /// This process's own ledger only.
    Memory,
    /// The on-disk store.
    File,
    /// A Redis server, by URL (`redis://host:port/db`).
    Redis(String),
}

/// A `--ledger` value or `ledger` key that names no ledger.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("must be `memory`, `file` or `redis://host:port/db`, not {0}")]
pub struct UnknownLedger(pub(crate) String);

/// Why a `--ledger` value or `ledger` key was refused: it names no ledger, or
/// a Redis URL that cannot be used (said in words, the password never shown).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LedgerError {
    /// Neither `memory`, `file` nor a `redis://` URL.
    #[error(transparent)]
    Unknown(#[from] UnknownLedger),
    /// A `redis://` URL that cannot be used.
    #[error(transparent)]
    RedisUrl(#[from] ledger_redis::UrlError),
}

impl FromStr for LedgerSpec {
    type Err = LedgerError;

    fn from_str(raw: &str) -> Result<Self, Self::Err> {
        match raw {
            "memory" => Ok(Self::Memory),
            "file" => Ok(Self::File),
            url if url.starts_with("redis://") && url.len() > "redis://".len() => {
                ledger_redis::check_url(url)?;
                Ok(Self::Redis(url.to_owned()))
            }
            other => {
                // Redacted first: a cut could otherwise drop the `@` that
                // marks where a password ends.
                let shown: String = redact_url(other).chars().take(80).collect();
                Err(UnknownLedger(format!(
                    "{:?}",
                    advisor_core::quote::escaped(&shown).to_string()
                ))
                .into())
            }
        }
    }
}

impl fmt::Display for LedgerSpec {
    /// The spec as given, except a Redis URL's password.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Memory => f.write_str("memory"),
            Self::File => f.write_str("file"),
            Self::Redis(url) => f.write_str(&redact_url(url)),
        }
    }
}

/// `--ledger`'s parser: a refused value is shown redacted (clap's own error
/// for a value parser would echo it whole).
#[derive(Debug, Clone, Copy)]
pub struct LedgerParser;

impl clap::builder::TypedValueParser for LedgerParser {
    type Value = LedgerSpec;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<LedgerSpec, clap::Error> {
        value.to_string_lossy().parse().map_err(|e: LedgerError| {
            let name = arg.map_or_else(|| "--ledger".to_owned(), ToString::to_string);
            let message = format!("invalid value for '{name}': {e}\n");
            clap::Error::raw(clap::error::ErrorKind::ValueValidation, message).with_cmd(cmd)
        })
    }
}

/// The bound on a hook's whole conversation with Redis: the wall time of
/// connecting, `AUTH`, `SELECT` and every reply, summed (the hook's own work
/// between requests is not counted). The hook sits on the tool pipeline.
pub const HOOK_REDIS_CONVERSATION: Duration = Duration::from_millis(250);

/// Which command opens the ledger: it sets the default and what stands
/// behind a Redis store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// `serve`: a long-running sidecar (default `memory`).
    Serve,
    /// `hook`: one process per event (default `file`).
    Hook,
}

/// The stores a command runs with, and how to describe them on the host log.
pub struct Opened {
    /// Tried in order; the process's own ledger stands behind them.
    pub stores: Vec<Arc<dyn LedgerStore>>,
    /// One line for the host log.
    pub described: String,
    deferred: Option<Arc<Deferred>>,
}

impl Opened {
    fn memory() -> Self {
        Self {
            stores: Vec::new(),
            described: "memory (this process only)".into(),
            deferred: None,
        }
    }

    /// The on-disk store's directory, when this process opened it and its
    /// collection is due. A hook's store never collects in an operation (over
    /// 10 000 agents that takes tens of milliseconds): the hook starts a
    /// detached `sandbox-advisor collect` for it after answering.
    pub fn collection_due(&self) -> Option<PathBuf> {
        self.deferred.as_ref()?.collection_due()
    }
}

impl Role {
    /// How the role talks to Redis: `serve` reconnects (its advisor backs
    /// off); a hook is bounded as a whole and never connects twice.
    fn redis_options(self) -> RedisOptions {
        match self {
            Role::Serve => RedisOptions::default(),
            Role::Hook => RedisOptions {
                conversation: Some(HOOK_REDIS_CONVERSATION),
                after_timeout: AfterTimeout::GiveUp,
                ..RedisOptions::default()
            },
        }
    }

    /// Who collects the on-disk store: a hook's answer must not wait for it.
    fn collection(self) -> Collection {
        match self {
            Role::Serve => Collection::Inline,
            Role::Hook => Collection::Elsewhere,
        }
    }
}

/// `collect`: one collection of the on-disk store in `state_dir` (else the
/// per-user default) if one is due; what it did, in one line.
pub fn collect(state_dir: Option<&Path>) -> Result<String, String> {
    let dir = state_dir_or_default(state_dir)?;
    let store =
        FileStore::open(&dir, ledger_file::FileLimits::default()).map_err(|e| e.to_string())?;
    Ok(match store.collect_if_due().map_err(|e| e.to_string())? {
        None => "not due, or another process is collecting".to_owned(),
        Some(done) => format!(
            "collected {} agents by age and {} by count; {} kept, {} in use left for later",
            done.by_age, done.by_count, done.kept, done.skipped
        ),
    })
}

/// Opens the ledger `spec` names (else the role's default). Nothing is read
/// or connected here: the store is opened, and its digest key learnt, when
/// the first digest is computed — when a family recognized something — so an
/// event that matches nothing touches neither the disk nor the network. Call
/// it before any event is decided.
pub fn open(
    spec: Option<&LedgerSpec>,
    state_dir: Option<&Path>,
    role: Role,
) -> Result<Opened, String> {
    let spec = spec.cloned().unwrap_or(match role {
        Role::Serve => LedgerSpec::Memory,
        Role::Hook => LedgerSpec::File,
    });
    let deferred = match &spec {
        LedgerSpec::Memory => return Ok(Opened::memory()),
        LedgerSpec::File => {
            let dir = state_dir_or_default(state_dir)?;
            Deferred::new(1, move || deferred::bind_file(&dir, role.collection()))
        }
        LedgerSpec::Redis(url) => {
            // The URL is checked now; the connection waits for the first use.
            let redis =
                RedisStore::connect(url, role.redis_options()).map_err(|e| e.to_string())?;
            // A hook's process ends with its event: the on-disk store keeps
            // the facts while Redis is down.
            let file = match role {
                Role::Hook => Some(state_dir_or_default(state_dir)?),
                Role::Serve => None,
            };
            let tiers = 1 + usize::from(file.is_some());
            let redis = std::sync::Mutex::new(Some(redis));
            Deferred::new(tiers, move || {
                deferred::bind_fleet(&redis, file.as_deref(), role.collection())
            })
        }
    };
    let stores = deferred.clone().install()?;
    Ok(Opened {
        stores,
        described: spec.to_string(),
        deferred: Some(deferred),
    })
}

fn state_dir_or_default(state_dir: Option<&Path>) -> Result<PathBuf, String> {
    match state_dir {
        Some(dir) => Ok(dir.to_owned()),
        None => FileStore::default_dir().ok_or_else(|| {
            "no per-user state directory is known on this system; pass --state-dir".to_owned()
        }),
    }
}

/// Starts `sandbox-advisor collect --state-dir DIR` detached, with no stdio,
/// so the host that waits for this hook never waits for the collection.
pub fn start_collector(dir: &Path) {
    let started = std::env::current_exe().and_then(|exe| {
        std::process::Command::new(exe)
            .arg("collect")
            .arg("--state-dir")
            .arg(dir)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
    });
    if let Err(e) = started {
        tracing::debug!(target: "sandbox_advisor::ledger", error = %advisor_core::quote::log_field(&e.to_string()), "could not start the collector; the next hook will try again");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_a_password_is_never_shown() {
        let cases = [
            ("memory", Some("memory")),
            ("file", Some("file")),
            ("redis://127.0.0.1:6379/0", Some("redis://127.0.0.1:6379/0")),
            ("redis://u:hunter2@h:1/2", Some("redis://***@h:1/2")),
            ("redis://:p@ssw0rd@h", Some("redis://***@h")),
            ("redis://", None),
            ("rediss://h", None),
            ("Memory", None),
            ("", None),
        ];
        for (raw, shown) in cases {
            let parsed = raw.parse::<LedgerSpec>();
            assert_eq!(
                parsed.as_ref().ok().map(ToString::to_string).as_deref(),
                shown,
                "{raw}"
            );
        }
        // A Redis URL the client cannot use is refused in words, never with
        // the password (`ledger_redis::check_url`).
        for (raw, said) in [
            (
                "redis://:hunter2@host:notaport/0",
                "port \"notaport\" is not a number",
            ),
            (
                "redis://u:hunter2@host/abc",
                "database \"abc\" is not a whole number",
            ),
            ("redis://:hunter2@/0", "names no host"),
        ] {
            let error = raw.parse::<LedgerSpec>().unwrap_err().to_string();
            assert!(
                error.contains(said) && !error.contains("hunt"),
                "{raw}: {error}"
            );
        }
        let error = "redis\n".parse::<LedgerSpec>().unwrap_err().to_string();
        assert!(!error.contains('\n'), "{error}");
        for refused in [
            "rediss://u:hunter2@h:6380/0",
            "Redis://:hunter2@h",
            "REDIS+UNIX://:hunter2@/s.sock",
            "postgres://u:hunter2@db",
            "rediss://u:hunt@er2@h",
            format!("rediss://u:hunter2{}@h", "x".repeat(100)).as_str(),
        ] {
            let error = refused.parse::<LedgerSpec>().unwrap_err().to_string();
            assert!(!error.contains("hunt"), "{error}");
            assert!(error.contains("://***@"), "{error}");
        }
    }
}
