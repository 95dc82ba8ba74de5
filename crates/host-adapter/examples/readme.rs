//! Mounting sandbox-advisor from a Rust harness: one failure in, its advisories out.

use std::sync::Arc;

use advisor_core::{
    AgentId, CallId, Config, Failure, HostFacts, Observation, Outcome, Platform, SandboxMode,
    SessionId, ToolName,
};
use host_adapter::{HostAdapter, PolicyDefaults, PostExecute, SessionPolicy};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The harness's policy: deployment default, each session's header cwd and mode events.
    let policy = Arc::new(SessionPolicy::new(PolicyDefaults {
        default_mode: Some(SandboxMode::ReadOnly),
        fallback_root: None,
        platform: Platform::Win32,
    }));
    policy.open_session(&SessionId::new("s1"), r"D:\ws");
    policy.set_mode(&SessionId::new("s1"), SandboxMode::WorkspaceWrite);

    let adapter = HostAdapter::builder()
        .host(HostFacts {
            platform: Platform::Win32,
            ..HostFacts::current()
        })
        .policy(policy)
        .config(Config::from_json(serde_json::json!({ "enforceAfter": 3 }))?)
        .build()?;

    // tools/post-execute: append the returned advisories to the result's additionalContexts.
    let observation = Observation {
        agent: AgentId::new("a1"),
        session: Some(SessionId::new("s1")),
        call: CallId::new("c1"),
        tool: ToolName::new("pwsh"),
        arguments: serde_json::json!({ "command": "Get-Date" }),
        outcome: Outcome::Failure(Failure {
            message: "PTY shell exited during startup".into(),
            ..Failure::default()
        }),
    };
    let decision = adapter
        .post_execute(PostExecute {
            observation,
            approved_mode: None,
        })
        .await;
    for advisory in decision.additional_contexts {
        println!("{}: {}", advisory.family, advisory.summary.as_str());
    }
    Ok(())
}
