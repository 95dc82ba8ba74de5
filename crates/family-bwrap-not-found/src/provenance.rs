//! The provenance test: is bwrap really missing, or did a command print the
//! line and exit 127?
//!
//! Nothing in Gemini CLI's report tells them apart (the line and the exit
//! code are both in the text). The hook can look: it runs as Gemini CLI's
//! child, with Gemini's own `PATH`, outside the sandbox, so it asks whether
//! an executable `bwrap` lies on that `PATH` ([`Check::SandboxProgram`]).
//! Missing proves the line; found refutes it; unknown (no probe: `serve`,
//! `replay`) leaves it forgeable, and the brief then says to check first.

use advisor_core::{
    Check, Checks, Environment, HostFacts, Platform, ProgramOnPath, Proof, Provenance,
};

use crate::recognize::Finding;

/// Refuted: an executable bwrap is on Gemini CLI's `PATH`.
pub const BWRAP_FOUND: &str = "bwrap-on-path";

/// The check the hook makes for a recognized line.
pub fn checks(_finding: &Finding, host: &HostFacts) -> Checks {
    if host.platform == Platform::Linux {
        Checks::of(&[Check::SandboxProgram])
    } else {
        Checks::NONE
    }
}

/// Proven, refuted or forgeable, from the check in `env`.
pub fn provenance(_finding: &Finding, env: &Environment) -> Provenance {
    match env.checks.sandbox_program {
        Some(ProgramOnPath::Missing) => Provenance::Proven(Proof::HostCheck),
        Some(ProgramOnPath::Found) => Provenance::Refuted(BWRAP_FOUND),
        None => Provenance::Forgeable,
    }
}
