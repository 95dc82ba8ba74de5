//! One connection to Redis behind a mutex: opened on first use, dropped on any
//! error that may have left it in an unknown state, and opened again by the
//! next call (unless the link gave up: [`AfterTimeout::GiveUp`]). Every request
//! is one command with one reply: one round trip, counted. Each step (a
//! connection, a request) has one deadline, the timeout or, when one is set,
//! what is left of the conversation's allowance (the time spent connecting
//! and waiting on replies, summed), whichever comes first; every read and
//! write of the step shares it ([`crate::wire`]).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use advisor_core::RecordError;
use redis::{Cmd, FromRedisValue, RedisError};

use crate::options::AfterTimeout;
use crate::wire::{Wire, WireError};

/// What went wrong talking to Redis, before it becomes a `StoreFault`.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Failure {
    /// No answer within the timeout.
    #[error("no answer within {} ms", .0.as_millis())]
    Timeout(Duration),
    /// The conversation's allowance is spent: nothing more is sent.
    #[error("the {} ms allowed for talking to Redis are spent", .0.as_millis())]
    Spent(Duration),
    /// An earlier request timed out, and the link does not connect again.
    #[error("an earlier request timed out; this process does not connect again")]
    GaveUp,
    /// Refused, reset, closed, or an error reply.
    #[error("{0}")]
    Redis(RedisError),
    /// A reply of a shape the script never sends.
    #[error("unexpected reply to {0}")]
    Unexpected(&'static str),
    /// A budget record this build cannot read; it was deleted.
    #[error("{key}: {error}; deleted, so the agent's next edit starts from an empty record")]
    Corrupt {
        /// The key.
        key: String,
        /// Why it did not decode.
        error: RecordError,
    },
    /// A value longer than any budget record; it was deleted unread.
    #[error(
        "{key} holds {bytes} bytes, more than a budget record's {max}; deleted unread, so the agent's next edit starts from an empty record"
    )]
    Oversized {
        /// The key.
        key: String,
        /// Its length, as `STRLEN` gave it.
        bytes: i64,
        /// The most a record can take.
        max: usize,
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
    #[error(
        "{key} holds {bytes} bytes that are not 32 hex digits; delete it so the fleet can agree on a new one"
    )]
    BadDigestKey {
        /// The key.
        key: String,
        /// The length of what it holds (its content is never shown).
        bytes: i64,
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
    /// True when the connection may hold an unread reply (or is gone), or
    /// must not be used again (a malformed fleet digest key: nothing may be
    /// written under a key the fleet does not share).
    fn breaks_link(&self) -> bool {
        matches!(
            self,
            Self::Timeout(_)
                | Self::Spent(_)
                | Self::Redis(_)
                | Self::Unexpected(_)
                | Self::BadDigestKey { .. }
        )
    }

    /// True when the server did not answer in time.
    fn timed_out(&self) -> bool {
        matches!(self, Self::Timeout(_) | Self::Spent(_))
    }
}

/// What `AUTH` and `SELECT` send on a new connection: each is one command
/// with one reply, bounded like any request (the redis crate's own setup
/// pipelines them, one timeout per reply).
pub(crate) struct Handshake {
    /// `AUTH [username] password`, when the URL has a password.
    pub(crate) auth: Option<(Option<String>, String)>,
    /// `SELECT db`, when not 0.
    pub(crate) db: i64,
}

/// How long the link may talk, and what it does after a timeout.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bounds {
    /// The bound on connecting and on each request, each as a whole.
    pub(crate) timeout: Duration,
    /// The bound on the whole conversation: connecting and every reply, summed.
    pub(crate) conversation: Option<Duration>,
    /// Whether a timeout ends the link for good.
    pub(crate) after_timeout: AfterTimeout,
}

/// The link's connection, if any.
enum State {
    Closed,
    Open(Wire),
    /// A request timed out under [`AfterTimeout::GiveUp`]: never connect again.
    GaveUp,
}

/// The connection, counted.
pub(crate) struct Link {
    /// The server: a host name or an address, and a port.
    server: (String, u16),
    handshake: Handshake,
    bounds: Bounds,
    /// Microseconds spent connecting and waiting on replies.
    spent_us: AtomicU64,
    open: Mutex<State>,
    round_trips: AtomicU64,
    connects: AtomicU64,
    on_connect: Option<OnConnect>,
}

/// The connection while one operation holds it.
pub(crate) struct Session<'a> {
    connection: &'a mut Wire,
    link: &'a Link,
}

impl Link {
    /// A link to `server` that connects on first use.
    pub(crate) fn new(server: (String, u16), handshake: Handshake, bounds: Bounds) -> Self {
        Self {
            server,
            handshake,
            bounds,
            spent_us: AtomicU64::new(0),
            open: Mutex::new(State::Closed),
            round_trips: AtomicU64::new(0),
            connects: AtomicU64::new(0),
            on_connect: None,
        }
    }

