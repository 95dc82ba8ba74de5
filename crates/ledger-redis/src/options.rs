//! [`RedisOptions`]: how a store talks to Redis, how long its keys live, and
//! the bounds a one-shot process puts on the whole conversation.

use std::time::Duration;

/// How a [`RedisStore`] talks to Redis and how long its keys live.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RedisOptions {
    /// The bound on connecting and on each request, which has one reply
    /// (default 200 ms): the advisor sits on the tool pipeline.
    pub timeout: Duration,
    /// How long every key lives (default 7 days), counted from the claim or
    /// the last budget write.
    pub ttl: Duration,
    /// The start of every key (default `sandbox-advisor:v1`); no braces,
    /// spaces or control characters.
    pub prefix: String,
    /// A bound on the store's whole conversation with Redis: the wall time
    /// of connecting, `AUTH`, `SELECT` and every request until its reply,
    /// summed over the store's life (default none). The process's own work
    /// between requests is not counted. Once it is spent, every operation is
    /// a fault at once, and nothing is sent. For a process that answers one
    /// event and exits (the CLI's `hook`: 250 ms).
    pub conversation: Option<Duration>,
    /// What the store does after a request timed out (default
    /// [`AfterTimeout::Reconnect`]).
    pub after_timeout: AfterTimeout,
}

/// What a [`RedisStore`] does after a request (or a connection) timed out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AfterTimeout {
    /// The next operation connects again (a long-running process, whose
    /// advisor backs off between attempts).
    #[default]
    Reconnect,
    /// Every later operation is a fault at once: the process makes no second
    /// connection (a one-shot process, where a second attempt at a frozen
    /// server would only double its wait).
    GiveUp,
}

impl Default for RedisOptions {
    fn default() -> Self {
        Self {
            timeout: Duration::from_millis(200),
            ttl: Duration::from_secs(7 * 24 * 3600),
            prefix: "sandbox-advisor:v1".to_owned(),
            conversation: None,
            after_timeout: AfterTimeout::Reconnect,
        }
    }
}
