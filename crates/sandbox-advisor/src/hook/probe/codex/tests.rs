//! The layers' keys, their merge, and trust.

use super::*;

#[test]
fn the_sandbox_keys_and_nothing_else() {
    let l = layer(
        "model = \"x\"\nsandbox_mode = \"workspace-write\"\n\
         [sandbox_workspace_write]\nwritable_roots = [\"/srv/extra\", \"/a/../b\", \"c\"]\n\
         network_access = true\n[projects.\"/srv/p\"]\ntrust_level = \"trusted\"\n\
         [projects.\"/srv/q\"]\ntrust_level = \"untrusted\"\n",
        "/home/u/.codex",
    )
    .unwrap();
    assert_eq!(l.sandbox_mode, Some(SandboxMode::WorkspaceWrite));
    let roots: Vec<_> = l
        .writable_roots
        .unwrap()
        .iter()
        .map(|p| p.as_str().to_owned())
        .collect();
    assert_eq!(roots, ["/srv/extra", "/b", "/home/u/.codex/c"]);
    assert_eq!(l.network_access, Some(true));
    assert_eq!(l.exclude_slash_tmp, None);
    assert_eq!(l.trusted_projects, ["/srv/p"]);
    assert_eq!(layer("", "/").unwrap(), Layer::default());
}

#[test]
fn a_wrong_key_makes_the_file_unreadable_by_name() {
    for (text, err) in [
        (
            "sandbox_mode = \"sandboxed\"",
            Unreadable::UnknownMode("sandbox_mode"),
        ),
        ("sandbox_mode = 1", Unreadable::WrongType("sandbox_mode")),
        (
            "[sandbox_workspace_write]\nnetwork_access = \"yes\"",
            Unreadable::WrongType("sandbox_workspace_write.network_access"),
        ),
        (
            "[sandbox_workspace_write]\nwritable_roots = \"/x\"",
            Unreadable::WrongType("sandbox_workspace_write.writable_roots"),
        ),
        (
            "[sandbox_workspace_write]\nwritable_roots = [\"/x\", 7]",
            Unreadable::WrongType("sandbox_workspace_write.writable_roots"),
        ),
        (
            "sandbox_workspace_write = 3",
            Unreadable::WrongType("sandbox_workspace_write"),
        ),
    ] {
        assert_eq!(layer(text, "/d"), Err(err), "{text}");
    }
    assert!(matches!(
        layer("sandbox_mode = ", "/d"),
        Err(Unreadable::NotToml(_))
    ));
    // A relative root is resolved against the file's directory; only a
    // directory that is itself relative leaves it relative.
    let rel = "[sandbox_workspace_write]\nwritable_roots = [\"x\"]";
    assert_eq!(layer(rel, "dir"), Err(Unreadable::RelativeRoot));
}

#[test]
fn later_layers_win_and_the_selected_profile_sets_the_mode() {
    let user = layer(
        "sandbox_mode = \"read-only\"\nprofile = \"dev\"\n[profiles.dev]\n\
         sandbox_mode = \"workspace-write\"\n[sandbox_workspace_write]\nnetwork_access = true",
        "/d",
    )
    .unwrap();
    let project = layer("[sandbox_workspace_write]\nnetwork_access = false", "/p").unwrap();
    let merged = merge(&[&user, &project]);
    assert_eq!(merged.sandbox_mode, Some(SandboxMode::WorkspaceWrite));
    assert_eq!(merged.network_access, Some(false));
    let unprofiled = layer("sandbox_mode = \"read-only\"\nprofile = \"none\"", "/d").unwrap();
    assert_eq!(
        merge(&[&unprofiled]).sandbox_mode,
        Some(SandboxMode::ReadOnly)
    );
}

#[test]
fn trust_names_a_directory_and_decides_the_default_mode() {
    let user = layer("[projects.\"/srv/p/\"]\ntrust_level = \"trusted\"", "/d").unwrap();
    let at = |p| trusts(&user, &HostPath::lexical(PathStyle::Posix, p));
    assert!(at("/srv/p") && at("/srv/./p"));
    assert!(!at("/srv/p/sub") && !at("/srv/pq") && !at("/srv"));
    let none = Layer::default();
    assert_eq!(effective_mode(&none, true), SandboxMode::WorkspaceWrite);
    assert_eq!(effective_mode(&none, false), SandboxMode::ReadOnly);
    let set = layer("sandbox_mode = \"danger-full-access\"", "/d").unwrap();
    assert_eq!(effective_mode(&set, false), SandboxMode::DangerFullAccess);
}
