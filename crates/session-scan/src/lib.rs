//! `session-scan`: reads the sessions people already have (DeepSeek harness
//! session logs, Claude Code transcripts, Codex rollouts, Gemini CLI chats)
//! and reports what sandbox failures cost there, per family, and where the
//! advisor would have spoken. The CLI's `sandbox-advisor scan` is a thin shell over [`scan`].

pub mod analyze;
pub mod budget;
pub mod lines;
pub mod model;
pub mod report;
mod scan;
pub mod source;

pub use analyze::{Assume, ScanError, Zone, ZoneError};
pub use budget::Limits;
pub use scan::{JOBS_MAX, Options, scan};
