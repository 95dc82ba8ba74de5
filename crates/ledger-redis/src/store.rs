//! [`RedisStore`]: the [`LedgerStore`] operations, each one or two round trips.

use advisor_core::{
    AgentId, AgentKey, BudgetRecord, Claim, DigestKey, Edit, LedgerStore, RECORD_MAX_BYTES,
    RecordOwner, Slot, StoreFault,
};
use redis::{ConnectionAddr, IntoConnectionInfo, Value};

use crate::keys::{Keys, check_prefix};
use crate::link::{Bounds, Failure, Handshake, Link, Session};
use crate::options::RedisOptions;
use crate::redact::redact_url;
use crate::scripts::{self, eval};

/// The store's name on the host log and in its faults.
const NAME: &str = "redis";

/// Redis refuses an expiry past `i64::MAX` ms from now.
const MAX_TTL_MS: u64 = 1 << 62;

/// Attempts at one budget edit before optimistic locking gives up.
pub const EDIT_ATTEMPTS: u32 = 16;

/// What Redis holds at the fleet's digest key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoredDigestKey {
    /// A key: 32 hex digits.
    Key(DigestKey),
    /// Nothing (and nothing was proposed).
    Absent,
    /// Something else. The connection that read it was closed, so nothing is
    /// written through it.
    Malformed {
        /// The Redis key that holds it.
        name: String,
        /// Its length in bytes (its content is never read whole, or shown).
        bytes: i64,
    },
}

/// A [`LedgerStore`] on one Redis server (or one cluster slot per agent).
pub struct RedisStore {
    link: Link,
    keys: Keys,
    ttl_ms: u64,
    /// The URL without its password, for faults.
    url: String,
}

impl std::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStore")
            .field("url", &self.url)
            .finish()
    }
}

impl RedisStore {
    /// A store on `url` (`redis://host:port/db`). The URL and the options are
    /// checked now; the connection is opened by the first operation, and
    /// again by the next one after any failure.
    pub fn connect(url: &str, options: RedisOptions) -> Result<Self, StoreFault> {
        let shown = redact_url(url);
        let refuse = |why: &dyn std::fmt::Display| StoreFault::new(NAME, why.to_string());
        if options.timeout.is_zero() || options.conversation.is_some_and(|d| d.is_zero()) {
            return Err(refuse(
                &"the timeout and the conversation's bound must be longer than zero",
            ));
        }
        let ttl_ms = u64::try_from(options.ttl.as_millis()).unwrap_or(u64::MAX);
        if ttl_ms == 0 || ttl_ms > MAX_TTL_MS {
            return Err(refuse(&"the ttl must be at least 1 ms and at most 2^62 ms"));
        }
        if let Err(why) = check_prefix(&options.prefix) {
            return Err(refuse(&format!(
                "key prefix {:?} refused: {why}",
                options.prefix
            )));
        }
        let invalid =
            |e: &dyn std::fmt::Display| refuse(&format!("invalid Redis URL {shown:?}: {e}"));
        crate::url_check::check_parts(url).map_err(|e| invalid(&e))?;
        let info = url.into_connection_info().map_err(|e| invalid(&e))?;
        // The link talks to the server itself (`crate::wire`), so that every
        // step has one deadline; the redis crate reads the URL, packs
        // commands and parses replies. `AUTH` and `SELECT` are sent by the
        // link, each one request bounded like any other.
        let server = match info.addr() {
            ConnectionAddr::Tcp(host, port) => (host.clone(), *port),
            _ => return Err(invalid(&"this build talks to Redis over TCP only")),
        };
        let given = info.redis_settings();
        let handshake = Handshake {
            auth: given
                .password()
                .map(|p| (given.username().map(str::to_owned), p.to_owned())),
            db: given.db(),
        };
        let bounds = Bounds {
            timeout: options.timeout,
            conversation: options.conversation,
            after_timeout: options.after_timeout,
        };
        Ok(Self {
            link: Link::new(server, handshake, bounds),
            keys: Keys::new(&options.prefix),
            ttl_ms,
            url: shown,
        })
    }

    /// Requests sent to Redis so far, each one round trip (with the digest
    /// key check of [`checking_digest_key`](Self::checking_digest_key)).
    /// Opening a connection (a TCP handshake, plus `SELECT` and `AUTH` when
    /// the URL asks for them) is counted by [`connects`](Self::connects).
    pub fn round_trips(&self) -> u64 {
        self.link.round_trips()
    }

    /// Connections opened so far (the first, and one after each failure).
    pub fn connects(&self) -> u64 {
        self.link.connects()
    }

