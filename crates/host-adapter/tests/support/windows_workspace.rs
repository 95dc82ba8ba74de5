//! The rig the hostile-input tests share: a Windows host whose temp directory
//! lies outside the workspace (so the temp-root pre-flight stays clear), the
//! real `SessionPolicy` with session `s1` opened on `D:\ws` under
//! `workspace-write`, and one post-execute through a fresh adapter.

use std::sync::Arc;

use advisor_core::testing::host;
use advisor_core::{Advisory, Config, HostFacts, Observation, Platform, SandboxMode, SessionId};
use host_adapter::{HostAdapter, PolicyDefaults, PostExecute, SessionPolicy};

/// The workspace root of session `s1`.
pub const WS: &str = r"D:\ws";

/// A fresh adapter on the shared rig.
pub fn adapter() -> HostAdapter {
    let policy = Arc::new(SessionPolicy::new(PolicyDefaults {
        default_mode: Some(SandboxMode::ReadOnly),
        fallback_root: None,
        platform: Platform::Win32,
    }));
    policy.open_session(&SessionId::new("s1"), WS);
    policy.set_mode(&SessionId::new("s1"), SandboxMode::WorkspaceWrite);
    HostAdapter::builder()
        .host(HostFacts {
            temp_dir: Some(r"C:\Users\u\AppData\Local\Temp".into()),
            ..host(Platform::Win32)
        })
        .policy(policy)
        .config(Config::default())
        .build()
        .unwrap()
}

/// The one place the adapter is driven: a fresh adapter, one post-execute,
/// the advisories it delivered.
pub async fn advise(observation: Observation) -> Vec<Advisory> {
    adapter()
        .post_execute(PostExecute {
            observation,
            approved_mode: None,
        })
        .await
        .additional_contexts
}
