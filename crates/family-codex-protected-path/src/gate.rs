//! The decision to speak: Codex on Linux, under `workspace-write`, for a path
//! that lies under one of the workspace root's protected names.
//!
//! The registry shows this family only Codex's observations (`hosts`). On
//! Linux, Codex's sandbox is bubblewrap, whose read-only binds answer a write
//! with `EROFS`. `read-only` refuses every write, so a refused write is that
//! mode working, not this story: it defers ([`Gate::Defer`]) to the family
//! of refused writes, which tells that story. `danger-full-access` confines
//! nothing, so `EROFS` there is a real read-only mount. A path outside the
//! workspace root (another mount, a write outside the writable roots), or
//! inside it under any other name, is something else, and defers too:
//! `Read-only file system` alone never says "protected path".

use advisor_core::{Environment, Gate, Platform, SandboxMode, WithholdReason};

use crate::facts::{AFTER_CD, place, resolved, root};
use crate::recognize::Finding;

/// Deferred: `read-only` refuses every write; the mode is working.
pub const READ_ONLY: &str = "read-only";
/// Declined: `danger-full-access` confines nothing; the mount is real.
pub const UNCONFINED: &str = "unconfined-mode";

/// Speak only under `workspace-write` on Linux, for a protected path inside the root.
pub fn gate(finding: &Finding, env: &Environment) -> Gate {
    if env.host.platform != Platform::Linux {
        return Gate::Withhold(WithholdReason::PlatformOutOfScope(env.host.platform));
    }
    let mode = match env.mode() {
        Ok(mode) => mode,
        Err(why) => return Gate::Withhold(WithholdReason::Unresolved(why)),
    };
    match mode {
        SandboxMode::ReadOnly => return Gate::Defer(READ_ONLY),
        SandboxMode::DangerFullAccess => return Gate::Decline(UNCONFINED),
        SandboxMode::WorkspaceWrite => {}
    }
    let root = match root(env) {
        Ok(root) => root,
        Err(reason) => return Gate::Withhold(reason),
    };
    let Some(path) = resolved(&finding.place, finding.path.inspect(), &root) else {
        return Gate::Withhold(WithholdReason::Other(AFTER_CD));
    };
    match place(&path, &root) {
        Ok(_) => Gate::Speak,
        Err(code) => Gate::Defer(code),
    }
}