    /// The fleet's digest key: the first process to ask stores a random one
    /// (`SET … NX`, no expiry), and every process gets the stored one. Hand it
    /// to [`advisor_core::use_digest_key`] before deciding any event, so every
    /// process names agents and calls alike. One round trip.
    pub fn digest_key(&self) -> Result<DigestKey, StoreFault> {
        self.digest_key_proposing(Some(DigestKey::random()))?
            .ok_or_else(|| self.fault("digest key", "not stored"))
    }

    /// The fleet's digest key after proposing `proposal` (stored only if
    /// there is none); with no proposal, only reads it: `None` when Redis
    /// holds none (say, restarted without persistence). A process that knows
    /// the fleet's key can put it back that way, and one that does not can
    /// check without seeding. One round trip.
    pub fn digest_key_proposing(
        &self,
        proposal: Option<DigestKey>,
    ) -> Result<Option<DigestKey>, StoreFault> {
        match self.stored_digest_key(proposal)? {
            StoredDigestKey::Key(key) => Ok(Some(key)),
            StoredDigestKey::Absent => Ok(None),
            StoredDigestKey::Malformed { name, bytes } => {
                Err(self.fault("digest key", Failure::BadDigestKey { key: name, bytes }))
            }
        }
    }

    /// [`digest_key_proposing`](Self::digest_key_proposing), telling a
    /// malformed key (which closes the connection) from a fault. One round
    /// trip; the value is read only when it is 32 bytes long.
    pub fn stored_digest_key(
        &self,
        proposal: Option<DigestKey>,
    ) -> Result<StoredDigestKey, StoreFault> {
        let ask = digest_key_script(&self.keys.digest_key(), proposal);
        let name = self.keys.digest_key();
        match self
            .link
            .with(|session| read_digest_key(session, &ask, &name))
        {
            Ok(Some(key)) => Ok(StoredDigestKey::Key(key)),
            Ok(None) => Ok(StoredDigestKey::Absent),
            Err(Failure::BadDigestKey { key, bytes }) => {
                Ok(StoredDigestKey::Malformed { name: key, bytes })
            }
            Err(failure) => Err(self.fault("digest key", failure)),
        }
    }

    /// Binds the store to this process's digest key: every new connection
    /// first checks that Redis holds `key` as the fleet's (putting it back
    /// when Redis holds none and `may_seed`, i.e. `key` came from the fleet,
    /// as after a restart without persistence). Any other key, or none when
    /// it may not seed, fails the operation and closes the connection, so a
    /// process digesting under a key of its own never writes names the
    /// fleet does not share. A connection already open is closed, so the
    /// next one is checked. One more round trip per connection.
    pub fn checking_digest_key(mut self, key: DigestKey, may_seed: bool) -> Self {
        let name = self.keys.digest_key();
        let ask = digest_key_script(&name, may_seed.then_some(key));
        self.link.set_on_connect(Box::new(move |session| {
            match read_digest_key(session, &ask, &name)? {
                Some(stored) if stored == key => Ok(()),
                Some(_) => Err(Failure::ForeignDigestKey { key: name.clone() }),
                None => Err(Failure::NoDigestKey { key: name.clone() }),
            }
        }));
        self
    }

    fn fault(&self, what: &str, failure: impl std::fmt::Display) -> StoreFault {
        StoreFault::new(NAME, format!("{}: {what}: {failure}", self.url))
    }

    fn run<T>(
        &self,
        what: &str,
        op: impl FnOnce(&mut Session<'_>) -> Result<T, Failure>,
    ) -> Result<T, StoreFault> {
        self.link
            .with(op)
            .map_err(|failure| self.fault(what, failure))
    }

    /// Reads, edits and (when changed) writes back one record, unless
    /// someone wrote it in between: `Ok(false)` then. A record bound to
    /// another agent is read as absent (advisor-core's codec logs it once),
    /// and replaced by the write, or deleted when the edit writes nothing.
    fn edit_once(
        &self,
        session: &mut Session<'_>,
        (key, owner): (&str, RecordOwner),
        edit: &mut dyn FnMut(&mut BudgetRecord) -> Edit,
    ) -> Result<bool, Failure> {
        let read = eval(scripts::BUDGET_READ, &[key], RECORD_MAX_BYTES);
        let stored: Option<Vec<u8>> = match session.send::<Value>(&read)? {
            Value::Nil => None,
            Value::BulkString(bytes) => Some(bytes),
            Value::Int(bytes) => {
                // Never read: left alone it would fail every edit of this
                // agent until it expires (as a corrupt record would).
                let delete = eval(scripts::DELETE_IF_LONGER, &[key], RECORD_MAX_BYTES);
                session.send::<i64>(&delete)?;
                return Err(Failure::Oversized {
                    key: key.to_owned(),
                    bytes,
                    max: RECORD_MAX_BYTES,
                });
            }
            _ => return Err(Failure::Unexpected("the budget read")),
        };
        let decoded = match &stored {
            None => Ok(Some(BudgetRecord::default())),
            Some(bytes) => BudgetRecord::decode_stored(bytes, owner, key),
        };
        let (mut record, foreign) = match decoded {
            Ok(Some(record)) => (record, false),
            Ok(None) => (BudgetRecord::default(), true),
            Err(error) => {
                // Left alone, it would fail every edit of this agent until it
                // expires, sending each process into backoff. Deleting it loses
                // at most a few refusals: the budget fails open, never shut.
                let bytes = stored.unwrap_or_default();
                session.send::<i64>(&eval(scripts::COMPARE_AND_DELETE, &[key], bytes))?;
                return Err(Failure::Corrupt {
                    key: key.to_owned(),
                    error,
                });
            }
        };
        if edit(&mut record) == Edit::Unchanged {
            if let (true, Some(bytes)) = (foreign, stored) {
                session.send::<i64>(&eval(scripts::COMPARE_AND_DELETE, &[key], bytes))?;
            }
            return Ok(true);
        }
        let (held, read) = match stored {
            Some(bytes) => ("held", bytes),
            None => ("absent", Vec::new()),
        };
        let write = (held, read, record.encode(owner), self.ttl_ms);
        let written: i64 = session.send(&eval(scripts::COMPARE_AND_SET, &[key], write))?;
        Ok(written == 1)
    }
}

impl LedgerStore for RedisStore {
    fn name(&self) -> &'static str {
        NAME
    }

