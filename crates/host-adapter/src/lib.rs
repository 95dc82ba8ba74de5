//! # host-adapter
//!
//! Mounts sandbox-advisor on a harness's tool pipeline:
//!
//! | harness seat | call |
//! |---|---|
//! | `tools/post-execute` | [`HostAdapter::post_execute`] / [`HostAdapter::post_execute_around`] |
//! | `tools/pre-execute` | [`HostAdapter::pre_execute`] (fail-fast; off unless `enforceAfter > 0`) |
//! | session start / pre-flight | [`HostAdapter::session_start`] |
//! | agent end | [`HostAdapter::agent_end`] |
//!
//! It ships [`SessionPolicy`], the resolver that follows `dsh-sandbox-policy`
//! (seed 002), and [`standard_registry`], the shipped families in precedence
//! order, each behind a Cargo feature (all on by default).

mod adapter;
#[cfg(feature = "dsh")]
pub mod dsh;
mod policy;
mod registry;

pub use adapter::{
    AcceptsContexts, AdapterError, HostAdapter, HostAdapterBuilder, PostExecute, PostToolDecision,
};
pub use policy::{PolicyDefaults, SessionPolicy, canonical_root};
pub use registry::standard_registry;

#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
