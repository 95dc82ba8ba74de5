//! One connection to Redis behind a mutex: opened on first use, dropped on any
//! error that may have left it in an unknown state, and opened again by the
//! next call. Every request is one command with one reply: one round trip,
//! counted, and bounded by the read timeout.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use advisor_core::RecordError;
use redis::{Client, Cmd, Connection, FromRedisValue, RedisError};

/// What went wrong talking to Redis, before it becomes a `StoreFault`.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Failure {
    /// No answer within the timeout.
    #[error("no answer within {} ms", .0.as_millis())]
    Timeout(Duration),
    /// Refused, reset, closed, or an error reply.
    #[error("{0}")]
    Redis(RedisError),
    /// A budget record this build cannot read; it was deleted.
    #[error("{key}: {error}; deleted, so the agent's next edit starts from an empty record")]
    Corrupt {
        /// The key.
        key: String,
        /// Why it did not decode.
        error: RecordError,
    },
    /// Optimistic locking lost every attempt.
    #[error("{key}: changed by others during each of {attempts} attempts")]
    Contended {
        /// The key.
        key: String,
        /// Attempts made.
        attempts: u32,
    },
    /// The fleet's digest key holds something else than a key.
    #[error("{key} does not hold 32 hex digits; delete it so the fleet can agree on a new one")]
    BadDigestKey {
        /// The key.
        key: String,
    },
    /// The fleet digests under another key than this process.
    #[error(
        "{key} holds another digest key than this process's (it started while Redis was unreachable, or Redis was reset); restart the process to share the fleet's ledger"
    )]
    ForeignDigestKey {
        /// The key.
        key: String,
    },
    /// Redis holds no digest key, and this process may not seed one.
    #[error(
        "{key} is empty and this process's digest key is not the fleet's to seed; restart the process to share the fleet's ledger"
    )]
    NoDigestKey {
        /// The key.
        key: String,
    },
}

/// A check every new connection passes before any operation may use it.
pub(crate) type OnConnect = Box<dyn Fn(&mut Session<'_>) -> Result<(), Failure> + Send + Sync>;

impl Failure {
    /// True when the connection may hold an unread reply (or is gone).
    fn breaks_link(&self) -> bool {
        matches!(self, Self::Timeout(_) | Self::Redis(_))
    }
}

/// The connection, counted.
pub(crate) struct Link {
    client: Client,
    timeout: Duration,
    open: Mutex<Option<Connection>>,
    round_trips: AtomicU64,
    connects: AtomicU64,
    on_connect: Option<OnConnect>,
}

/// The connection while one operation holds it.
pub(crate) struct Session<'a> {
    connection: &'a mut Connection,
    timeout: Duration,
    round_trips: &'a AtomicU64,
}

impl Link {
    /// A link that connects on first use.
    pub(crate) fn new(client: Client, timeout: Duration) -> Self {
        Self {
            client,
            timeout,
            open: Mutex::new(None),
            round_trips: AtomicU64::new(0),
            connects: AtomicU64::new(0),
            on_connect: None,
        }
    }

    /// Runs `check` on every new connection; a connection that fails it is
    /// closed, and the operation that opened it fails.
    pub(crate) fn set_on_connect(&mut self, check: OnConnect) {
        self.on_connect = Some(check);
    }

    /// Requests sent, each one round trip (a connection's digest key check
    /// included; its handshake, `SELECT` and `AUTH` not).
    pub(crate) fn round_trips(&self) -> u64 {
        self.round_trips.load(Relaxed)
    }

    /// Connections opened.
    pub(crate) fn connects(&self) -> u64 {
        self.connects.load(Relaxed)
    }

    fn lock(&self) -> MutexGuard<'_, Option<Connection>> {
        self.open.lock().unwrap_or_else(|poisoned| {
            // An operation panicked mid-request: its connection's state is unknown.
            let mut guard = poisoned.into_inner();
            *guard = None;
            self.open.clear_poison();
            guard
        })
    }

    fn connect(&self) -> Result<Connection, Failure> {
        self.connects.fetch_add(1, Relaxed);
        let timeout = Some(self.timeout);
        let mut connection = self
            .client
            .get_connection_with_timeout(self.timeout)
            .map_err(|e| classify(e, self.timeout))?;
        connection
            .set_read_timeout(timeout)
            .and_then(|()| connection.set_write_timeout(timeout))
            .map_err(Failure::Redis)?;
        if let Some(check) = &self.on_connect {
            check(&mut self.session(&mut connection))?;
        }
        Ok(connection)
    }

    fn session<'a>(&'a self, connection: &'a mut Connection) -> Session<'a> {
        Session {
            connection,
            timeout: self.timeout,
            round_trips: &self.round_trips,
        }
    }

    /// Runs `op` on the connection, opening it first if needed; drops it
    /// when `op` fails in a way that may have left it unusable.
    pub(crate) fn with<T>(
        &self,
        op: impl FnOnce(&mut Session<'_>) -> Result<T, Failure>,
    ) -> Result<T, Failure> {
        let mut guard = self.lock();
        let connection = match guard.as_mut() {
            Some(connection) => connection,
            None => guard.insert(self.connect()?),
        };
        let result = op(&mut self.session(connection));
        if let Err(failure) = &result {
            if failure.breaks_link() {
                *guard = None;
            }
        }
        result
    }
}

impl Session<'_> {
    /// Sends one command and reads its one reply: one round trip.
    pub(crate) fn send<T: FromRedisValue>(&mut self, cmd: &Cmd) -> Result<T, Failure> {
        self.round_trips.fetch_add(1, Relaxed);
        cmd.query(self.connection)
            .map_err(|e| classify(e, self.timeout))
    }
}

fn classify(error: RedisError, timeout: Duration) -> Failure {
    match error.is_timeout() {
        true => Failure::Timeout(timeout),
        false => Failure::Redis(error),
    }
}
