//! pty-startup end to end: the shipped resolver (`SessionPolicy`) resolves the
//! mode the failing call ran under, exactly as `dsh-sandbox-policy` does, and
//! the adapter delivers, withholds (disclosed once) or stays silent. Positive
//! and control arms for every rule of the family, and one snapshot per variant.
#![cfg(feature = "pty")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;

use advisor_core::testing::{failure, failure_with, foreground, host, success};
use advisor_core::{
    Advisory, AgentId, Anchors, CallId, Config, Environment, FailFast, Family, FamilyDoc, FamilyId,
    Gate, HostBinary, HostFacts, Observation, PendingCall, Platform, PostDecision, Registry,
    SandboxMode, SessionId, ToolName, ToolPattern, Unresolved,
};
use host_adapter::{HostAdapter, PolicyDefaults, PostExecute, SessionPolicy};

const SENTENCE: &str = "PTY shell exited during startup";
const SIBLING: &str = "PTY shell did not reach readiness before startup timeout";

struct Rig {
    adapter: HostAdapter,
    policy: Arc<SessionPolicy>,
}

fn s1() -> SessionId {
    SessionId::new("s1")
}

fn build(binary: HostBinary, default_mode: SandboxMode, config: Config) -> Rig {
    let policy = Arc::new(SessionPolicy::new(PolicyDefaults {
        default_mode: Some(default_mode),
        fallback_root: None,
        platform: Platform::Win32,
    }));
    policy.open_session(&s1(), r"D:\ws");
    let adapter = HostAdapter::builder()
        .host(HostFacts {
            binary,
            ..host(Platform::Win32)
        })
        .policy(policy.clone())
        .config(config)
        .build()
        .unwrap();
    Rig { adapter, policy }
}

/// The packaged desktop app, whose session recorded `mode` (deployment default read-only).
fn desktop(mode: SandboxMode) -> Rig {
    let rig = build(
        HostBinary::Electron,
        SandboxMode::ReadOnly,
        Config::default(),
    );
    rig.policy.set_mode(&s1(), mode);
    rig
}

/// A console-owning host (not Electron) whose session recorded `mode`.
fn console_host(mode: SandboxMode) -> Rig {
    let rig = build(
        HostBinary::NotElectron,
        SandboxMode::ReadOnly,
        Config::default(),
    );
    rig.policy.set_mode(&s1(), mode);
    rig
}

/// The persistent shell's failure: message = the sentence, content = `Error: <sentence>`.
fn exited(tool: &str) -> Observation {
    let mut obs = failure(SENTENCE);
    obs.tool = ToolName::new(tool);
    obs.arguments = serde_json::json!({"command": "Get-ChildItem"});
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
    ours(d)
}

fn ours(d: PostDecision) -> PostDecision {
    advisor_core::testing::only(family_pty::ID, d)
}

fn spoke(d: &PostDecision) -> &Advisory {
    assert!(d.withheld.is_empty(), "withheld: {:?}", d.withheld);
    assert_eq!(d.additional_contexts.len(), 1, "{d:?}");
    let a = &d.additional_contexts[0];
    assert_eq!(a.family, family_pty::ID);
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
    assert_eq!(d.withheld[0].family, family_pty::ID);
    assert_eq!(d.withheld[0].reason.code(), code);
}

fn rendered(a: &Advisory) -> String {
    format!("summary: {}\n\n{}", a.summary.as_str(), a.text)
}

// ---- one snapshot per variant ---------------------------------------------------

#[tokio::test]
async fn snapshot_desktop_workspace_write() {
    let d = post(&desktop(SandboxMode::WorkspaceWrite), exited("shell"), None).await;
    insta::assert_snapshot!("desktop_workspace_write", rendered(spoke(&d)));
}

#[tokio::test]
async fn snapshot_desktop_read_only() {
    let d = post(&desktop(SandboxMode::ReadOnly), exited("shell"), None).await;
    insta::assert_snapshot!("desktop_read_only", rendered(spoke(&d)));
}

#[tokio::test]
async fn snapshot_console_host_workspace_write() {
    let d = post(
        &console_host(SandboxMode::WorkspaceWrite),
        exited("pwsh"),
        None,
    )
    .await;
    insta::assert_snapshot!("console_host_workspace_write", rendered(spoke(&d)));
}

#[tokio::test]
async fn snapshot_console_host_read_only() {
    let d = post(&console_host(SandboxMode::ReadOnly), exited("pwsh"), None).await;
    insta::assert_snapshot!("console_host_read_only", rendered(spoke(&d)));
}

// ---- recognition through the adapter ------------------------------------------

