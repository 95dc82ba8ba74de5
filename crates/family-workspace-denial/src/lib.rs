//! # family-workspace-denial
//!
//! ## What it detects
//!
//! A write refused *inside* the session's own workspace on Windows: a shell
//! command that ran under `workspace-write`, did not report a clean exit (a
//! non-zero exit code, or none reported at all), and that the sandbox executor
//! stamped `sandbox: { mode: "workspace-write", denied: true }` in the tool's
//! canonical value — while every absolute path the command names lies strictly
//! below the workspace root the policy resolver reports. An exit code the value
//! does not report (absent, null, not an integer) is "not reported": it blocks
//! nothing and is never written as a number.
//!
//! The shipped shell tools report a non-zero exit as a finished run, not as an
//! error, so this is read from a *successful* result's value (the executor's
//! stamp: the mode the call actually ran under, the denied flag computed from
//! the backend's refusal dialect in the captured stderr, the enforcement, the
//! runner-failure marker). Text that looks like a denial is never enough.
//!
//! ## Why it matters
//!
//! The Windows ACL backend writes its grant once, on the workspace root, and
//! relies on ACE inheritance to reach the tree. Children that already existed
//! and on which the account lacked `WRITE_DAC` were skipped silently, and the
//! backend's idempotency check looks only at the root, so they are never
//! revisited: the model retries a write that can never succeed. The advisory
//! says so, names the check, forks the three branches by breadth (DACL, label,
//! the root's own grant gone), and ships no repair command — with the reason.
//!
//! ## What it refuses
//!
//! A denial under `read-only` (the mode working) or `danger-full-access` (no
//! confinement), any non-Windows host (decided before any policy lookup), a
//! runner failure, a command naming a path outside the root, naming an outside
//! path as well as an inside one, naming only relative paths, naming the root
//! itself, or naming a path rooted in a variable (`$env:ProgramFiles\…`), whose
//! target cannot be known. Containment is computed on lexically normalized paths with Windows
//! semantics, never on string prefixes (`D:\ws2` is not inside `D:\ws`). When
//! the root cannot be resolved the advisory is withheld and disclosed once.

mod advise;
mod gate;
mod named;
mod recognize;

use advisor_core::{
    Advisory, Anchors, Environment, Family, FamilyDoc, FamilyId, Gate, HostFacts, Observation,
    PolicyNeed,
};

pub use gate::{
    AMBIGUOUS_PATH, NAMES_ROOT, NOT_WINDOWS, OUTSIDE_ROOT, READ_ONLY, RELATIVE_PATHS_ONLY,
    ROOT_NOT_ABSOLUTE, RUNNER_FAILURE, TOO_MANY_PATHS, UNCONFINED, VARIABLE_PATH,
};
pub use named::{MAX_PATHS, NamedPath, NamedPaths, Origin};
pub use recognize::Finding;

/// The family's stable id.
pub const ID: FamilyId = FamilyId::new("workspace-denial");

/// Denied inside the workspace: a `workspace-write` denial, on Windows, of paths
/// strictly below the session's workspace root.
#[derive(Debug, Default, Clone, Copy)]
pub struct WorkspaceDenial;

impl Family for WorkspaceDenial {
    type Finding = Finding;

    fn id(&self) -> FamilyId {
        ID
    }

    fn doc(&self) -> FamilyDoc {
        FamilyDoc {
            recognizes: "a finished shell command the sandbox executor stamped denied under \
                         workspace-write on Windows, naming only paths strictly inside the workspace root",
            refuses: "read-only, danger-full-access, non-Windows hosts, runner failures, and commands \
                      naming an outside path, only relative paths, the root itself or a \
                      variable-rooted path: there the denial is sanctioned or cannot be placed",
        }
    }

    /// The denied stamp alone: an exit code the value does not report must
    /// not hide a stamped denial from the recognizer (which refuses a reported 0).
    fn anchors(&self) -> Anchors {
        Anchors::ForegroundRun {
            failed_exit: false,
            denied_stamp: true,
            stderr_needles: &[],
        }
    }

    fn recognize(&self, observation: &Observation) -> Option<Finding> {
        recognize::recognize(observation)
    }

    /// The host, the stamped mode and the runner marker decide without the
    /// resolver; only a finding that survives them needs the workspace root.
    fn policy_need(&self, finding: &Finding, host: &HostFacts) -> PolicyNeed {
        match gate::before_policy(finding, host) {
            Some(_) => PolicyNeed::NotNeeded,
            None => PolicyNeed::Required,
        }
    }

    fn gate(&self, finding: &Finding, env: &Environment) -> Gate {
        gate::gate(finding, env)
    }

    fn advise(&self, finding: &Finding, env: &Environment) -> Advisory {
        advise::advise(finding, env)
    }
}
