//! # family-acl — `acl-provisioning`
//!
//! ## What it detects
//!
//! The Windows ACL backend's refusal to provision a workspace:
//! `SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)`, a `Win32Error`
//! message thrown out of the sandbox provider before the command runs. It is
//! recognized only on a failed call, in the error's message or in its rendered
//! content, at the start of a line after the one envelope rule
//! ([`advisor_core::envelope::unwrap`]): bare (the session path), behind one
//! short framing tag (`[provider] …`), behind the runner's `windows-acl-run: `
//! prefix, or as the runner failure inside the `SandboxUnavailableError`
//! sentence (the agentless path). The detail is the labelled directory for
//! the apply, the bare or the labelled directory for the read, or absent (the
//! `Win32Error` format appends `: <detail>` only when one was given). The API
//! and the Win32 code pick the advisory: apply-denied and read-denied (code 5,
//! `ERROR_ACCESS_DENIED`), apply-other and read-other (any other code, which
//! gets its own paragraph and none of the access-denied material).
//!
//! ## Why it matters
//!
//! The grant is applied before any command runs and nothing is cached when it
//! throws, so every sandboxed call in the workspace fails the same way, and the
//! message names neither the missing right (WRITE_OWNER, for the label half of
//! a merged DACL + label write) nor a remedy. The advisory names the cause, the
//! read-only check that confirms it, and the one-line grant forked on who owns
//! the directory — plus what that grant leaves behind.
//!
//! This is the one fail-fast family ([`advisor_core::FailFast`]): its remedy is
//! a command the user can run while the session continues, so refusing further
//! identical calls within the bounded budget cannot make a session unfinishable.
//!
//! ## What it refuses
//!
//! - A success whose output quotes the line (reading a log is not a failure).
//! - The same package's other failures: `SetEntriesInAclW` (an in-memory merge,
//!   no object, no rights), `LocalFree`, `LockFileEx`, `SetConsoleCtrlHandler`,
//!   `SetEnvironmentVariableW`.
//! - A line that mentions the API mid-sentence, or behind anything but one
//!   short tag; a second envelope; a hexadecimal, signed or zero code; a
//!   `Set…` detail without its `grantWrite`/`revokeWrite` label, or a labelled
//!   detail with text after it; text after the code when there is no detail;
//!   a runner `cleanup:` line.
//! - The members of an aggregate error (the aggregate family's world).
//!
//! There is no mode gate and no platform gate: the line can only come from the
//! Windows backend on a confining path, so the resolver is never consulted.

mod advise;
mod finding;
mod gate;
mod recognize;

use advisor_core::{
    Advisory, Anchors, Environment, FailFast, Family, FamilyDoc, FamilyId, Gate, HostFacts,
    Observation, PolicyNeed, RegistryBuilder,
};

pub use finding::{AclClass, AclFinding, Api, Carrier, Field, Label};

/// The family's stable id.
pub const ID: FamilyId = FamilyId::new("acl-provisioning");

/// The Windows ACL provisioning failure family.
#[derive(Debug, Default, Clone, Copy)]
pub struct AclProvisioning;

impl Family for AclProvisioning {
    type Finding = AclFinding;

    fn id(&self) -> FamilyId {
        ID
    }

    fn doc(&self) -> FamilyDoc {
        FamilyDoc {
            recognizes: "a failed call whose message or content carries the Windows ACL backend's \
                         `SetNamedSecurityInfoW`/`GetNamedSecurityInfoW failed (Win32 <n>)[: …]` line \
                         (session path, bare or behind one short tag, or the runner failure inside \
                         SandboxUnavailableError)",
            refuses: "successes quoting the line, mid-sentence mentions, SetEntriesInAclW / LocalFree / \
                      LockFileEx / SetConsoleCtrlHandler / SetEnvironmentVariableW failures, and \
                      aggregate members: none of them is this backend refusing a directory's ACL",
        }
    }

    fn anchors(&self) -> Anchors {
        Anchors::FailureText {
            needles: &[recognize::NEEDLE],
        }
    }

    fn recognize(&self, observation: &Observation) -> Option<AclFinding> {
        recognize::recognize(observation)
    }

    fn policy_need(&self, finding: &AclFinding, host: &HostFacts) -> PolicyNeed {
        gate::policy_need(finding, host)
    }

    fn gate(&self, finding: &AclFinding, _env: &Environment) -> Gate {
        gate::gate(finding)
    }

    fn advise(&self, finding: &AclFinding, env: &Environment) -> Advisory {
        advise::advise(finding, env)
    }
}

/// Its remedy runs while the session continues, so it may feed the fail-fast budget.
impl FailFast for AclProvisioning {}

/// Registers the family the only way it should be: as the fail-fast family.
pub fn register(builder: RegistryBuilder) -> RegistryBuilder {
    builder.fail_fast_family(AclProvisioning)
}
