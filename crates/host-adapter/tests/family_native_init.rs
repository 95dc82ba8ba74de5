//! native-init end to end: the shipped resolver (`SessionPolicy`) decides the
//! mode exactly as `dsh-sandbox-policy` does, and the adapter delivers, withholds
//! or stays silent. Positive and control arms for every rule of the family.
#![cfg(feature = "native-init")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;

use advisor_core::testing::{failure, foreground, host, success};
use advisor_core::{
    AgentId, Config, HostBinary, HostFacts, Observation, Platform, PostDecision, SandboxMode,
    SessionId, Unresolved,
};
use host_adapter::{HostAdapter, PolicyDefaults, PostExecute, SessionPolicy};
use serde_json::{Value, json};

const SIGNED: i64 = -1_073_741_502;
const UNSIGNED: i64 = 3_221_225_794;

struct Rig {
    adapter: HostAdapter,
    policy: Arc<SessionPolicy>,
}

fn rig_on(platform: Platform, binary: HostBinary, default_mode: SandboxMode) -> Rig {
    let policy = Arc::new(SessionPolicy::new(PolicyDefaults {
        default_mode: Some(default_mode),
        fallback_root: None,
        platform,
    }));
    policy.open_session(&SessionId::new("s1"), r"D:\ws");
    let facts = HostFacts {
        binary,
        ..host(platform)
    };
    let adapter = HostAdapter::builder()
        .host(facts)
        .policy(policy.clone())
        .config(Config::default())
        .build()
        .unwrap();
    Rig { adapter, policy }
}

/// A Windows desktop-less host whose session recorded `mode`.
fn rig(mode: SandboxMode) -> Rig {
    let rig = rig_on(
        Platform::Win32,
        HostBinary::NotElectron,
        SandboxMode::ReadOnly,
    );
    rig.policy.set_mode(&SessionId::new("s1"), mode);
    rig
}

fn stamp(mode: &str) -> Option<Value> {
    Some(json!({"mode": mode, "denied": false, "enforcement": "partial"}))
}

/// A finished foreground command, rendered the way tool-pwsh renders it.
fn ran(code: i64, stdout: &str, sandbox: Option<Value>) -> Observation {
    let body = if stdout.is_empty() {
        "(no output)"
    } else {
        stdout
    };
    let content = if code == 0 {
        body.to_owned()
    } else {
        format!("{}\n[exit code: {code}]", body.trim_end())
    };
    let mut obs = success(foreground(code, stdout, "", sandbox), &content);
    obs.arguments = json!({"command": "pwsh -NoLogo -NoProfile -Command \"Get-ChildItem\""});
    obs
}

fn as_agent(mut obs: Observation, agent: &str) -> Observation {
    obs.agent = AgentId::new(agent);
    obs
}

/// This family's part of the decision (other compiled-in families, such as the
/// temp-root pre-flight on a Windows host, may add their own).
async fn post(rig: &Rig, observation: Observation, approved: Option<SandboxMode>) -> PostDecision {
    let d = rig
        .adapter
        .post_execute(PostExecute {
            observation,
            approved_mode: approved,
        })
        .await;
    advisor_core::testing::only(family_native_init::ID, d)
}

fn spoke(d: &PostDecision) -> &advisor_core::Advisory {
    assert!(d.withheld.is_empty(), "withheld: {:?}", d.withheld);
    assert_eq!(d.additional_contexts.len(), 1, "{d:?}");
    let a = &d.additional_contexts[0];
    assert_eq!(a.family, family_native_init::ID);
    assert_eq!(a.source.kind, "sandbox-grant-advisor");
    a
}

fn silent(d: &PostDecision) {
    assert!(d.additional_contexts.is_empty(), "{d:?}");
    assert!(d.withheld.is_empty(), "{d:?}");
}

fn withheld(d: &PostDecision, code: &str) {
    assert!(d.additional_contexts.is_empty(), "{d:?}");
    assert_eq!(d.withheld.len(), 1, "{d:?}");
    assert_eq!(d.withheld[0].family, family_native_init::ID);
    assert_eq!(d.withheld[0].reason.code(), code);
}

// ---- recognition through the adapter ----------------------------------------------

