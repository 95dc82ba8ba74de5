//! Replays one recorded ACL provisioning failure through the advisor and prints
//! the advisory the model would receive.
//!
//! `cargo run -p sandbox-advisor-host-adapter --example acl`

use std::sync::Arc;

use advisor_core::{
    AgentId, CallId, Config, Failure, HostBinary, HostFacts, Observation, Outcome, Platform,
    SandboxMode, SessionId, ToolName,
};
use host_adapter::{HostAdapter, PolicyDefaults, PostExecute, SessionPolicy};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let session = SessionId::new("s1");
    let policy = Arc::new(SessionPolicy::new(PolicyDefaults {
        default_mode: Some(SandboxMode::ReadOnly),
        fallback_root: None,
        platform: Platform::Win32,
    }));
    policy.open_session(&session, r"D:\ws");
    policy.set_mode(&session, SandboxMode::WorkspaceWrite);
    let adapter = HostAdapter::builder()
        .host(HostFacts {
            kind: advisor_core::Host::Dsh,
            platform: Platform::Win32,
            binary: HostBinary::NotElectron,
            temp_dir: None,
        })
        .policy(policy)
        .config(Config::default())
        .build()?;

    // The exact failure the session path settles (producers.md §1).
    let message = r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)";
    let observation = Observation {
        agent: AgentId::new("a1"),
        session: Some(session),
        call: CallId::new("c1"),
        tool: ToolName::new("pwsh"),
        arguments: serde_json::json!({ "command": "Get-Date" }),
        outcome: Outcome::Failure(Failure {
            message: message.to_owned(),
            members: Vec::new(),
            content: format!("Error: {message}"),
            ..Failure::default()
        }),
    };
    let decision = adapter
        .post_execute(PostExecute {
            observation,
            approved_mode: None,
        })
        .await;
    for advisory in &decision.additional_contexts {
        println!("[{}] {}\n", advisory.family, advisory.summary.as_str());
        println!("{}", advisory.text);
    }
    if decision.additional_contexts.is_empty() {
        println!("no advisory (withheld: {:?})", decision.withheld);
    }
    Ok(())
}
