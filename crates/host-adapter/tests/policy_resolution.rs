//! The resolution table of seed 002 (`dsh-sandbox-policy`), arm by arm.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use advisor_core::{
    Containment, HostPath, PathStyle, Platform, PolicyQuery, PolicySource, SandboxMode, SessionId,
    Unresolved,
};
use host_adapter::{PolicyDefaults, SessionPolicy};

fn windows(default_mode: SandboxMode, fallback: Option<&str>) -> SessionPolicy {
    SessionPolicy::new(PolicyDefaults {
        default_mode: Some(default_mode),
        fallback_root: fallback.map(str::to_owned),
        platform: Platform::Win32,
    })
}

fn q(session: &SessionId, approved: Option<SandboxMode>) -> PolicyQuery<'_> {
    PolicyQuery {
        session: Some(session),
        approved_mode: approved,
    }
}

#[tokio::test]
async fn approved_mode_outranks_session_event_which_outranks_default() {
    let s = SessionId::new("s1");
    let policy = windows(SandboxMode::ReadOnly, None);
    policy.open_session(&s, r"D:\ws");
    assert_eq!(
        policy.resolve(q(&s, None)).await.unwrap().mode,
        SandboxMode::ReadOnly,
        "deployment default"
    );
    policy.set_mode(&s, SandboxMode::WorkspaceWrite);
    assert_eq!(
        policy.resolve(q(&s, None)).await.unwrap().mode,
        SandboxMode::WorkspaceWrite,
        "session event"
    );
    policy.set_mode(&s, SandboxMode::DangerFullAccess);
    assert_eq!(
        policy.resolve(q(&s, None)).await.unwrap().mode,
        SandboxMode::DangerFullAccess,
        "last event wins"
    );
    let approved = policy
        .resolve(q(&s, Some(SandboxMode::WorkspaceWrite)))
        .await
        .unwrap();
    assert_eq!(
        approved.mode,
        SandboxMode::WorkspaceWrite,
        "explicit approved mode"
    );
}

#[tokio::test]
async fn sessions_do_not_see_each_others_mode() {
    let (a, b) = (SessionId::new("a"), SessionId::new("b"));
    let policy = windows(SandboxMode::ReadOnly, None);
    policy.set_mode(&a, SandboxMode::WorkspaceWrite);
    assert_eq!(
        policy.resolve(q(&b, None)).await.unwrap().mode,
        SandboxMode::ReadOnly
    );
}

#[tokio::test]
async fn root_is_the_session_cwd_else_the_fallback() {
    let (s, other) = (SessionId::new("s1"), SessionId::new("s2"));
    let policy = windows(SandboxMode::ReadOnly, Some(r"C:\fallback"));
    policy.open_session(&s, r"D:\WS\sub\..");
    let root = policy
        .resolve(q(&s, None))
        .await
        .unwrap()
        .workspace_root
        .unwrap();
    assert_eq!(root.path().as_str(), r"D:\WS");
    let inside = HostPath::lexical(PathStyle::Windows, r"d:\ws\src\a.txt");
    assert_eq!(
        inside.relation_to(root.path()),
        Containment::Inside,
        "Windows grammar on any OS"
    );
    let fallback = policy
        .resolve(q(&other, None))
        .await
        .unwrap()
        .workspace_root
        .unwrap();
    assert_eq!(fallback.path().as_str(), r"C:\fallback");
    policy.open_session(&s, r"E:\moved");
    let still = policy
        .resolve(q(&s, None))
        .await
        .unwrap()
        .workspace_root
        .unwrap();
    assert_eq!(
        still.path().as_str(),
        r"D:\WS",
        "the header's cwd is immutable"
    );
}

#[tokio::test]
async fn no_root_at_all_is_reported_as_none() {
    let s = SessionId::new("s1");
    let policy = windows(SandboxMode::WorkspaceWrite, None);
    assert_eq!(
        policy.resolve(q(&s, None)).await.unwrap().workspace_root,
        None
    );
}

#[tokio::test]
async fn unresolvable_arms_are_errors_not_defaults() {
    let s = SessionId::new("s1");
    let policy = windows(SandboxMode::WorkspaceWrite, Some(r"C:\fallback"));
    assert_eq!(
        policy
            .resolve(PolicyQuery {
                session: None,
                approved_mode: None
            })
            .await,
        Err(Unresolved::NoSession)
    );
    policy.fail_session(&s, Unresolved::ResolverError("boom".into()));
    assert_eq!(
        policy.resolve(q(&s, None)).await,
        Err(Unresolved::ResolverError("boom".into()))
    );
    let other = SessionId::new("s2");
    assert!(policy.resolve(q(&other, None)).await.is_ok());
    policy.fail_all(Unresolved::NoPolicyService);
    assert_eq!(
        policy.resolve(q(&other, None)).await,
        Err(Unresolved::NoPolicyService)
    );
}

