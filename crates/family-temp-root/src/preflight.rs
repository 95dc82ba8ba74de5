//! The pre-flight seat: the backend's containment check, computed before the
//! first command fails.
//!
//! The backend resolves both directories with `realpathSync.native` and then
//! asks `path.relative(root, temp)`: an empty relation (the same directory) or
//! one that does not climb out with `..` means the temp root is inside. Here,
//! when both directories exist on this machine they are resolved with
//! [`std::fs::canonicalize`] and compared with this machine's path grammar;
//! otherwise (a recorded Windows session replayed elsewhere) they are compared
//! by spelling with the host's grammar, and the advisory says which it was.
//! This is the only place the family does I/O.
//!
//! The dependency runs one way: this module computes the facts and asks
//! [`advise`](crate::advise) for the text; the facts' types live in
//! [`facts`](crate::facts), and `advise` never calls back here.

use std::path::Path;

use advisor_core::{
    Containment, Environment, HostPath, Platform, PreflightVerdict, SandboxMode, Untrusted,
    WithholdReason, paths,
};

use crate::advise;
pub use crate::facts::{Comparison, PreflightFacts};

/// The withhold code for a Windows host that reports no temp directory.
pub const NO_TEMP_DIR: &str = "no-temp-dir";

/// The withhold code for directories that could be compared neither on disk nor by spelling.
pub const NOT_COMPARABLE: &str = "temp-root-not-comparable";

/// The verdict for one session: withhold when the host cannot answer, clear
/// outside `workspace-write` or when the temp root is outside, advise otherwise.
pub fn verdict(env: &Environment) -> PreflightVerdict {
    if !env.host.is_windows() {
        return PreflightVerdict::Clear;
    }
    let policy = match env.policy() {
        Ok(policy) => policy,
        Err(unresolved) => {
            return PreflightVerdict::Withhold(WithholdReason::Unresolved(unresolved));
        }
    };
    match policy.mode {
        SandboxMode::WorkspaceWrite => {}
        // read-only materializes no private temp capability; danger-full-access confines nothing.
        SandboxMode::ReadOnly | SandboxMode::DangerFullAccess => return PreflightVerdict::Clear,
    }
    let Some(root) = policy.workspace_root.as_ref() else {
        return PreflightVerdict::Withhold(WithholdReason::NoWorkspaceRoot);
    };
    let Some(temp) = env.host.temp_dir.as_deref() else {
        return PreflightVerdict::Withhold(WithholdReason::Other(NO_TEMP_DIR));
    };
    let workspace = root.path().as_str();
    let Some((comparison, relation)) = compare(env.host.platform, workspace, temp) else {
        return PreflightVerdict::Withhold(WithholdReason::Other(NOT_COMPARABLE));
    };
    match relation {
        Containment::Outside => PreflightVerdict::Clear,
        Containment::Inside | Containment::Same => PreflightVerdict::Advise(advise::preflight(
            &PreflightFacts {
                host: env.host.platform,
                mode: policy.mode,
                workspace: Untrusted::new(workspace),
                temp: Untrusted::new(temp),
                comparison,
                relation,
            },
            env,
        )),
    }
}

/// Where `temp` lies relative to `workspace`, and how that was decided;
/// `None` when the spellings are not absolute paths of the host's grammar.
pub fn compare(host: Platform, workspace: &str, temp: &str) -> Option<(Comparison, Containment)> {
    // A UNC spelling is never handed to the filesystem: it would open a connection.
    let resolved = if paths::is_unc_or_device(workspace) || paths::is_unc_or_device(temp) {
        None
    } else {
        Some((
            std::fs::canonicalize(workspace),
            std::fs::canonicalize(temp),
        ))
    };
    if let Some((Ok(root), Ok(tmp))) = resolved {
        let relation = local_relation(&tmp, &root);
        let comparison = Comparison::Canonical {
            workspace: display(&root),
            temp: display(&tmp),
        };
        return Some((comparison, relation));
    }
    let style = host.path_style();
    let (root, tmp) = (
        HostPath::lexical(style, workspace),
        HostPath::lexical(style, temp),
    );
    if !root.is_absolute() || !tmp.is_absolute() {
        return None;
    }
    Some((Comparison::Lexical, tmp.relation_to(&root)))
}

/// `path.relative(root, temp)` on resolved local paths: empty is the same
/// directory, a relation that does not climb out is inside.
fn local_relation(temp: &Path, root: &Path) -> Containment {
    match temp.strip_prefix(root) {
        Ok(rest) if rest.as_os_str().is_empty() => Containment::Same,
        Ok(_) => Containment::Inside,
        Err(_) => Containment::Outside,
    }
}

/// A resolved path as the user would spell it (no verbatim drive prefix).
fn display(path: &Path) -> Untrusted {
    Untrusted::new(paths::strip_verbatim_drive(&path.to_string_lossy()))
}

// Its one test needs POSIX `//` semantics (a Windows host resolves such a spelling remotely).
#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// A spelling that starts like a UNC path is compared by spelling even
    /// when this machine could resolve it (POSIX reads a leading `//` as `/`):
    /// resolving it on Windows would open a network connection. Either
    /// operand alone is enough.
    #[cfg(unix)]
    #[test]
    fn a_remote_spelling_is_never_resolved() {
        let base =
            std::env::temp_dir().join(format!("family-temp-root-unit-{}", std::process::id()));
        let temp = base.join("t");
        std::fs::create_dir_all(&temp).expect("scratch dir");
        let (ws, tmp) = (base.to_string_lossy(), temp.to_string_lossy());
        let (remote_ws, remote_tmp) = (format!("/{ws}"), format!("/{tmp}"));
        let kind = |w: &str, t: &str| {
            compare(Platform::Linux, w, t).map(|(c, r)| (matches!(c, Comparison::Lexical), r))
        };
        let local = kind(&ws, &tmp);
        let workspace_remote = kind(&remote_ws, &tmp);
        let temp_remote = kind(&ws, &remote_tmp);
        let _ = std::fs::remove_dir_all(&base);
        assert_eq!(local, Some((false, Containment::Inside)));
        assert_eq!(workspace_remote, Some((true, Containment::Inside)));
        assert_eq!(temp_remote, Some((true, Containment::Inside)));
    }
}
