//! workspace-denial end to end: the executor's stamp gives the mode, the
//! shipped resolver (`SessionPolicy`) gives the root, and the adapter delivers
//! once, withholds once, or stays silent. Host facts come from the harness
//! (the builder's `host`), never from configuration.
#![cfg(feature = "workspace-denial")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;

use advisor_core::testing::{CountingPolicy, foreground, host, only, success};
use advisor_core::{
    AgentId, Config, Observation, Platform, PostDecision, Registry, RegistryBuilder, SandboxMode,
    SessionId, Unresolved,
};
use family_workspace_denial::{ID, WorkspaceDenial};
use host_adapter::{HostAdapter, PolicyDefaults, PostExecute, SessionPolicy, standard_registry};
use serde_json::{Value, json};

const ESCALATION: &str = "[sandbox: escalation available — retry this exact command once with sandbox_permissions (the narrowest wider mode that suffices) + justification; the approval prompt asks the user]";

struct Rig {
    adapter: HostAdapter,
    policy: Arc<SessionPolicy>,
    counting: Arc<CountingPolicy>,
}

impl Rig {
    fn lookups(&self) -> usize {
        self.counting.calls()
    }

    async fn post(&self, observation: Observation) -> PostDecision {
        ours(
            self.adapter
                .post_execute(PostExecute {
                    observation,
                    approved_mode: None,
                })
                .await,
        )
    }
}

/// A host on `platform` whose session `s1` opened on `cwd` and recorded
/// `workspace-write`, with the standard registry (families picked by features).
fn rig_with(platform: Platform, cwd: Option<&str>) -> Rig {
    rig_over(platform, cwd, standard_registry())
}

/// The same, with this family alone, so the resolver's count is this family's own.
fn counted(platform: Platform) -> Rig {
    rig_over(
        platform,
        Some(r"D:\ws"),
        Registry::builder().family(WorkspaceDenial),
    )
}

fn rig_over(platform: Platform, cwd: Option<&str>, registry: RegistryBuilder) -> Rig {
    let policy = Arc::new(SessionPolicy::new(PolicyDefaults {
        default_mode: Some(SandboxMode::ReadOnly),
        fallback_root: None,
        platform,
    }));
    if let Some(cwd) = cwd {
        policy.open_session(&SessionId::new("s1"), cwd);
    }
    policy.set_mode(&SessionId::new("s1"), SandboxMode::WorkspaceWrite);
    let counting = Arc::new(CountingPolicy::new(policy.clone()));
    let adapter = HostAdapter::builder()
        .host(host(platform))
        .policy(counting.clone())
        .config(Config::default())
        .registry(registry)
        .build()
        .unwrap();
    Rig {
        adapter,
        policy,
        counting,
    }
}

fn windows() -> Rig {
    rig_with(Platform::Win32, Some(r"D:\ws"))
}

fn stamp(mode: &str) -> Value {
    json!({"mode": mode, "denied": true, "enforcement": "partial"})
}

/// A `pwsh` command refused with the Win32 wording (`access is denied` is in the
/// backend's denial dialect), rendered as tool-pwsh renders it.
fn denied(command: &str, sandbox: Value) -> Observation {
    let stderr = "Access is denied.\r\n";
    let mode = sandbox["mode"].as_str().unwrap_or_default().to_owned();
    let content = format!(
        "[stderr]\n{}\n[sandbox: file access denied under {mode} mode]\n{ESCALATION}\n[exit code: 1]",
        stderr.trim_end()
    );
    let mut obs = success(foreground(1, "", stderr, Some(sandbox)), &content);
    obs.tool = "pwsh".into();
    obs.arguments = json!({ "command": command });
    obs
}

fn inside() -> Observation {
    denied(
        r"Set-Content -Path D:\ws\vendor\lib\config.json -Value '{}'",
        stamp("workspace-write"),
    )
}

/// This family's share of a decision (with default features, other families'
/// pre-flight disclosures may ride on the same call).
fn ours(decision: PostDecision) -> PostDecision {
    only(ID, decision)
}

fn silent(decision: &PostDecision) -> bool {
    decision.additional_contexts.is_empty() && decision.withheld.is_empty()
}

#[tokio::test]
async fn speaks_once_per_agent_with_the_resolved_root() {
    let rig = windows();
    let first = rig.post(inside()).await;
    assert_eq!(first.additional_contexts.len(), 1);
    let advisory = &first.additional_contexts[0];
    assert_eq!(advisory.family.as_str(), "workspace-denial");
    assert!(
        advisory
            .detail
            .contains(r"- path the command names: `D:\ws\vendor\lib\config.json`")
    );
    assert!(
        advisory
            .detail
            .contains(r"- workspace root (policy): `D:\ws`")
    );
    assert!(silent(&rig.post(inside()).await));
    let mut other = inside();
    other.agent = AgentId::new("a2");
    assert_eq!(rig.post(other).await.additional_contexts.len(), 1);
}

