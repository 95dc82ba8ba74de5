//! The family's two carriers, one finding type: a confined child that died
//! with `0xC0000142` (a success value), or one of the desktop trampoline's
//! own failure lines inside a runner failure (issue 24).

use advisor_core::{Advisory, Environment, Gate, HostFacts, Observation, PolicyNeed};

use crate::desktop::{self, TrampolineFinding};
use crate::recognize::Finding;

/// What the family recognized.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// A confined child that never started (the value's exit code).
    ChildNeverStarted(Finding),
    /// The desktop trampoline's own failure (read in source, never seen in a report).
    Trampoline(TrampolineFinding),
}

/// Either carrier; `None` (without allocating) for anything else.
pub fn recognize(observation: &Observation) -> Option<Found> {
    match crate::recognize::recognize(observation) {
        Some(finding) => Some(Found::ChildNeverStarted(finding)),
        None => desktop::recognize(observation).map(Found::Trampoline),
    }
}

/// The child's gate is the mode's; the trampoline's is the platform's (its
/// error already names the confining mode it ran under).
pub fn gate(found: &Found, env: &Environment) -> Gate {
    match found {
        Found::ChildNeverStarted(finding) => crate::gate::gate(finding, env),
        Found::Trampoline(_) => crate::trampoline::gate(env),
    }
}

/// The policy is needed only for the child's gate.
pub fn policy_need(found: &Found, _host: &HostFacts) -> PolicyNeed {
    match found {
        Found::ChildNeverStarted(_) => PolicyNeed::Required,
        Found::Trampoline(_) => PolicyNeed::NotNeeded,
    }
}

/// The advisory for either carrier.
pub fn advise(found: &Found, env: &Environment) -> Advisory {
    match found {
        Found::ChildNeverStarted(finding) => crate::advise::advise(finding, env),
        Found::Trampoline(finding) => crate::trampoline::advise(finding, env),
    }
}