#[tokio::test]
async fn both_spellings_speak_under_workspace_write() {
    for code in [SIGNED, UNSIGNED] {
        let rig = rig(SandboxMode::WorkspaceWrite);
        let d = post(&rig, ran(code, "", stamp("workspace-write")), None).await;
        let a = spoke(&d);
        assert!(a.detail.contains(&format!("> [exit code: {code}]")));
        assert!(a.summary.as_str().contains("under workspace-write"));
    }
}

#[tokio::test]
async fn look_alikes_stay_silent() {
    let rig = rig(SandboxMode::WorkspaceWrite);
    let marker = "[exit code: -1073741502]\n";
    let mut string_code = foreground(SIGNED, "", "", stamp("workspace-write"));
    string_code["exitCode"] = json!("-1073741502");
    let mut float_code = foreground(SIGNED, "", "", stamp("workspace-write"));
    float_code["exitCode"] = json!(-1_073_741_502.0);
    let cases = [
        ran(1, marker, stamp("workspace-write")),
        ran(0, marker, stamp("workspace-write")),
        ran(-1_073_740_791, "", stamp("workspace-write")), // 0xC0000409
        ran(3_221_226_505, "", stamp("workspace-write")),
        ran(-1_073_741_515, "", stamp("workspace-write")), // 0xC0000135
        ran(3_221_225_781, "", stamp("workspace-write")),
        ran(127, "", stamp("workspace-write")),
        ran(0, "ok\n", stamp("workspace-write")),
        success(string_code, "(no output)\n[exit code: -1073741502]"),
        success(float_code, "(no output)\n[exit code: -1073741502]"),
        success(
            json!({"kind": "background", "jobId": "job-1"}),
            "[started background job job-1]",
        ),
        success(
            json!({"kind": "background", "jobId": "job-1", "exitCode": SIGNED}),
            "[exit code: -1073741502]",
        ),
        success(json!({"exitCode": SIGNED}), "[exit code: -1073741502]"),
        failure("pwsh exited with [exit code: -1073741502] (0xC0000142 STATUS_DLL_INIT_FAILED)"),
    ];
    for (i, obs) in cases.into_iter().enumerate() {
        let d = post(&rig, as_agent(obs, &format!("agent-{i}")), None).await;
        silent(&d);
    }
}

// ---- the gate, with the real resolver ----------------------------------------------

#[tokio::test]
async fn the_deployment_default_read_only_confines() {
    let rig = rig_on(
        Platform::Win32,
        HostBinary::NotElectron,
        SandboxMode::ReadOnly,
    );
    let d = post(&rig, ran(SIGNED, "", None), None).await;
    let a = spoke(&d);
    assert!(a.detail.contains("sandbox mode `read-only`"));
    assert!(a.detail.contains("session's sandbox policy resolves it"));
}

#[tokio::test]
async fn danger_full_access_recorded_by_the_session_withholds_once() {
    let rig = rig(SandboxMode::DangerFullAccess);
    withheld(
        &post(&rig, ran(SIGNED, "", None), None).await,
        "unconfined-mode",
    );
    silent(&post(&rig, ran(SIGNED, "", None), None).await);
}

#[tokio::test]
async fn danger_full_access_approved_for_the_call_withholds() {
    let rig = rig(SandboxMode::WorkspaceWrite);
    let d = post(
        &rig,
        ran(SIGNED, "", None),
        Some(SandboxMode::DangerFullAccess),
    )
    .await;
    withheld(&d, "unconfined-mode");
}

#[tokio::test]
async fn danger_full_access_in_the_stamp_withholds() {
    let rig = rig(SandboxMode::WorkspaceWrite);
    let d = post(&rig, ran(SIGNED, "", stamp("danger-full-access")), None).await;
    withheld(&d, "unconfined-mode");
}

#[tokio::test]
async fn an_approved_confining_mode_outranks_the_session_event() {
    let rig = rig(SandboxMode::DangerFullAccess);
    let d = post(
        &rig,
        ran(SIGNED, "", stamp("workspace-write")),
        Some(SandboxMode::WorkspaceWrite),
    )
    .await;
    spoke(&d);
}

