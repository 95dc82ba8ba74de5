//! `temp-root-inside-workspace` through the adapter, with the real resolver:
//! both carriers of the failure half, the pre-flight seat at session start and
//! on the first tracked call, its withholds, and containment on real
//! directories. Host facts are injected as a harness supplies them.
#![cfg(feature = "temp-root")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;

use advisor_core::testing::{Case, failure, foreground, host, success};
use advisor_core::{
    AgentId, Config, HostFacts, Observation, Outcome, Platform, PostDecision, SandboxMode,
    SessionId, Unresolved,
};
use host_adapter::{HostAdapter, PolicyDefaults, PostExecute, SessionPolicy};

/// The producer's text in one of family-temp-root's fixtures: a failure's
/// message, or a successful command's output.
fn fixture(name: &str) -> &'static str {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../family-temp-root");
    let case = Case::named(dir, name).unwrap();
    let text = match &case.observation().expect("an observation").outcome {
        Outcome::Failure(f) => f.message.clone(),
        Outcome::Success(s) => s.content.clone(),
    };
    Box::leak(text.into_boxed_str())
}

const PRE: &str = "Temp root is inside this session's workspace";
const BY_PROVIDER: &str = "Sandbox provider refused";
const BY_RUNNER: &str = "Sandbox runner refused";

fn windows_host(temp: Option<&str>) -> HostFacts {
    HostFacts {
        temp_dir: temp.map(str::to_owned),
        ..host(Platform::Win32)
    }
}

/// A resolver whose recorded paths use `grammar`, with session `s1` opened on `root`.
fn policy(grammar: Platform, root: &str, mode: Option<SandboxMode>) -> Arc<SessionPolicy> {
    let policy = Arc::new(SessionPolicy::new(PolicyDefaults {
        default_mode: Some(SandboxMode::ReadOnly),
        fallback_root: None,
        platform: grammar,
    }));
    let s1 = SessionId::new("s1");
    policy.open_session(&s1, root);
    if let Some(mode) = mode {
        policy.set_mode(&s1, mode);
    }
    policy
}

