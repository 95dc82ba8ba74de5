//! The decision to speak. In order, each a withhold or a decline when it
//! does not hold:
//!
//! 1. **Where the carrier exists**: the `EROFS` line on Linux (bubblewrap's
//!    read-only binds), the Seatbelt line on macOS in Claude Code.
//! 2. **The sandbox confines writes**: Claude Code's settings turn it on;
//!    Codex runs `read-only` or `workspace-write` (the stated mode, else
//!    its configuration's).
//! 3. **The path is known**: absolute, or relative to a working directory
//!    the command did not leave.
//! 4. **The host's own mount there is writable** (the hook looked, outside
//!    the sandbox): a read-only mount refused it, not the sandbox.
//! 5. **The path is outside every writable root the advisor knows**
//!    (`crate::facts`); inside one, something else refused it, except the
//!    workspace's `.git` under Gemini CLI for a command that does not run
//!    git, which its sandbox keeps read-only ([`crate::facts::kept_git_dir`]).
//!
//! Under Gemini CLI, condition 2 is its mark on the result: a result it did
//! not mark is declined (`not-marked`).

use advisor_core::{Environment, Gate, Host, MountFact, Platform, WithholdReason};

use crate::facts::{
    Confinement, HOST_READ_ONLY, INSIDE_ROOT, MOUNT_NOT_CHECKED, Not, absolute, confinement,
    holding, kept_git_dir,
};
use crate::recognize::{Carrier, Finding};

/// Speak only for a write the sandbox refused outside its writable roots.
pub fn gate(finding: &Finding, env: &Environment) -> Gate {
    match decide(finding, env) {
        Ok(()) => Gate::Speak,
        Err(Not::Withhold(reason)) => Gate::Withhold(reason),
        Err(Not::Decline(code)) => Gate::Decline(code),
    }
}

fn decide(finding: &Finding, env: &Environment) -> Result<(), Not> {
    let platform = env.host.platform;
    let carried = match finding.carrier {
        Carrier::Erofs(_) => platform == Platform::Linux,
        Carrier::Seatbelt => platform == Platform::Macos && env.host.kind == Host::ClaudeCode,
    };
    if !carried {
        return Err(Not::Withhold(WithholdReason::PlatformOutOfScope(platform)));
    }
    let confinement = confinement(finding, env)?;
    let path = absolute(finding, env)?;
    match &env.checks.mount {
        Some(MountFact::Writable { .. }) => {}
        Some(MountFact::ReadOnly { .. }) => return Err(Not::Decline(HOST_READ_ONLY)),
        Some(MountFact::Unknown(code)) => return Err(Not::Withhold(WithholdReason::Other(code))),
        None => return Err(Not::Withhold(WithholdReason::Other(MOUNT_NOT_CHECKED))),
    }
    if let Confinement::OutsideRoots(roots) = &confinement {
        if holding(&path, roots).is_some() && kept_git_dir(finding, &path, env).is_none() {
            return Err(Not::Decline(INSIDE_ROOT));
        }
    }
    Ok(())
}
