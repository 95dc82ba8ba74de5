//! What the gate, the brief and the detail all read: Codex's protected names,
//! the session's workspace root, and where a path lies against it.
//!
//! The list is Codex's own: `openai/codex`, `codex-rs/protocol/src/permissions.rs`,
//! `default_read_only_subpaths_for_writable_root` (read at commit
//! `16d914f3ba9a91289b8dc1a859b7e9ce6be5ea5e`). For every writable root it
//! keeps the root's **top-level** `.git` (a directory, or a gitdir pointer
//! file together with the directory it points to), `.agents` and `.codex`
//! read-only. Only the top level: a nested repository's `.git` is not on it.

use advisor_core::{Containment, Environment, HostPath, PathStyle, WithholdReason};

/// Declined: the path is not strictly inside the workspace root.
pub const OUTSIDE_ROOT: &str = "outside-root";
/// Declined: inside the root, but its first component is no protected name.
pub const NOT_PROTECTED: &str = "not-protected-path";
/// Withheld: the resolver reported a root that is not an absolute path.
pub const ROOT_NOT_ABSOLUTE: &str = "workspace-root-not-absolute";
/// Withheld: a relative path printed after the command changed directory.
pub const AFTER_CD: &str = "relative-path-after-directory-change";

/// Where the refused path points, as far as the text tells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// An absolute path, normalized lexically.
    Absolute(HostPath),
    /// Relative to the working directory.
    Relative,
    /// Relative, but printed after the command changed directory.
    AfterDirectoryChange,
}

/// A top-level name Codex keeps read-only inside a writable root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protected {
    /// The repository: its objects, refs, index and hooks.
    Git,
    /// The agent skills kept in the project.
    Agents,
    /// Codex's own project configuration.
    Codex,
}

impl Protected {
    /// Every protected name, as Codex spells it.
    pub const ALL: &'static [(Protected, &'static str)] = &[
        (Protected::Git, ".git"),
        (Protected::Agents, ".agents"),
        (Protected::Codex, ".codex"),
    ];

    /// The name as Codex spells it.
    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(p, _)| *p == self)
            .map_or("", |(_, n)| n)
    }

    /// The protected name `component` is, compared exactly (Linux is case-sensitive).
    pub fn parse(component: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .find(|(_, n)| *n == component)
            .map(|(p, _)| *p)
    }
}

/// The session's workspace root, read with Linux grammar, or why there is none.
pub fn root(env: &Environment) -> Result<HostPath, WithholdReason> {
    let policy = env.policy().map_err(WithholdReason::Unresolved)?;
    let root = policy
        .workspace_root
        .as_ref()
        .ok_or(WithholdReason::NoWorkspaceRoot)?;
    let path = match root.path().style() {
        PathStyle::Posix => root.path().clone(),
        PathStyle::Windows => HostPath::lexical(PathStyle::Posix, root.path().as_str()),
    };
    if path.is_absolute() {
        Ok(path)
    } else {
        Err(WithholdReason::Other(ROOT_NOT_ABSOLUTE))
    }
}

/// The normalized components of a Linux path.
fn components(path: &HostPath) -> impl Iterator<Item = &str> {
    path.as_str()
        .split('/')
        .filter(|c| !c.is_empty() && *c != ".")
}

/// The protected name `path` lies under, as the first component below `root`;
/// or why it lies under none.
pub fn place(path: &HostPath, root: &HostPath) -> Result<Protected, &'static str> {
    if path.relation_to(root) != Containment::Inside {
        return Err(OUTSIDE_ROOT);
    }
    let depth = components(root).count();
    let first = components(path).nth(depth).ok_or(OUTSIDE_ROOT)?;
    Protected::parse(first).ok_or(NOT_PROTECTED)
}

/// The refused path made absolute: as printed, or a relative one resolved
/// against `root` (the working directory); `None` after a directory change.
pub fn resolved(place: &Place, printed: &str, root: &HostPath) -> Option<HostPath> {
    match place {
        Place::Absolute(path) => Some(path.clone()),
        Place::Relative => Some(HostPath::lexical(
            PathStyle::Posix,
            &format!("{}/{printed}", root.as_str()),
        )),
        Place::AfterDirectoryChange => None,
    }
}

/// The protected name, when this environment's root places the path (as
/// printed, at `place`) under one.
pub fn protected(place_of: &Place, printed: &str, env: &Environment) -> Option<Protected> {
    let root = root(env).ok()?;
    place(&resolved(place_of, printed, &root)?, &root).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placed(path: &str, root: &str) -> Result<Protected, &'static str> {
        let posix = |raw| HostPath::lexical(PathStyle::Posix, raw);
        place(&posix(path), &posix(root))
    }

    #[test]
    fn each_protected_name_at_the_top_level() {
        assert_eq!(placed("/ws/.git/index.lock", "/ws"), Ok(Protected::Git));
        assert_eq!(placed("/ws/.git", "/ws"), Ok(Protected::Git));
        assert_eq!(placed("/ws/.agents/skills/x", "/ws"), Ok(Protected::Agents));
        assert_eq!(
            placed("/ws/.codex/config.toml", "/ws"),
            Ok(Protected::Codex)
        );
        assert_eq!(
            placed("/a/b/ws/.git/HEAD.lock", "/a/b/ws/"),
            Ok(Protected::Git)
        );
        assert_eq!(placed("/ws/src/../.git/x.lock", "/ws"), Ok(Protected::Git));
    }

    #[test]
    fn other_names_and_deeper_repositories_are_not_protected() {
        for path in [
            "/ws/.gitkeep",
            "/ws/.github/workflows/ci.yml",
            "/ws/src/.gitkeep",
            "/ws/vendor/x/.git/index.lock",
            "/ws/.GIT/index.lock",
            "/ws/.codex2/x",
        ] {
            assert_eq!(placed(path, "/ws"), Err(NOT_PROTECTED), "{path}");
        }
    }

    #[test]
    fn containment_is_by_component() {
        assert_eq!(placed("/ws2/.git/index.lock", "/ws"), Err(OUTSIDE_ROOT));
        assert_eq!(
            placed("/srv/m/ws/.git/index.lock", "/ws"),
            Err(OUTSIDE_ROOT)
        );
        assert_eq!(placed("/ws/../other/.git/x.lock", "/ws"), Err(OUTSIDE_ROOT));
        assert_eq!(placed("/ws", "/ws"), Err(OUTSIDE_ROOT));
        assert_eq!(placed("/other/.git/x.lock", "/"), Err(NOT_PROTECTED));
        assert_eq!(placed("/.git/x.lock", "/"), Ok(Protected::Git));
    }

    #[test]
    fn names_round_trip() {
        for (p, n) in Protected::ALL {
            assert_eq!(p.name(), *n);
            assert_eq!(Protected::parse(n), Some(*p));
        }
    }
}