enum Step {
    /// Session start for an agent, in `s1` or agentless.
    Start(&'static str, bool),
    /// A failure with this message, in `s1` or agentless.
    Fail(&'static str, bool),
    /// A successful foreground command whose output is this text, in `s1`.
    Succeed(&'static str),
    /// A `sandbox/mode` event for `s1`.
    Mode(SandboxMode),
    /// A first tracked call (a plain success) by this agent, in `s1`.
    Call(&'static str),
}

/// The only driver: one adapter, the steps in order; per step, the kind of each
/// advisory delivered (its summary's opening) and each withhold code disclosed.
async fn check(
    host: HostFacts,
    policy: Option<Arc<SessionPolicy>>,
    steps: &[Step],
) -> Vec<Vec<&'static str>> {
    let mut builder = HostAdapter::builder().host(host).config(Config::default());
    if let Some(policy) = &policy {
        builder = builder.policy(policy.clone());
    }
    let adapter = builder.build().unwrap();
    let a1 = AgentId::new("a1");
    let s1 = SessionId::new("s1");
    let mut out = Vec::new();
    for step in steps {
        let decision: PostDecision = match *step {
            Step::Start(agent, in_session) => {
                let session = in_session.then_some(&s1);
                adapter.session_start(&AgentId::new(agent), session).await
            }
            Step::Fail(message, in_session) => {
                let mut observation: Observation = failure(message);
                observation.agent = a1.clone();
                if !in_session {
                    observation.session = None;
                }
                adapter
                    .post_execute(PostExecute {
                        observation,
                        approved_mode: None,
                    })
                    .await
            }
            Step::Call(agent) => {
                let mut observation = success(foreground(0, "ok", "", None), "ok");
                observation.agent = AgentId::new(agent);
                adapter
                    .post_execute(PostExecute {
                        observation,
                        approved_mode: None,
                    })
                    .await
            }
            Step::Mode(mode) => {
                if let Some(policy) = &policy {
                    policy.set_mode(&s1, mode);
                }
                PostDecision::default()
            }
            Step::Succeed(output) => {
                let observation = success(foreground(0, output, "", None), output);
                adapter
                    .post_execute(PostExecute {
                        observation,
                        approved_mode: None,
                    })
                    .await
            }
        };
        let mut kinds: Vec<&'static str> = decision
            .additional_contexts
            .iter()
            .map(|a| {
                [PRE, BY_PROVIDER, BY_RUNNER]
                    .into_iter()
                    .find(|k| a.summary.as_str().starts_with(k))
                    .unwrap_or("unexpected advisory")
            })
            .collect();
        kinds.extend(decision.withheld.iter().map(|w| w.reason.code()));
        out.push(kinds);
    }
    out
}

fn recorded_windows_session(mode: SandboxMode) -> (HostFacts, Option<Arc<SessionPolicy>>) {
    (
        windows_host(Some(r"C:\Users\u\AppData\Local\Temp")),
        Some(policy(Platform::Win32, r"C:\Users\u", Some(mode))),
    )
}

#[tokio::test]
async fn preflight_at_session_start_then_a_second_advisory_from_the_failure() {
    let (host, policy) = recorded_windows_session(SandboxMode::WorkspaceWrite);
    let out = check(
        host,
        policy,
        &[
            Step::Start("a1", true),
            Step::Fail(fixture("pos-provider"), true),
            Step::Fail(fixture("pos-runner"), true),
            Step::Start("a1", true),
        ],
    )
    .await;
    assert_eq!(out, vec![vec![PRE], vec![BY_PROVIDER], vec![], vec![]]);
}

/// Seed 003: the pre-flight asks for the session's mode as it is now. A
/// session switched to `danger-full-access` never spawns through the sandbox,
/// so an agent that starts after the switch hears nothing; switched back, the
/// next agent is told again.
#[tokio::test]
async fn preflight_reads_the_session_as_it_is_now() {
    let (host, policy) = recorded_windows_session(SandboxMode::WorkspaceWrite);
    let out = check(
        host,
        policy,
        &[
            Step::Start("a1", true),
            Step::Mode(SandboxMode::DangerFullAccess),
            Step::Start("a2", true),
            Step::Call("a4"),
            Step::Mode(SandboxMode::WorkspaceWrite),
            Step::Call("a5"),
            Step::Start("a3", true),
            Step::Start("a2", true),
        ],
    )
    .await;
    assert_eq!(
        out,
        vec![
            vec![PRE],
            vec![],
            vec![],
            vec![],
            vec![],
            vec![PRE],
            vec![PRE],
            vec![PRE]
        ]
    );
}

#[tokio::test]
async fn preflight_on_the_first_tracked_call_whatever_its_outcome() {
    let (host, policy) = recorded_windows_session(SandboxMode::WorkspaceWrite);
    let out = check(
        host,
        policy,
        &[
            Step::Succeed(fixture("ctl-success-output-quotes-sentence")),
            Step::Fail(fixture("pos-runner"), true),
        ],
    )
    .await;
    assert_eq!(out, vec![vec![PRE], vec![BY_RUNNER]]);
}

#[tokio::test]
async fn read_only_and_danger_sessions_are_clear_but_the_failure_half_still_speaks() {
    for mode in [SandboxMode::ReadOnly, SandboxMode::DangerFullAccess] {
        let (host, policy) = recorded_windows_session(mode);
        let out = check(
            host,
            policy,
            &[
                Step::Start("a1", true),
                Step::Fail(fixture("pos-provider"), true),
            ],
        )
        .await;
        assert_eq!(out, vec![vec![], vec![BY_PROVIDER]], "{mode}");
    }
}

#[tokio::test]
async fn unanswerable_windows_host_is_disclosed_once_never_cleared() {
    // No policy service mounted.
    let out = check(
        windows_host(Some(r"C:\t")),
        None,
        &[Step::Start("a1", true), Step::Start("a1", true)],
    )
    .await;
    assert_eq!(out, vec![vec!["no-policy-service"], vec![]]);

    // No session.
    let (host, policy) = recorded_windows_session(SandboxMode::WorkspaceWrite);
    let out = check(host, policy, &[Step::Start("a1", false)]).await;
    assert_eq!(out[0], vec!["no-session"]);

    // A resolver that fails.
    let (host, policy) = recorded_windows_session(SandboxMode::WorkspaceWrite);
    if let Some(p) = &policy {
        p.fail_session(
            &SessionId::new("s1"),
            Unresolved::ResolverError("boom".into()),
        );
    }
    let out = check(host, policy, &[Step::Start("a1", true)]).await;
    assert_eq!(out[0], vec!["resolver-error"]);

    // A host that reports no temp directory.
    let (_, policy) = recorded_windows_session(SandboxMode::WorkspaceWrite);
    let out = check(windows_host(None), policy, &[Step::Start("a1", true)]).await;
    assert_eq!(out[0], vec!["no-temp-dir"]);
}

#[tokio::test]
async fn non_windows_host_has_no_preflight_and_no_platform_gate_on_failures() {
    let host = HostFacts {
        temp_dir: Some("/ws/tmp".into()),
        ..host(Platform::Linux)
    };
    let policy = policy(Platform::Linux, "/ws", Some(SandboxMode::WorkspaceWrite));
    let out = check(
        host,
        Some(policy),
        &[
            Step::Start("a1", true),
            Step::Fail(fixture("pos-runner"), false),
        ],
    )
    .await;
    assert_eq!(out, vec![vec![], vec![BY_RUNNER]]);
}

#[tokio::test]
async fn look_alikes_are_silent() {
    let (host, policy) = recorded_windows_session(SandboxMode::ReadOnly);
    let out = check(
        host,
        policy,
        &[
            Step::Succeed(fixture("ctl-success-output-quotes-sentence")),
            Step::Fail(fixture("ctl-sibling-runner"), true),
        ],
    )
    .await;
    assert_eq!(out, vec![Vec::<&str>::new(), vec![]]);
}

/// Real directories on this machine: the resolver keeps this machine's grammar
/// (the recorded paths are local), while the host facts say win32.
async fn real(root: &std::path::Path, temp: &std::path::Path) -> Vec<&'static str> {
    let policy = policy(
        Platform::current(),
        root.to_str().unwrap(),
        Some(SandboxMode::WorkspaceWrite),
    );
    let out = check(
        windows_host(temp.to_str()),
        Some(policy),
        &[Step::Start("a1", true)],
    )
    .await;
    out.into_iter().next().unwrap_or_default()
}

#[tokio::test]
async fn real_directories_are_compared_after_resolution() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    let inside = ws.join("AppData").join("Local").join("Temp");
    let outside = dir.path().join("tmp");
    std::fs::create_dir_all(&inside).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    assert_eq!(real(&ws, &inside).await, vec![PRE]);
    assert_eq!(real(&ws, &ws).await, vec![PRE], "the same directory counts");
    assert!(real(&ws, &outside).await.is_empty());
    #[cfg(unix)]
    {
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&ws, &link).unwrap();
        // The resolver resolves the root itself; the temp directory is resolved
        // only by the family, so this arm proves the family's own canonicalization.
        let temp_via_link = link.join("AppData").join("Local").join("Temp");
        assert!(!temp_via_link.starts_with(&ws));
        assert_eq!(
            real(&ws, &temp_via_link).await,
            vec![PRE],
            "temp through a symlink"
        );
        assert_eq!(
            real(&link, &inside).await,
            vec![PRE],
            "root through a symlink"
        );
    }
}
