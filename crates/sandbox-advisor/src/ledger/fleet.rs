//! Binds a Redis store to this process's digest key.
//!
//! Processes that share a store must digest alike (`advisor_core::DigestKey`):
//! the fleet keeps one key in Redis. A process that read it at start may put
//! it back when Redis comes back empty (a restart without persistence); one
//! that started while Redis was unreachable digests under a key of its own
//! (the on-disk store's, or a random one) and only checks. Either way every
//! new connection checks the key before it is used
//! (`RedisStore::checking_digest_key`): if Redis holds another key, or none
//! that this process may seed, the store faults and the advisor keeps
//! answering from this process's own ledger (disclosed once per outage).

use advisor_core::DigestKey;
use ledger_file::FileStore;
use ledger_redis::RedisStore;

use super::adopt;

/// The store, checking its key on every connection, and whether the key came
/// from the fleet.
pub(super) fn bind(
    redis: RedisStore,
    file: Option<&FileStore>,
) -> Result<(RedisStore, bool), String> {
    if let Ok(Some(key)) = redis.digest_key_proposing(Some(DigestKey::random())) {
        adopt(key)?;
        return Ok((redis.checking_digest_key(key, true), true));
    }
    let key = match file {
        Some(file) => file.adopt_digest_key().map_err(|e| e.to_string())?,
        None => {
            let key = DigestKey::random();
            adopt(key)?;
            key
        }
    };
    Ok((redis.checking_digest_key(key, false), false))
}
