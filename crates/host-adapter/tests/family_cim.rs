//! cim-wmi-denial end to end: the record on a finished command's stderr, the
//! shipped resolver (`SessionPolicy`) for the mode, and the adapter delivering
//! once per agent, withholding once with the reason, or staying silent.
#![cfg(feature = "cim")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;

use advisor_core::testing::{CountingPolicy, foreground, host, only, success};
use advisor_core::{
    AgentId, Config, Observation, Platform, PostDecision, Registry, RegistryBuilder, SandboxMode,
    SessionId, Unresolved,
};
use family_cim::{CimWmiDenial, ID};
use host_adapter::{HostAdapter, PolicyDefaults, PostExecute, SessionPolicy, standard_registry};
use serde_json::json;

const ENGLISH: &str = "Get-CimInstance : Access is denied\n+ CategoryInfo : PermissionDenied: (root\\cimv2:Win32_OperatingSystem) [Get-CimInstance], CimException\n+ FullyQualifiedErrorId : HRESULT 0x80041003,Microsoft.Management.Infrastructure.CimCmdlets.GetCimInstanceCommand";
const CHINESE: &str = "Get-CimInstance : 拒绝访问\n+ CategoryInfo : PermissionDenied: (root\\cimv2:Win32_OperatingSystem) [Get-CimInstance], CimException\n+ FullyQualifiedErrorId : HRESULT 0x80041003,Microsoft.Management.Infrastructure.CimCmdlets.GetCimInstanceCommand";

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
        self.post_approved(observation, None).await
    }

    async fn post_approved(
        &self,
        observation: Observation,
        approved_mode: Option<SandboxMode>,
    ) -> PostDecision {
        ours(
            self.adapter
                .post_execute(PostExecute {
                    observation,
                    approved_mode,
                })
                .await,
        )
    }
}