    fn described(&self) -> &'static str {
        "Redis"
    }

    /// `SET claim 1 NX PX ttl`, `SADD index claim` and `PEXPIRE index ttl`
    /// in one script: one round trip.
    fn claim(&self, agent: &AgentId, slot: &Slot) -> Result<Claim, StoreFault> {
        let agent = AgentKey::of(agent);
        let (claim, index) = (self.keys.claim(&agent, slot), self.keys.index(&agent));
        self.run("claim", |session| {
            let first: i64 = session.send(&eval(scripts::CLAIM, &[&claim, &index], self.ttl_ms))?;
            Ok(match first {
                1 => Claim::First,
                _ => Claim::Again,
            })
        })
    }

    /// One `EVAL` of a short script: one round trip.
    fn forget(&self, agent: &AgentId) -> Result<(), StoreFault> {
        let agent = AgentKey::of(agent);
        let (index, budget) = (self.keys.index(&agent), self.keys.budget(&agent));
        let old = self.keys.budget_v1(&agent);
        let forget = eval(
            scripts::FORGET,
            &[&index, &budget, &old],
            self.keys.claims(&agent),
        );
        self.run("forget", |session| session.send::<i64>(&forget).map(drop))
    }

    /// `GET` (one round trip); an edit that changes nothing ends there. A
    /// change is written by a compare-and-set script (a second one) that
    /// writes only if the record still holds what was read; otherwise the
    /// whole is retried, up to [`EDIT_ATTEMPTS`] times.
    fn edit_budget(
        &self,
        agent: &AgentId,
        edit: &mut dyn FnMut(&mut BudgetRecord) -> Edit,
    ) -> Result<(), StoreFault> {
        let key = self.keys.budget(&AgentKey::of(agent));
        let owner = RecordOwner::of(agent);
        self.run("budget", |session| {
            for _ in 0..EDIT_ATTEMPTS {
                if self.edit_once(session, (&key, owner), edit)? {
                    return Ok(());
                }
                std::thread::yield_now();
            }
            Err(Failure::Contended {
                key: key.clone(),
                attempts: EDIT_ATTEMPTS,
            })
        })
    }
}

/// The digest key script: proposing `proposal`, or only reading.
fn digest_key_script(name: &str, proposal: Option<DigestKey>) -> redis::Cmd {
    let proposal = proposal.map(|key| key.to_hex()).unwrap_or_default();
    eval(scripts::DIGEST_KEY, &[name], proposal)
}

/// Runs the digest key script: the stored key, none, or a fault naming a
/// malformed one by its length.
fn read_digest_key(
    session: &mut Session<'_>,
    ask: &redis::Cmd,
    name: &str,
) -> Result<Option<DigestKey>, Failure> {
    let bad = |bytes| Failure::BadDigestKey {
        key: name.to_owned(),
        bytes,
    };
    match session.send::<Value>(ask)? {
        Value::Nil => Ok(None),
        Value::Int(bytes) => Err(bad(bytes)),
        Value::BulkString(stored) => std::str::from_utf8(&stored)
            .ok()
            .and_then(DigestKey::from_hex)
            .map(Some)
            .ok_or_else(|| bad(32)),
        _ => Err(Failure::Unexpected("the digest key script")),
    }
}

#[cfg(test)]
mod tests;