    /// Runs `check` on every new connection; a connection that fails it is
    /// closed, and the operation that opened it fails. A connection already
    /// open is closed now, so the next operation's connection is checked.
    pub(crate) fn set_on_connect(&mut self, check: OnConnect) {
        self.on_connect = Some(check);
        let state = self.open.get_mut().unwrap_or_else(|p| p.into_inner());
        if matches!(state, State::Open(_)) {
            *state = State::Closed;
        }
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

    fn lock(&self) -> MutexGuard<'_, State> {
        self.open.lock().unwrap_or_else(|poisoned| {
            // An operation panicked mid-request: its connection's state is unknown.
            let mut guard = poisoned.into_inner();
            if matches!(*guard, State::Open(_)) {
                *guard = State::Closed;
            }
            self.open.clear_poison();
            guard
        })
    }

    /// How long the next step may take: the timeout, or less when less of
    /// the conversation's allowance is left; a fault when none is.
    fn allowance(&self) -> Result<Duration, Failure> {
        let Some(total) = self.bounds.conversation else {
            return Ok(self.bounds.timeout);
        };
        let spent = Duration::from_micros(self.spent_us.load(Relaxed));
        match total.saturating_sub(spent) {
            left if left.is_zero() => Err(Failure::Spent(total)),
            left => Ok(left.min(self.bounds.timeout)),
        }
    }

    /// Runs one step (a connection, a request), charging its wall time to
    /// the conversation. The process's own work between steps is not
    /// charged: a loaded machine must not eat Redis's share.
    fn timed<T>(&self, step: impl FnOnce() -> T) -> T {
        let begun = Instant::now();
        let result = step();
        let took = u64::try_from(begun.elapsed().as_micros()).unwrap_or(u64::MAX);
        self.spent_us.fetch_add(took, Relaxed);
        result
    }

    fn connect(&self) -> Result<Wire, Failure> {
        let allowed = self.allowance()?;
        self.connects.fetch_add(1, Relaxed);
        let (host, port) = (&self.server.0, self.server.1);
        let mut connection = self
            .timed(|| Wire::connect(host, port, Instant::now() + allowed))
            .map_err(|e| self.classify(e, allowed))?;
        let mut session = self.session(&mut connection);
        if let Some((user, password)) = &self.handshake.auth {
            let mut auth = redis::cmd("AUTH");
            auth.arg(user.as_deref()).arg(password);
            session.exchange::<()>(&auth)?;
        }
        if self.handshake.db != 0 {
            session.exchange::<()>(redis::cmd("SELECT").arg(self.handshake.db))?;
        }
        if let Some(check) = &self.on_connect {
            check(&mut session)?;
        }
        Ok(connection)
    }

    fn session<'a>(&'a self, connection: &'a mut Wire) -> Session<'a> {
        Session {
            connection,
            link: self,
        }
    }

    /// Runs `op` on the connection, opening it first if needed; drops it
    /// when `op` fails in a way that may have left it unusable, and gives up
    /// for good after a timeout when the bounds say so.
    pub(crate) fn with<T>(
        &self,
        op: impl FnOnce(&mut Session<'_>) -> Result<T, Failure>,
    ) -> Result<T, Failure> {
        let mut guard = self.lock();
        if matches!(*guard, State::Closed) {
            match self.connect() {
                Ok(connection) => *guard = State::Open(connection),
                Err(failure) => {
                    *guard = self.after(&failure);
                    return Err(failure);
                }
            }
        }
        let State::Open(connection) = &mut *guard else {
            return Err(Failure::GaveUp);
        };
        let result = op(&mut self.session(connection));
        if let Err(failure) = &result {
            if failure.breaks_link() {
                *guard = self.after(failure);
            }
        }
        result
    }

    /// The state after a failure that broke the connection.
    fn after(&self, failure: &Failure) -> State {
        match (failure.timed_out(), self.bounds.after_timeout) {
            (true, AfterTimeout::GiveUp) => State::GaveUp,
            _ => State::Closed,
        }
    }
}

impl Session<'_> {
    /// Sends one command and reads its one reply: one round trip.
    pub(crate) fn send<T: FromRedisValue>(&mut self, cmd: &Cmd) -> Result<T, Failure> {
        let allowed = self.link.allowance()?;
        self.link.round_trips.fetch_add(1, Relaxed);
        self.exchange_within(cmd, allowed)
    }

    /// One command and its reply, uncounted (the handshake), within the allowance.
    fn exchange<T: FromRedisValue>(&mut self, cmd: &Cmd) -> Result<T, Failure> {
        let allowed = self.link.allowance()?;
        self.exchange_within(cmd, allowed)
    }

    fn exchange_within<T: FromRedisValue>(
        &mut self,
        cmd: &Cmd,
        allowed: Duration,
    ) -> Result<T, Failure> {
        let connection = &mut *self.connection;
        let packed = cmd.get_packed_command();
        let value = self
            .link
            .timed(|| connection.exchange(&packed, Instant::now() + allowed))
            .map_err(|e| self.link.classify(e, allowed))?;
        redis::from_redis_value(value).map_err(|e| Failure::Redis(e.into()))
    }
}

impl Link {
    /// A step allowed `allowed` that ran out of time: the conversation's
    /// fault when its allowance, not the timeout, set that bound.
    fn classify(&self, error: WireError, allowed: Duration) -> Failure {
        match (error, self.bounds.conversation) {
            (WireError::Redis(error), _) => Failure::Redis(error),
            (WireError::Late, Some(total)) if allowed < self.bounds.timeout => {
                Failure::Spent(total)
            }
            (WireError::Late, _) => Failure::Timeout(allowed),
        }
    }
}