#[cfg(unix)]
#[tokio::test]
async fn a_local_root_is_canonicalized_through_a_real_symlink_before_lexical_normalization() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real");
    std::fs::create_dir_all(real.join("inner")).unwrap();
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(real.join("inner"), &link).unwrap();
    // `link/..` is `real` on the filesystem (the symlink's parent), but `dir` lexically.
    let s = SessionId::new("s1");
    let policy = SessionPolicy::new(PolicyDefaults {
        default_mode: Some(SandboxMode::ReadOnly),
        fallback_root: None,
        platform: Platform::Linux,
    });
    policy.open_session(&s, &format!("{}/..", link.display()));
    let root = policy
        .resolve(q(&s, None))
        .await
        .unwrap()
        .workspace_root
        .unwrap();
    let expected = std::fs::canonicalize(&real).unwrap();
    assert_eq!(root.path().as_str(), expected.to_str().unwrap());
}

#[tokio::test]
async fn a_recorded_root_that_does_not_exist_here_is_normalized_lexically() {
    let s = SessionId::new("s1");
    let policy = SessionPolicy::new(PolicyDefaults {
        default_mode: Some(SandboxMode::ReadOnly),
        fallback_root: None,
        platform: Platform::Linux,
    });
    policy.open_session(&s, "/nowhere/on/this/machine/./ws/../ws");
    let root = policy
        .resolve(q(&s, None))
        .await
        .unwrap()
        .workspace_root
        .unwrap();
    assert_eq!(root.path().as_str(), "/nowhere/on/this/machine/ws");
}

#[cfg(unix)]
#[tokio::test]
async fn a_unc_root_is_never_resolved_on_the_filesystem() {
    // `//server/share/ws` is a UNC spelling on Windows and still a path here;
    // either way the header is untrusted and is normalized lexically only: the
    // symlink below is resolved for the plain spelling and not for the UNC one.
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("real")).unwrap();
    std::os::unix::fs::symlink(dir.path().join("real"), dir.path().join("link")).unwrap();
    let policy = SessionPolicy::new(PolicyDefaults {
        default_mode: Some(SandboxMode::ReadOnly),
        fallback_root: None,
        platform: Platform::Linux,
    });
    let (plain, unc) = (SessionId::new("plain"), SessionId::new("unc"));
    policy.open_session(&plain, &format!("{}/link", dir.path().display()));
    policy.open_session(&unc, &format!("/{}/link", dir.path().display()));
    let resolved = policy
        .resolve(q(&plain, None))
        .await
        .unwrap()
        .workspace_root
        .unwrap();
    assert!(
        resolved.path().as_str().ends_with("/real"),
        "{}",
        resolved.path()
    );
    let kept = policy
        .resolve(q(&unc, None))
        .await
        .unwrap()
        .workspace_root
        .unwrap();
    assert!(kept.path().as_str().ends_with("/link"), "{}", kept.path());
}

#[tokio::test]
async fn a_late_platform_switch_rereads_recorded_roots() {
    let s = SessionId::new("s1");
    let policy = SessionPolicy::new(PolicyDefaults {
        default_mode: Some(SandboxMode::ReadOnly),
        fallback_root: None,
        platform: Platform::Linux,
    });
    policy.open_session(&s, r"D:\ws\sub\..");
    policy.set_platform(Platform::Win32);
    let root = policy
        .resolve(q(&s, None))
        .await
        .unwrap()
        .workspace_root
        .unwrap();
    assert_eq!(root.path().as_str(), r"D:\ws");
}

/// The issue's reproduction: the per-session map grew by one record per session
/// forever (466 MB for 2M sessions). It is bounded by `sessionCapacity`, and a
/// session still being resolved is never the one forgotten.
#[tokio::test]
async fn sessions_are_bounded_and_an_active_session_keeps_its_facts() {
    let policy = SessionPolicy::with_capacity(
        PolicyDefaults {
            default_mode: Some(SandboxMode::ReadOnly),
            fallback_root: None,
            platform: Platform::Win32,
        },
        16,
    );
    let active = SessionId::new("active");
    policy.open_session(&active, r"D:\ws");
    policy.set_mode(&active, SandboxMode::WorkspaceWrite);
    for i in 0..10_000 {
        // Every other line resolves the active session (a read: it refreshes too).
        let resolved = policy.resolve(q(&active, None)).await.unwrap();
        assert_eq!(resolved.mode, SandboxMode::WorkspaceWrite, "round {i}");
        assert_eq!(resolved.workspace_root.unwrap().path().as_str(), r"D:\ws");
        let other = SessionId::new(format!("s{i}"));
        policy.open_session(&other, r"E:\other");
        assert!(
            policy.remembered_sessions() <= 18,
            "{}",
            policy.remembered_sessions()
        );
    }
    // A session untouched while more than the limit of others came is forgotten:
    // it resolves as one never described (the deployment default, no root).
    let old = SessionId::new("s0");
    let forgotten = policy.resolve(q(&old, None)).await.unwrap();
    assert_eq!(forgotten.mode, SandboxMode::ReadOnly);
    assert!(forgotten.workspace_root.is_none());
}