/// A host on `platform` whose session `s1` opened on `D:\ws` and recorded `mode`.
fn rig_over(platform: Platform, mode: SandboxMode, registry: RegistryBuilder) -> Rig {
    let policy = Arc::new(SessionPolicy::new(PolicyDefaults {
        default_mode: Some(SandboxMode::ReadOnly),
        fallback_root: None,
        platform,
    }));
    policy.open_session(&SessionId::new("s1"), r"D:\ws");
    policy.set_mode(&SessionId::new("s1"), mode);
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

/// The standard registry (families picked by features).
fn windows(mode: SandboxMode) -> Rig {
    rig_over(Platform::Win32, mode, standard_registry())
}

/// This family alone, so the resolver's count is this family's own.
fn counted(platform: Platform) -> Rig {
    rig_over(
        platform,
        SandboxMode::WorkspaceWrite,
        Registry::builder().family(CimWmiDenial),
    )
}

/// A refused `Get-CimInstance`, rendered as tool-pwsh renders it; `stamped`
/// is the executor's `denied` (true for the English wording, which is in the
/// backend's denial dialect).
fn refused(stderr: &str, stamped: bool) -> Observation {
    let sandbox = json!({"mode": "workspace-write", "denied": stamped, "enforcement": "partial"});
    let mut obs = success(
        foreground(1, "", stderr, Some(sandbox)),
        &format!("[stderr]\n{stderr}\n[exit code: 1]"),
    );
    obs.tool = "pwsh".into();
    obs.arguments = json!({"command": "Get-CimInstance Win32_OperatingSystem"});
    obs
}

fn english() -> Observation {
    refused(ENGLISH, true)
}

fn chinese() -> Observation {
    refused(CHINESE, false)
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
async fn speaks_once_per_agent_in_either_display_language() {
    let rig = windows(SandboxMode::WorkspaceWrite);
    let first = rig.post(chinese()).await;
    assert_eq!(first.additional_contexts.len(), 1);
    let advisory = &first.additional_contexts[0];
    assert_eq!(advisory.family.as_str(), "cim-wmi-denial");
    assert!(advisory.detail.contains("under the workspace-write mode"));
    assert!(advisory.detail.contains("`netstat -ano`"));
    // Once per agent and family: the English record from the same agent is silent.
    assert!(silent(&rig.post(english()).await));
    let mut other = english();
    other.agent = AgentId::new("a2");
    let second = rig.post(other).await;
    assert_eq!(second.additional_contexts.len(), 1);
    assert!(
        second.additional_contexts[0]
            .detail
            .contains("also marked as a sandbox file-access denial")
    );
}

#[tokio::test]
async fn read_only_speaks_too() {
    let rig = windows(SandboxMode::ReadOnly);
    let decision = rig.post(english()).await;
    assert_eq!(decision.additional_contexts.len(), 1);
    assert!(
        decision.additional_contexts[0]
            .detail
            .contains("under the read-only mode")
    );
}

#[tokio::test]
async fn danger_full_access_is_withheld_and_disclosed_once() {
    let rig = windows(SandboxMode::DangerFullAccess);
    let first = rig.post(english()).await;
    assert!(first.additional_contexts.is_empty());
    assert_eq!(first.withheld.len(), 1);
    assert_eq!(first.withheld[0].reason.code(), "unconfined-mode");
    assert!(silent(&rig.post(english()).await));
}

#[tokio::test]
async fn the_approved_mode_outranks_the_sessions() {
    let rig = windows(SandboxMode::WorkspaceWrite);
    let decision = rig
        .post_approved(english(), Some(SandboxMode::DangerFullAccess))
        .await;
    assert_eq!(decision.withheld.len(), 1);
    assert_eq!(decision.withheld[0].reason.code(), "unconfined-mode");
}

#[tokio::test]
async fn an_unresolvable_mode_is_withheld_not_guessed() {
    let rig = windows(SandboxMode::WorkspaceWrite);
    rig.policy.fail_session(
        &SessionId::new("s1"),
        Unresolved::ResolverError("boom".into()),
    );
    let first = rig.post(chinese()).await;
    assert!(first.additional_contexts.is_empty());
    assert_eq!(first.withheld[0].reason.code(), "resolver-error");
    assert!(silent(&rig.post(chinese()).await));

    let rig = windows(SandboxMode::WorkspaceWrite);
    let mut agentless = chinese();
    agentless.session = None;
    assert_eq!(
        rig.post(agentless).await.withheld[0].reason.code(),
        "no-session"
    );

    let adapter = HostAdapter::builder()
        .host(host(Platform::Win32))
        .build()
        .unwrap();
    let decision = ours(
        adapter
            .post_execute(PostExecute {
                observation: chinese(),
                approved_mode: None,
            })
            .await,
    );
    assert!(decision.additional_contexts.is_empty());
    assert_eq!(decision.withheld[0].reason.code(), "no-policy-service");
}

#[tokio::test]
async fn another_host_is_withheld_without_asking_the_resolver() {
    for platform in [Platform::Linux, Platform::Macos] {
        let rig = counted(platform);
        let first = rig.post(english()).await;
        assert_eq!(first.withheld.len(), 1, "{platform:?}");
        assert_eq!(first.withheld[0].reason.code(), "platform-out-of-scope");
        assert_eq!(rig.lookups(), 0, "{platform:?}");
    }
    let rig = counted(Platform::Win32);
    rig.post(english()).await;
    assert_eq!(rig.lookups(), 1);
}

#[tokio::test]
async fn look_alikes_stay_silent_and_cost_no_lookup() {
    let rig = counted(Platform::Win32);
    let in_stdout = {
        let mut obs = success(foreground(0, ENGLISH, "", None), ENGLISH);
        obs.tool = "pwsh".into();
        obs
    };
    for observation in [
        in_stdout,
        refused("0x80041003", false),
        refused("error 0x80041003 seen", false),
        refused(&ENGLISH.replace("0x80041003", "0x8004100e"), false),
        advisor_core::testing::failure(ENGLISH),
    ] {
        assert!(silent(&rig.post(observation).await));
    }
    assert_eq!(rig.lookups(), 0);
}
