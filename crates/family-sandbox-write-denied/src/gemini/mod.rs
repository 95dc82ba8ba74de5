//! Gemini CLI's tool sandbox (`security.toolSandboxing`, bubblewrap on
//! Linux), as `@google/gemini-cli@0.61.0` builds it (read in its bundle,
//! `bwrapArgsBuilder` and `GOVERNANCE_FILES`; run in
//! `docs/hooks/gemini-cli/`):
//!
//! | path | inside the sandbox |
//! |---|---|
//! | `/` | read-only |
//! | the workspace (the hook's `cwd`) | writable (read-only in plan mode) |
//! | the workspace's `.git` | read-only, unless one of the command's roots is `git` |
//! | `/tmp` | a fresh tmpfs, emptied after every command |
//! | `tools.sandboxAllowedPaths`, an approved expansion's paths | writable |
//!
//! **Provenance.** Gemini marks a refusal its keyword match recognizes:
//! `tool_response.error.type` is `sandbox_expansion_required`, a field no
//! command's output reaches; `hook --dialect gemini-cli` carries it as the
//! failure's code ([`MARK`]). The mark says the sandbox ran the command and
//! Gemini read a refusal in its output; the host's own mount at the path
//! (writable, the hook looked) says it was not a real read-only mount.
//! Without the mark the family declines ([`NOT_MARKED`]): an unmarked
//! `Read-only file system` is a command Gemini ran without its sandbox
//! (`docs/hooks/gemini-cli/control-readonly-mount`), or a program's text.
//!
//! A path under a root added by `tools.sandboxAllowedPaths` is not seen by
//! the advisor (it does not read Gemini's settings); a write there is not
//! refused by the sandbox, so a refusal there is a real read-only mount,
//! which the mount check declines first.

pub mod brief;

use advisor_core::{Containment, Environment, HostPath, PathStyle};

use crate::facts::{Confinement, Not, Root, RootKind, absolute, workspace};
use crate::recognize::{Finding, Mark};

/// `tool_response.error.type` of a result Gemini CLI marked as its
/// sandbox's refusal (the failure's code, as the hook carries it).
pub const MARK: &str = "sandbox_expansion_required";

/// Declined: Gemini CLI did not mark the result as its sandbox's refusal.
pub const NOT_MARKED: &str = "not-marked";

/// The directory Gemini keeps read-only inside the workspace for commands
/// that do not run `git`.
pub const GIT_DIR: &str = ".git";

/// The writable roots of a result Gemini marked: the workspace and the
/// sandbox's own `/tmp`; a declined result without the mark.
pub fn confinement(finding: &Finding, env: &Environment) -> Result<Confinement, Not> {
    if finding.mark != Mark::SandboxExpansion {
        return Err(Not::Decline(NOT_MARKED));
    }
    let roots = vec![
        Root {
            path: workspace(env)?,
            kind: RootKind::Workspace,
        },
        Root {
            path: HostPath::lexical(PathStyle::Posix, "/tmp"),
            kind: RootKind::Temporary,
        },
    ];
    Ok(Confinement::OutsideRoots(roots))
}

/// The workspace's `.git` when `path` lies in it and the command does not
/// run git: the one place inside the workspace Gemini's sandbox keeps
/// read-only. `None` for every other path, and for any other host.
pub fn kept_git_dir(finding: &Finding, path: &HostPath, env: &Environment) -> Option<HostPath> {
    if env.host.kind != advisor_core::Host::GeminiCli
        || finding.mark != Mark::SandboxExpansion
        || finding.runs_git
    {
        return None;
    }
    let root = workspace(env).ok()?;
    let git = HostPath::lexical(PathStyle::Posix, &format!("{}/{GIT_DIR}", root.as_str()));
    (path.relation_to(&git) != Containment::Outside).then_some(git)
}

/// Whether the refused path lies in the workspace's `.git`, kept read-only
/// from this command ([`kept_git_dir`]).
pub fn in_git_dir(finding: &Finding, env: &Environment) -> bool {
    absolute(finding, env)
        .ok()
        .and_then(|path| kept_git_dir(finding, &path, env))
        .is_some()
}
