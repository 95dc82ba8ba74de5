#![doc = include_str!("../README.md")]

mod keys;
mod link;
mod options;
mod redact;
mod scripts;
mod store;
#[cfg(feature = "testing")]
pub mod testing;
mod url_check;
mod wire;

pub use options::{AfterTimeout, RedisOptions};
pub use redact::redact_url;
pub use store::{EDIT_ATTEMPTS, RedisStore, StoredDigestKey};
pub use url_check::{UrlError, check_url};
