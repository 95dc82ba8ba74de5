//! # family-pty — `pty-startup`
//!
//! ## What it detects
//!
//! A persistent shell tool (`@deepseek-ai/dsh-tool-bash-persistent`,
//! `@deepseek-ai/dsh-tool-pwsh-persistent`) failing with the terminal backend's
//! own throw, `PTY shell exited during startup`: the shell spawned through the
//! sandbox and exited before its first prompt. The failure's message, read
//! through the one envelope rule ([`advisor_core::envelope::unwrap`]), must be
//! that sentence and nothing else, or that sentence as its first line with
//! only stack frames (`    at …`) below it; with an empty message, the
//! rendered content is read the same way. The advisory quotes the sentence as
//! the failure carried it.
//!
//! ## Why it matters
//!
//! Under a confining sandbox mode the pseudo-console cannot be created, so every
//! shell call of the session dies the same way and the message names no cause
//! (#7638). Whether it fails is deterministic per (session mode × host binary):
//! a console-subsystem node host starts the shell, the packaged desktop app's
//! GUI-subsystem Electron host does not (#8322). The model cannot repair it — it
//! has no shell left — so the advisory tells it to stop and hands the user the
//! ranked remedies (a one-shot shell preset, a profile-patch override, a host that
//! owns a console, and last `danger-full-access`).
//!
//! ## What it refuses
//!
//! - A longer line or message that contains the sentence, or a line below it
//!   that is not a stack frame: something quoting it.
//! - The sibling `PTY shell did not reach readiness before startup timeout` (a
//!   shell that started and then stalled), the cleanup and rollback aggregates,
//!   and the `… did not accept initialization` neighbours.
//! - A successful result quoting the sentence.
//! - Under `danger-full-access`, and when the mode cannot be resolved, it
//!   withholds (disclosed once on the host log); it never falls back to the
//!   deployment default.
//!
//! ## Not a fail-fast family
//!
//! Its remedy is a preset change between sessions, so refusing calls could not
//! help. `PtyStartup` does not implement [`advisor_core::FailFast`], so it cannot
//! be registered as the budget's family:
//!
//! ```compile_fail,E0277
//! let _ = advisor_core::Registry::builder().fail_fast_family(family_pty::PtyStartup);
//! ```
//!
//! It registers as an ordinary family:
//!
//! ```
//! let registry = advisor_core::Registry::builder()
//!     .family(family_pty::PtyStartup)
//!     .build()
//!     .map_err(|e| e.to_string())?;
//! assert_eq!(registry.fail_fast_family(), None);
//! # Ok::<(), String>(())
//! ```

pub mod advise;
pub mod gate;
pub mod recognize;

use advisor_core::{
    Advisory, Anchors, Environment, Family, FamilyDoc, FamilyId, Gate, Observation,
};

pub use recognize::{Carrier, Finding, SENTENCE, STACK_FRAME};

/// The family id.
pub const ID: FamilyId = FamilyId::new("pty-startup");

/// The persistent-shell startup family.
#[derive(Debug, Default, Clone, Copy)]
pub struct PtyStartup;

impl Family for PtyStartup {
    type Finding = Finding;

    fn id(&self) -> FamilyId {
        ID
    }

    fn doc(&self) -> FamilyDoc {
        FamilyDoc {
            recognizes: "a failure whose message is `PTY shell exited during startup` (one \
                         envelope allowed), alone or above stack frames only, spoken only under a \
                         confining mode",
            refuses: "a longer line quoting it, any later line that is not a stack frame, the \
                      readiness-timeout sibling, a successful result quoting it; withholds under \
                      danger-full-access or an unresolved mode",
        }
    }

    fn anchors(&self) -> Anchors {
        Anchors::FailureText {
            needles: &[SENTENCE],
        }
    }

    fn recognize(&self, observation: &Observation) -> Option<Finding> {
        recognize::recognize(observation)
    }

    fn gate(&self, finding: &Finding, env: &Environment) -> Gate {
        gate::gate(finding, env)
    }

    fn advise(&self, finding: &Finding, env: &Environment) -> Advisory {
        advise::advise(finding, env)
    }
}
