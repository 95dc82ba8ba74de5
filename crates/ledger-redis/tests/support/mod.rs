//! Shared by the tests: a server (or a skip), stores on it, and advisors over
//! them with advisor-core's store test doubles (`advisor_core::testing::store`).
#![allow(
    dead_code,
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic
)]

use std::sync::Arc;
use std::time::Duration;

use advisor_core::{Advisor, AgentId, AgentKey};
use ledger_redis::testing::RedisServer;
use ledger_redis::{RedisOptions, RedisStore};
use serde_json::Value;

/// The server, or `None` when the test is skipped (the policy is in `start`).
pub fn server() -> Option<RedisServer> {
    RedisServer::start()
}

pub fn store(server: &RedisServer) -> Arc<RedisStore> {
    store_with(server, RedisOptions::default())
}

pub fn store_with(server: &RedisServer, options: RedisOptions) -> Arc<RedisStore> {
    Arc::new(RedisStore::connect(&server.url(), options).unwrap())
}

pub fn ttl(ttl: Duration) -> RedisOptions {
    RedisOptions {
        ttl,
        ..RedisOptions::default()
    }
}

/// A key as the README documents it.
pub fn key(agent: &str, rest: &str) -> String {
    format!(
        "sandbox-advisor:v1:{{{}}}:{rest}",
        AgentKey::of(&AgentId::new(agent)).as_str()
    )
}

/// Every key on the server.
pub fn all_keys(server: &RedisServer) -> Vec<String> {
    let mut c = server.connection().unwrap();
    let mut keys: Vec<String> = redis::cmd("KEYS").arg("*").query(&mut c).unwrap();
    keys.sort();
    keys
}

pub fn pttl(server: &RedisServer, key: &str) -> i64 {
    redis::cmd("PTTL")
        .arg(key)
        .query(&mut server.connection().unwrap())
        .unwrap()
}

/// The failures counted in a stored budget record (bytes 17..21 after the
/// version and the owner, little-endian, per the layout in advisor-core's
/// budget codec).
pub fn failures_counted(server: &RedisServer, agent: &str) -> u32 {
    let bytes: Vec<u8> = redis::cmd("GET")
        .arg(key(agent, "budget:v2"))
        .query(&mut server.connection().unwrap())
        .unwrap();
    u32::from_le_bytes(bytes[17..21].try_into().unwrap())
}

/// One "process": an advisor over `store` (advisor-core's store test doubles).
pub fn process(store: &Arc<RedisStore>, config: Value) -> Advisor {
    advisor_core::testing::store::process(store.clone(), config)
}
