//! The decision to speak: host, stamped mode and runner first (no policy
//! lookup needed), then the workspace root and the containment of every path
//! the call names.

use advisor_core::{
    Containment, Environment, Gate, HostFacts, HostPath, PathStyle, PolicyNeed, SandboxMode,
    WithholdReason,
};

use crate::named::{NamedPath, NamedPaths, Origin};
use crate::recognize::Finding;

/// Declined: the host is not Windows, where no ACE inheritance exists.
pub const NOT_WINDOWS: &str = "not-windows";
/// Declined: `read-only` denies every write; the mode is working.
pub const READ_ONLY: &str = "read-only";
/// Declined: `danger-full-access` confines nothing, so a denial is not the sandbox's.
pub const UNCONFINED: &str = "unconfined-mode";
/// Declined: the executor marked a runner failure, which is never a denial.
pub const RUNNER_FAILURE: &str = "runner-failure";
/// Declined: the call names more absolute paths than a finding carries.
pub const TOO_MANY_PATHS: &str = "too-many-paths";
/// Declined: a named path is rooted in a variable, so where it points is unknown.
pub const VARIABLE_PATH: &str = "variable-path";
/// Declined: a named path has a component Windows rewrites (a trailing dot or space).
pub const AMBIGUOUS_PATH: &str = "ambiguous-path";
/// Declined: a named path lies outside the root; denying it is the sandbox's job.
pub const OUTSIDE_ROOT: &str = "outside-root";
/// Declined: the command names the root itself, which is not a descendant.
pub const NAMES_ROOT: &str = "names-root";
/// Declined: the call names no absolute path, so nothing can be placed.
pub const RELATIVE_PATHS_ONLY: &str = "relative-paths-only";
/// Withheld: the resolver reported a root that is not an absolute Windows path.
pub const ROOT_NOT_ABSOLUTE: &str = "workspace-root-not-absolute";

/// The verdicts that need no policy: the host, then the stamped mode, then the
/// runner, then what the named paths alone rule out.
pub fn before_policy(finding: &Finding, host: &HostFacts) -> Option<&'static str> {
    if !host.is_windows() {
        return Some(NOT_WINDOWS);
    }
    match finding.mode {
        SandboxMode::ReadOnly => return Some(READ_ONLY),
        SandboxMode::DangerFullAccess => return Some(UNCONFINED),
        SandboxMode::WorkspaceWrite => {}
    }
    if finding.runner_failed {
        return Some(RUNNER_FAILURE);
    }
    unplaceable(&finding.named)
}

/// The host, the stamped mode and the runner marker decide without the
/// resolver; only a finding that survives them needs the workspace root.
pub fn policy_need(finding: &Finding, host: &HostFacts) -> PolicyNeed {
    match before_policy(finding, host) {
        Some(_) => PolicyNeed::NotNeeded,
        None => PolicyNeed::Required,
    }
}

/// What the named paths rule out before any root is known: too many to carry,
/// one rooted in a variable, one Windows would rewrite, or no absolute path at all.
pub fn unplaceable(named: &NamedPaths) -> Option<&'static str> {
    if named.overflow {
        return Some(TOO_MANY_PATHS);
    }
    if named.opaque {
        return Some(VARIABLE_PATH);
    }
    if named.paths.iter().any(|p| p.ambiguous) {
        return Some(AMBIGUOUS_PATH);
    }
    if named.paths.is_empty() {
        return Some(RELATIVE_PATHS_ONLY);
    }
    None
}

/// The session's workspace root, read with Windows grammar, or why there is none.
pub fn root(env: &Environment) -> Result<HostPath, WithholdReason> {
    let policy = env.policy().map_err(WithholdReason::Unresolved)?;
    let root = policy
        .workspace_root
        .as_ref()
        .ok_or(WithholdReason::NoWorkspaceRoot)?;
    let path = match root.path().style() {
        PathStyle::Windows => root.path().clone(),
        PathStyle::Posix => HostPath::lexical(PathStyle::Windows, root.path().as_str()),
    };
    if path.is_absolute() {
        Ok(path)
    } else {
        Err(WithholdReason::Other(ROOT_NOT_ABSOLUTE))
    }
}

/// The named paths strictly inside `root`, or why the denial cannot be placed.
///
/// Every absolute path must lie strictly below the root. A working-directory
/// style argument equal to the root only says where the command ran; the
/// command naming the root itself is declined.
pub fn place<'f>(
    named: &'f NamedPaths,
    root: &HostPath,
) -> Result<Vec<&'f NamedPath>, &'static str> {
    if let Some(code) = unplaceable(named) {
        return Err(code);
    }
    let mut inside = Vec::with_capacity(named.paths.len());
    let mut names_root = false;
    for path in &named.paths {
        match path.path.relation_to(root) {
            Containment::Outside => return Err(OUTSIDE_ROOT),
            Containment::Same => names_root |= path.origin == Origin::Command,
            Containment::Inside => inside.push(path),
        }
    }
    if names_root {
        Err(NAMES_ROOT)
    } else if inside.is_empty() {
        // Only a working directory equal to the root: the command itself names no absolute path.
        Err(RELATIVE_PATHS_ONLY)
    } else {
        Ok(inside)
    }
}

