//! # sandbox-advisor (the CLI)
//!
//! The advisor for harnesses that are not written in Rust, for a person holding
//! a recorded session, and for a newcomer: a line protocol (`docs/protocol.md`)
//! over [`host_adapter::HostAdapter`] with every shipped family compiled in.
//!
//! - [`protocol`]: the versioned input events and output lines.
//! - [`engine`]: drives the adapter and the session policy from events.
//! - [`stream`]: the read → decide → write loop of `replay` and `serve`.
//! - [`render`]: JSON lines, or text for a terminal with a closing tally.
//! - [`withheld`]: withheld advisories in words, told once per session.
//! - [`config`]: the configuration file (TOML or JSON).
//! - [`explain`] and [`families`]: the two one-shot commands.
//! - [`hook`]: one Claude Code or Codex hook event in, the dialect's answer out.
//! - [`cli`]: the command line itself, over any registry, so a harness can
//!   build its own sidecar with its own families (the binary is
//!   `cli::run(host_adapter::standard_registry())`).

pub mod cli;
pub mod config;
pub mod engine;
pub mod explain;
pub mod families;
pub mod hook;
pub mod ledger;
pub mod lines;
pub mod protocol;
pub mod render;
pub mod stream;
pub mod withheld;
