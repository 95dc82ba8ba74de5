//! Registry precedence between shipped families that can recognize one
//! observation: the more specific family owns it, and the other stays silent.
#![cfg(all(
    feature = "acl",
    feature = "acl-aggregate",
    feature = "cim",
    feature = "workspace-denial"
))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;

use advisor_core::testing::{failure_with, foreground, host, success};
use advisor_core::{Config, Observation, Platform, SandboxMode, SessionId};
use host_adapter::{HostAdapter, PolicyDefaults, PostExecute, SessionPolicy};
use serde_json::json;

fn adapter() -> HostAdapter {
    let policy = Arc::new(SessionPolicy::new(PolicyDefaults {
        default_mode: Some(SandboxMode::ReadOnly),
        fallback_root: None,
        platform: Platform::Win32,
    }));
    policy.open_session(&SessionId::new("s1"), r"D:\ws");
    policy.set_mode(&SessionId::new("s1"), SandboxMode::WorkspaceWrite);
    let mut facts = host(Platform::Win32);
    facts.temp_dir = Some(r"C:\Users\u\AppData\Local\Temp".into()); // outside the workspace: pre-flight clear
    HostAdapter::builder()
        .host(facts)
        .policy(policy)
        .config(Config::default())
        .build()
        .unwrap()
}

async fn families(adapter: &HostAdapter, observation: Observation) -> Vec<String> {
    let d = adapter
        .post_execute(PostExecute {
            observation,
            approved_mode: None,
        })
        .await;
    d.additional_contexts
        .iter()
        .map(|a| a.family.to_string())
        .chain(d.withheld.iter().map(|w| format!("withheld:{}", w.family)))
        .collect()
}

#[tokio::test]
async fn acl_owns_an_aggregate_message_that_carries_the_named_security_line() {
    let message = "sandbox-local windows-acl workspace grant failed and its cleanup also failed\n\
                   SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\\ws)";
    let obs = failure_with(message, &format!("Error: {message}"), &[]);
    assert_eq!(families(&adapter(), obs).await, ["acl-provisioning"]);
}

#[tokio::test]
async fn the_bare_aggregate_sentence_belongs_to_the_aggregate_family() {
    let message = "sandbox-local windows-acl workspace grant failed and its cleanup also failed";
    let members = [
        r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)",
        "LocalFree failed (Win32 87): grantWrite(D:\\ws) descriptor",
    ];
    let obs = failure_with(message, &format!("Error: {message}"), &members);
    assert_eq!(
        families(&adapter(), obs).await,
        ["acl-aggregate-failure"],
        "members are never read as the ACL line"
    );
}

#[tokio::test]
async fn cim_owns_a_refused_cmdlet_that_is_also_stamped_denied() {
    let stderr = "Get-CimInstance : Access is denied. \r\n\
                  + CategoryInfo          : PermissionDenied: (root\\cimv2:Win32_OperatingSystem) [Get-CimInstance], CimException\r\n\
                  + FullyQualifiedErrorId : HRESULT 0x80041003,Microsoft.Management.Infrastructure.CimCmdlets.GetCimInstanceCommand\r\n";
    let stamp = json!({"mode": "workspace-write", "denied": true, "enforcement": "partial"});
    let mut obs = success(foreground(1, "", stderr, Some(stamp)), "[exit code: 1]");
    obs.arguments =
        json!({"command": "Get-CimInstance Win32_OperatingSystem -ComputerName D:\\ws\\x"});
    assert_eq!(families(&adapter(), obs).await, ["cim-wmi-denial"]);
}