#[tokio::test]
async fn the_mode_is_the_stamps_and_the_root_is_the_resolvers() {
    let rig = windows();
    // The session's own record says read-only; the executor ran the call under workspace-write.
    rig.policy
        .set_mode(&SessionId::new("s1"), SandboxMode::ReadOnly);
    assert_eq!(rig.post(inside()).await.additional_contexts.len(), 1);
    // And the other way round: a read-only stamp stays silent whatever the session recorded.
    let rig = windows();
    let read_only = denied(r"Set-Content D:\ws\a.txt x", stamp("read-only"));
    assert!(silent(&rig.post(read_only).await));
}

#[tokio::test]
async fn a_session_root_spelled_differently_still_contains_the_path() {
    let rig = rig_with(Platform::Win32, Some("d:/WS/"));
    assert_eq!(rig.post(inside()).await.additional_contexts.len(), 1);
}

#[tokio::test]
async fn a_non_windows_host_never_asks_the_resolver() {
    for platform in [Platform::Linux, Platform::Macos] {
        let rig = counted(platform);
        assert!(silent(&rig.post(inside()).await));
        assert_eq!(rig.lookups(), 0, "{platform:?}");
    }
}

#[tokio::test]
async fn stamped_refusals_decide_without_the_resolver() {
    let rig = counted(Platform::Win32);
    let runner_failed = json!({"mode": "workspace-write", "denied": true, "enforcement": "partial", "runnerFailed": true});
    for observation in [
        denied(r"Set-Content D:\ws\a.txt x", stamp("read-only")),
        denied(r"Set-Content D:\ws\a.txt x", stamp("danger-full-access")),
        denied(r"Set-Content D:\ws\a.txt x", runner_failed),
        denied(r"Set-Content build\out.txt x", stamp("workspace-write")),
        denied(
            r#"& "$env:ProgramFiles\nodejs\node.exe" D:\ws\b.js"#,
            stamp("workspace-write"),
        ),
    ] {
        assert!(silent(&rig.post(observation).await));
    }
    assert_eq!(rig.lookups(), 0);
    rig.post(inside()).await;
    assert_eq!(rig.lookups(), 1);
}

#[tokio::test]
async fn denials_it_cannot_place_stay_silent() {
    let rig = windows();
    for command in [
        r"Set-Content -Path C:\Users\dev\notes.txt -Value x",
        r#"& "C:\Program Files\nodejs\node.exe" D:\ws\scripts\build.js"#,
        r"Set-Content -Path build\out.txt -Value x",
        r"Set-Location D:\ws; New-Item -ItemType File out.txt",
        r"Set-Content -Path D:\ws2\out.txt -Value x",
        r"Set-Content -Path D:\ws\..\shared\out.txt -Value x",
        r#"& "$env:ProgramFiles\nodejs\node.exe" D:\ws\scripts\build.js"#,
    ] {
        let decision = rig.post(denied(command, stamp("workspace-write"))).await;
        assert!(silent(&decision), "{command}");
    }
}

#[tokio::test]
async fn denial_text_without_the_stamp_stays_silent() {
    let rig = counted(Platform::Win32);
    let mut obs = inside();
    if let advisor_core::Outcome::Success(s) = &mut obs.outcome {
        s.value.as_object_mut().unwrap().remove("sandbox");
    }
    assert!(silent(&rig.post(obs).await));
    assert_eq!(rig.lookups(), 0);
}

#[tokio::test]
async fn an_unresolvable_root_is_withheld_and_disclosed_once() {
    // A resolver that fails for the session.
    let rig = windows();
    rig.policy.fail_session(
        &SessionId::new("s1"),
        Unresolved::ResolverError("boom".into()),
    );
    let first = rig.post(inside()).await;
    assert!(first.additional_contexts.is_empty());
    assert_eq!(first.withheld.len(), 1);
    assert_eq!(first.withheld[0].reason.code(), "resolver-error");
    assert!(silent(&rig.post(inside()).await));

    // A session whose header carried no cwd and no fallback root.
    let rig = rig_with(Platform::Win32, None);
    let first = rig.post(inside()).await;
    assert_eq!(first.withheld.len(), 1);
    assert_eq!(first.withheld[0].reason.code(), "no-workspace-root");
    assert!(silent(&rig.post(inside()).await));

    // An agentless call is never resolved against a default.
    let rig = windows();
    let mut agentless = inside();
    agentless.session = None;
    let first = rig.post(agentless).await;
    assert_eq!(first.withheld[0].reason.code(), "no-session");
}

#[tokio::test]
async fn no_policy_service_is_withheld_not_guessed() {
    let adapter = HostAdapter::builder()
        .host(host(Platform::Win32))
        .build()
        .unwrap();
    let decision = ours(
        adapter
            .post_execute(PostExecute {
                observation: inside(),
                approved_mode: None,
            })
            .await,
    );
    assert!(decision.additional_contexts.is_empty());
    assert_eq!(decision.withheld.len(), 1);
    assert_eq!(decision.withheld[0].reason.code(), "no-policy-service");
}