#[tokio::test]
async fn the_stamp_names_the_mode_the_call_ran_under() {
    let rig = rig(SandboxMode::WorkspaceWrite);
    let d = post(&rig, ran(SIGNED, "", stamp("read-only")), None).await;
    let a = spoke(&d);
    assert!(a.detail.contains("sandbox mode `read-only`"));
    assert!(
        a.detail
            .contains("policy now resolves to `workspace-write`")
    );
}

#[tokio::test]
async fn an_unresolvable_mode_withholds_and_never_falls_back_to_the_default() {
    let rig = rig(SandboxMode::WorkspaceWrite);
    rig.policy.fail_session(
        &SessionId::new("s1"),
        Unresolved::ResolverError("session log unreadable".into()),
    );
    let d = post(&rig, ran(SIGNED, "", stamp("workspace-write")), None).await;
    withheld(&d, "resolver-error");

    let rig = rig_on(
        Platform::Win32,
        HostBinary::NotElectron,
        SandboxMode::ReadOnly,
    );
    let mut agentless = ran(SIGNED, "", None);
    agentless.session = None;
    withheld(&post(&rig, agentless, None).await, "no-session");

    let unmounted = HostAdapter::builder()
        .host(host(Platform::Win32))
        .build()
        .unwrap();
    let d = unmounted
        .post_execute(PostExecute {
            observation: ran(SIGNED, "", stamp("workspace-write")),
            approved_mode: None,
        })
        .await;
    let d = advisor_core::testing::only(family_native_init::ID, d);
    withheld(&d, "no-policy-service");
}

#[tokio::test]
async fn no_platform_gate_for_a_recorded_or_remote_session() {
    for platform in [Platform::Linux, Platform::Macos] {
        let rig = rig_on(platform, HostBinary::NotElectron, SandboxMode::ReadOnly);
        rig.policy
            .set_mode(&SessionId::new("s1"), SandboxMode::WorkspaceWrite);
        let d = post(&rig, ran(UNSIGNED, "", stamp("workspace-write")), None).await;
        let a = spoke(&d);
        assert!(
            a.detail
                .contains(&format!("platform `{}`", platform.as_str()))
        );
    }
}

// ---- delivery ------------------------------------------------------------------------

#[tokio::test]
async fn once_per_agent_and_again_for_another_agent() {
    let rig = rig(SandboxMode::WorkspaceWrite);
    spoke(&post(&rig, ran(SIGNED, "", stamp("workspace-write")), None).await);
    silent(&post(&rig, ran(SIGNED, "", stamp("workspace-write")), None).await);
    let other = as_agent(ran(UNSIGNED, "", stamp("workspace-write")), "a2");
    spoke(&post(&rig, other, None).await);
}

#[tokio::test]
async fn the_electron_fact_comes_from_the_host() {
    let desktop = rig_on(
        Platform::Win32,
        HostBinary::Electron,
        SandboxMode::WorkspaceWrite,
    );
    let d = post(&desktop, ran(SIGNED, "", stamp("workspace-write")), None).await;
    let a = spoke(&d);
    assert!(
        a.detail
            .contains("the harness process is an Electron binary")
    );
    let console = rig(SandboxMode::WorkspaceWrite);
    let d = post(&console, ran(SIGNED, "", stamp("workspace-write")), None).await;
    assert!(
        spoke(&d)
            .detail
            .contains("the harness process is not an Electron binary")
    );
}

#[tokio::test]
async fn never_offers_an_unconfined_sandbox() {
    for (binary, mode) in [
        (HostBinary::NotElectron, SandboxMode::WorkspaceWrite),
        (HostBinary::Electron, SandboxMode::WorkspaceWrite),
        (HostBinary::NotElectron, SandboxMode::ReadOnly),
        (HostBinary::Electron, SandboxMode::ReadOnly),
    ] {
        let rig = rig_on(Platform::Win32, binary, mode);
        let d = post(&rig, ran(SIGNED, "", None), None).await;
        let a = spoke(&d);
        let text = format!("{}\n{}", a.summary.as_str(), a.text).to_lowercase();
        assert!(!text.contains("danger-full-access"), "{binary:?} {mode}");
        assert!(!text.contains("relax"), "{binary:?} {mode}");
        assert!(text.contains("do not retry"), "{binary:?} {mode}");
    }
}