/// Speak only for a `workspace-write` denial, on Windows, of paths strictly inside the root.
pub fn gate(finding: &Finding, env: &Environment) -> Gate {
    if let Some(code) = before_policy(finding, &env.host) {
        return Gate::Decline(code);
    }
    let root = match root(env) {
        Ok(root) => root,
        Err(reason) => return Gate::Withhold(reason),
    };
    match place(&finding.named, &root) {
        Ok(_) => Gate::Speak,
        Err(code) => Gate::Decline(code),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn win(raw: &str) -> HostPath {
        HostPath::lexical(PathStyle::Windows, raw)
    }

    fn placed(command: &str, root: &str) -> Result<usize, &'static str> {
        let mut named = NamedPaths::default();
        named.command(command);
        place(&named, &win(root)).map(|inside| inside.len())
    }

    #[test]
    fn containment_is_case_insensitive() {
        assert_eq!(placed(r"type d:\WS\Src\a.txt", r"D:\ws"), Ok(1));
        assert_eq!(placed(r"type D:\WS\SRC", r"d:\ws"), Ok(1));
    }

    #[test]
    fn containment_accepts_both_separators() {
        assert_eq!(placed(r"type D:/ws/src/a.txt", r"D:\ws"), Ok(1));
        assert_eq!(placed(r"type D:\ws/src\a.txt", r"D:\ws"), Ok(1));
        assert_eq!(placed(r"type D:\\ws\\src\\a.txt", r"D:\ws"), Ok(1));
    }

    #[test]
    fn containment_is_not_a_string_prefix() {
        assert_eq!(placed(r"type D:\ws2\a.txt", r"D:\ws"), Err(OUTSIDE_ROOT));
        assert_eq!(placed(r"type D:\wsx", r"D:\ws"), Err(OUTSIDE_ROOT));
    }

    #[test]
    fn containment_resolves_dot_dot_segments() {
        assert_eq!(placed(r"type D:\ws\a\..\b.txt", r"D:\ws"), Ok(1));
        assert_eq!(
            placed(r"type D:\ws\..\other\x", r"D:\ws"),
            Err(OUTSIDE_ROOT)
        );
        assert_eq!(
            placed(r"type D:\ws\a\..\..\ws2\x", r"D:\ws"),
            Err(OUTSIDE_ROOT)
        );
        assert_eq!(placed(r"type D:\ws\sub\..", r"D:\ws"), Err(NAMES_ROOT));
    }

    #[test]
    fn containment_respects_drive_letters_and_unc() {
        assert_eq!(placed(r"type C:\ws\a.txt", r"D:\ws"), Err(OUTSIDE_ROOT));
        assert_eq!(
            placed(r"type \\srv\share\ws\a", r"D:\ws"),
            Err(OUTSIDE_ROOT)
        );
        assert_eq!(placed(r"type \\srv\share\ws\a", r"\\srv\share\ws"), Ok(1));
        assert_eq!(placed(r"type //SRV/share/ws/a", r"\\srv\share\ws"), Ok(1));
        assert_eq!(placed(r"type \\?\D:\ws\a", r"D:\ws"), Err(OUTSIDE_ROOT));
    }

    #[test]
    fn the_root_itself_and_relative_paths_are_not_placed() {
        assert_eq!(
            placed(r"cd D:\ws; echo x > out.txt", r"D:\ws"),
            Err(NAMES_ROOT)
        );
        assert_eq!(placed(r"type D:\WS\", r"D:\ws"), Err(NAMES_ROOT));
        assert_eq!(
            placed(r"echo x > out\a.txt", r"D:\ws"),
            Err(RELATIVE_PATHS_ONLY)
        );
        assert_eq!(
            placed(r"echo x > D:out.txt", r"D:\ws"),
            Err(RELATIVE_PATHS_ONLY)
        );
    }

    #[test]
    fn one_outside_path_spoils_the_rest() {
        assert_eq!(
            placed(
                r#"& "C:\Program Files\nodejs\node.exe" D:\ws\build.js"#,
                r"D:\ws"
            ),
            Err(OUTSIDE_ROOT)
        );
    }

    #[test]
    fn a_working_directory_equal_to_the_root_is_neutral() {
        let mut named = NamedPaths::default();
        named.argument(r"D:\ws");
        assert_eq!(place(&named, &win(r"D:\ws")), Err(RELATIVE_PATHS_ONLY));
        named.command(r"echo x > D:\ws\sub\a.txt");
        assert_eq!(place(&named, &win(r"D:\ws")).map(|v| v.len()), Ok(1));
        named.argument(r"C:\elsewhere");
        assert_eq!(place(&named, &win(r"D:\ws")), Err(OUTSIDE_ROOT));
    }

    #[test]
    fn a_variable_rooted_path_is_not_placed() {
        assert_eq!(
            placed(
                r#"& "$env:ProgramFiles\nodejs\node.exe" D:\ws\build.js"#,
                r"D:\ws"
            ),
            Err(VARIABLE_PATH)
        );
        assert_eq!(
            placed(r"Set-Content ~/x D:\ws\a", r"D:\ws"),
            Err(VARIABLE_PATH)
        );
    }

    #[test]
    fn trailing_dots_and_spaces_are_not_placed() {
        assert_eq!(
            placed(r#"type "D:\ws\.. \x""#, r"D:\ws"),
            Err(AMBIGUOUS_PATH)
        );
        assert_eq!(placed(r"type D:\ws\sub.\x", r"D:\ws"), Err(AMBIGUOUS_PATH));
    }
}