#[tokio::test]
async fn content_only_carrier_speaks() {
    let mut obs = failure_with("", &format!("Error: {SENTENCE}"), &[]);
    obs.tool = ToolName::new("bash");
    spoke(&post(&desktop(SandboxMode::WorkspaceWrite), obs, None).await);
}

#[tokio::test]
async fn quoted_line_is_silent() {
    for message in [
        format!("[terminal] {SENTENCE}"),
        format!("{SENTENCE}; viewport=\"PS> \""),
        format!("log follows:\n{SENTENCE}"),
        format!("Error: Error: {SENTENCE}"),
    ] {
        let d = post(
            &desktop(SandboxMode::WorkspaceWrite),
            failure(&message),
            None,
        )
        .await;
        silent(&d);
    }
}

#[tokio::test]
async fn sibling_and_neighbours_are_silent() {
    for message in [
        SIBLING,
        "PTY backend startup and cleanup both failed",
        "persistent bash shell did not accept initialization",
    ] {
        let d = post(
            &desktop(SandboxMode::WorkspaceWrite),
            failure(message),
            None,
        )
        .await;
        silent(&d);
    }
}

#[tokio::test]
async fn successful_result_quoting_it_is_silent() {
    let out = format!("{SENTENCE}\n");
    let obs = success(foreground(0, &out, "", None), &out);
    silent(&post(&desktop(SandboxMode::WorkspaceWrite), obs, None).await);
}

// ---- the mode gate, through the real resolver -----------------------------------

#[tokio::test]
async fn recorded_workspace_write_speaks_and_states_it() {
    let d = post(&desktop(SandboxMode::WorkspaceWrite), exited("shell"), None).await;
    assert!(spoke(&d).detail.contains("recorded is `workspace-write`"));
}

#[tokio::test]
async fn recorded_read_only_speaks_and_states_it() {
    let d = post(&desktop(SandboxMode::ReadOnly), exited("shell"), None).await;
    assert!(spoke(&d).detail.contains("recorded is `read-only`"));
}

#[tokio::test]
async fn danger_full_access_withholds_and_discloses_once() {
    let rig = desktop(SandboxMode::DangerFullAccess);
    withheld(&post(&rig, exited("bash"), None).await, "unconfined-mode");
    silent(&post(&rig, exited("bash"), None).await);
}

/// The session's own event outranks the deployment default, both ways.
#[tokio::test]
async fn the_recorded_mode_counts_not_the_deployment_default() {
    let rig = build(
        HostBinary::Electron,
        SandboxMode::DangerFullAccess,
        Config::default(),
    );
    rig.policy.set_mode(&s1(), SandboxMode::WorkspaceWrite);
    spoke(&post(&rig, exited("bash"), None).await);

    let rig = build(
        HostBinary::Electron,
        SandboxMode::WorkspaceWrite,
        Config::default(),
    );
    rig.policy.set_mode(&s1(), SandboxMode::DangerFullAccess);
    withheld(&post(&rig, exited("bash"), None).await, "unconfined-mode");
}

/// A mode switch inside the session applies to the next failing call at once.
#[tokio::test]
async fn a_mode_change_inside_the_session_applies_at_once() {
    let rig = desktop(SandboxMode::DangerFullAccess);
    withheld(&post(&rig, exited("bash"), None).await, "unconfined-mode");
    rig.policy.set_mode(&s1(), SandboxMode::WorkspaceWrite);
    spoke(&post(&rig, exited("bash"), None).await);
}

/// The call's explicit approved mode is the mode it ran under.
#[tokio::test]
async fn the_calls_approved_mode_outranks_the_session() {
    let rig = desktop(SandboxMode::WorkspaceWrite);
    let d = post(&rig, exited("bash"), Some(SandboxMode::DangerFullAccess)).await;
    withheld(&d, "unconfined-mode");
    let rig = desktop(SandboxMode::DangerFullAccess);
    spoke(&post(&rig, exited("bash"), Some(SandboxMode::ReadOnly)).await);
}

#[tokio::test]
async fn no_policy_service_withholds_once() {
    let adapter = HostAdapter::builder()
        .host(HostFacts {
            binary: HostBinary::Electron,
            ..host(Platform::Win32)
        })
        .build()
        .unwrap();
    for expect_disclosure in [true, false] {
        let d = adapter
            .post_execute(PostExecute {
                observation: exited("bash"),
                approved_mode: None,
            })
            .await;
        let d = ours(d);
        if expect_disclosure {
            withheld(&d, "no-policy-service");
        } else {
            silent(&d);
        }
    }
}

/// An agentless call is never resolved against the deployment default, even a confining one.
#[tokio::test]
async fn no_session_withholds_never_defaults() {
    let rig = build(
        HostBinary::Electron,
        SandboxMode::WorkspaceWrite,
        Config::default(),
    );
    let mut obs = exited("bash");
    obs.session = None;
    withheld(&post(&rig, obs, None).await, "no-session");
}

