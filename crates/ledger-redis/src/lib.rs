#![doc = include_str!("../README.md")]

mod keys;
mod link;
mod scripts;
mod store;
#[cfg(feature = "testing")]
pub mod testing;

pub use store::{EDIT_ATTEMPTS, RedisOptions, RedisStore};
