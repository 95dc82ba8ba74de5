//! One agent that hits both confining-mode families hears about both, once each.
#![cfg(all(feature = "pty", feature = "native-init"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;

use advisor_core::testing::{failure, foreground, host, success};
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
    facts.temp_dir = Some(r"C:\Users\u\AppData\Local\Temp".into());
    HostAdapter::builder()
        .host(facts)
        .policy(policy)
        .config(Config::default())
        .build()
        .unwrap()
}

fn pty() -> Observation {
    failure("PTY shell exited during startup")
}

fn dll_init() -> Observation {
    let stamp = json!({"mode": "workspace-write", "denied": false, "enforcement": "partial"});
    let mut o = success(
        foreground(3221225794, "", "", Some(stamp)),
        "(no output)\n[exit code: 3221225794]",
    );
    o.tool = "pwsh".into();
    o.arguments = json!({"command": "D:\\Git\\bin\\bash.exe -c \"echo bash-ok\""});
    o
}

#[tokio::test]
async fn pty_then_native_init_then_repeats() {
    let adapter = adapter();
    let mut heard = Vec::new();
    for observation in [pty(), dll_init(), pty(), dll_init(), pty()] {
        let d = adapter
            .post_execute(PostExecute {
                observation,
                approved_mode: None,
            })
            .await;
        assert!(d.withheld.is_empty(), "{:?}", d.withheld);
        heard.extend(
            d.additional_contexts
                .into_iter()
                .map(|a| a.family.to_string()),
        );
    }
    assert_eq!(heard, ["pty-startup", "native-init"]);
}