#[tokio::test]
async fn resolver_error_withholds() {
    let rig = desktop(SandboxMode::WorkspaceWrite);
    rig.policy.fail_session(
        &s1(),
        Unresolved::ResolverError("session log unreadable".into()),
    );
    withheld(&post(&rig, exited("bash"), None).await, "resolver-error");
}

// ---- delivery ---------------------------------------------------------------------

#[tokio::test]
async fn once_per_agent() {
    let rig = desktop(SandboxMode::WorkspaceWrite);
    spoke(&post(&rig, exited("bash"), None).await);
    silent(&post(&rig, exited("bash"), None).await);
    let mut other = exited("bash");
    other.agent = AgentId::new("a2");
    spoke(&post(&rig, other, None).await);
}

#[tokio::test]
async fn host_binary_is_stated_as_measured() {
    let d = post(&desktop(SandboxMode::WorkspaceWrite), exited("shell"), None).await;
    assert!(
        spoke(&d)
            .detail
            .contains("is a GUI-subsystem Electron executable")
    );
    let d = post(
        &console_host(SandboxMode::WorkspaceWrite),
        exited("shell"),
        None,
    )
    .await;
    assert!(spoke(&d).detail.contains("is not an Electron executable"));
}

#[tokio::test]
async fn never_names_the_dead_preset_directory() {
    for rig in [
        desktop(SandboxMode::WorkspaceWrite),
        console_host(SandboxMode::ReadOnly),
    ] {
        let d = post(&rig, exited("bash"), None).await;
        assert!(!spoke(&d).detail.contains(".agent-presets"));
    }
}

/// An excluded tool is transparent: no advisory and no withholding note.
#[tokio::test]
async fn an_excluded_tool_is_transparent() {
    let config = Config {
        exclude: vec![ToolPattern::new("bash").unwrap()],
        ..Config::default()
    };
    let rig = build(HostBinary::Electron, SandboxMode::ReadOnly, config.clone());
    rig.policy.set_mode(&s1(), SandboxMode::WorkspaceWrite);
    silent(&post(&rig, exited("bash"), None).await);
    let rig = build(HostBinary::Electron, SandboxMode::ReadOnly, config);
    rig.policy.set_mode(&s1(), SandboxMode::DangerFullAccess);
    silent(&post(&rig, exited("bash"), None).await);
}

// ---- not covered by the fail-fast budget ----------------------------------------------

/// A fail-fast family that never recognizes anything, so a budget exists.
struct BudgetOwner;

impl Family for BudgetOwner {
    type Finding = ();
    fn id(&self) -> FamilyId {
        FamilyId::new("budget-owner")
    }
    fn doc(&self) -> FamilyDoc {
        FamilyDoc {
            recognizes: "nothing",
            refuses: "everything",
        }
    }
    fn hosts(&self) -> &'static [advisor_core::Host] {
        &[advisor_core::Host::Dsh]
    }
    fn anchors(&self) -> Anchors {
        Anchors::FailureText {
            needles: &["\u{0}never"],
        }
    }
    fn recognize(&self, _: &Observation) -> Option<()> {
        None
    }
    fn gate(&self, _: &(), _: &Environment) -> Gate {
        Gate::Decline("never")
    }
    fn advise(&self, _: &(), _: &Environment) -> Advisory {
        Advisory::new(self.id(), "never", String::new())
    }
}

impl FailFast for BudgetOwner {}

/// Even with the budget on, repeated PTY failures never refuse the next call.
#[tokio::test]
async fn pty_failures_never_feed_the_fail_fast_budget() {
    let policy = Arc::new(SessionPolicy::new(PolicyDefaults {
        default_mode: Some(SandboxMode::WorkspaceWrite),
        fallback_root: None,
        platform: Platform::Win32,
    }));
    policy.open_session(&s1(), r"D:\ws");
    let adapter = HostAdapter::builder()
        .host(host(Platform::Win32))
        .policy(policy)
        .config(Config {
            enforce_after: 1,
            ..Config::default()
        })
        .registry(
            Registry::builder()
                .fail_fast_family(BudgetOwner)
                .family(family_pty::PtyStartup),
        )
        .build()
        .unwrap();
    let obs = exited("bash");
    for _ in 0..4 {
        adapter
            .post_execute(PostExecute {
                observation: obs.clone(),
                approved_mode: None,
            })
            .await;
        let pending = PendingCall {
            agent: obs.agent.clone(),
            session: obs.session.clone(),
            call: CallId::new("c2"),
            tool: obs.tool.clone(),
            arguments: obs.arguments.clone(),
        };
        assert_eq!(adapter.pre_execute(&pending).refusal, None);
    }
}
