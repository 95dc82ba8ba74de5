#![doc = include_str!("../README.md")]

mod keys;
mod link;
mod redact;
mod scripts;
mod store;
#[cfg(feature = "testing")]
pub mod testing;

pub use redact::redact_url;
pub use store::{AfterTimeout, EDIT_ATTEMPTS, RedisOptions, RedisStore, StoredDigestKey};
