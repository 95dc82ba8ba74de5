//! A family whose gate defers hands the observation to the next family that
//! recognizes it (`Gate::Defer`): Codex's protected paths defer a write
//! refused under `read-only`, or outside the workspace, to the family of
//! refused writes, which decides it with the host's facts. The probe here
//! answers fixed facts (the real one is `sandbox-advisor`'s `hook::probe`,
//! tested there against real mounts); what is under test is who decides.
#![cfg(all(feature = "codex-protected-path", feature = "sandbox-write-denied"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;

use advisor_core::testing::{host, success};
use advisor_core::{
    Checks, CodexConfig, CodexSandbox, Config, Host, HostChecks, HostFacts, HostPath, HostProbe,
    Judged, MountFact, Observation, PathStyle, Platform, SandboxMode, SessionId,
};
use host_adapter::{HostAdapter, PolicyDefaults, PostExecute, SessionPolicy};
use serde_json::{Value, json};

const ROOT: &str = "/home/dev/app";

/// Fixed host facts: the mount at any path, and Codex's configuration read.
struct Facts(MountFact);

impl HostProbe for Facts {
    fn check(&self, _wanted: Checks, _host: &HostFacts) -> HostChecks {
        HostChecks {
            mount: Some(self.0),
            codex_config: Some(CodexConfig::Read(CodexSandbox {
                cwd: Some(HostPath::lexical(PathStyle::Posix, ROOT)),
                ..CodexSandbox::default()
            })),
            ..HostChecks::default()
        }
    }
}

fn adapter(mode: SandboxMode, mount: MountFact) -> HostAdapter {
    let policy = Arc::new(SessionPolicy::new(PolicyDefaults {
        default_mode: None,
        fallback_root: None,
        platform: Platform::Linux,
    }));
    policy.open_session(&SessionId::new("s1"), ROOT);
    policy.set_mode(&SessionId::new("s1"), mode);
    let mut facts = host(Platform::Linux);
    facts.kind = Host::Codex;
    let mut adapter = HostAdapter::builder()
        .host(facts)
        .policy(policy)
        .config(Config::default())
        .build()
        .unwrap();
    adapter.set_probe(Arc::new(Facts(mount)));
    adapter
}

/// Codex's bare output of `command`, as its `PostToolUse` hook delivers it.
fn output(command: &str, line: &str) -> Observation {
    let mut o = success(Value::Null, &format!("{line}\n"));
    o.tool = "Bash".into();
    o.arguments = json!({ "command": command });
    o
}

const GIT: &str = "fatal: Unable to create '/home/dev/app/.git/index.lock': Read-only file system";
const WRITABLE: MountFact = MountFact::Writable {
    judged: Judged::Path,
    user_may_write: true,
};

/// (spoken families, withheld families) for one observation.
async fn decide(adapter: &HostAdapter, observation: Observation) -> (Vec<String>, Vec<String>) {
    let d = adapter
        .post_execute(PostExecute {
            observation,
            approved_mode: None,
        })
        .await;
    (
        d.additional_contexts
            .iter()
            .map(|a| a.family.to_string())
            .collect(),
        d.withheld.iter().map(|w| w.family.to_string()).collect(),
    )
}

#[tokio::test]
async fn under_workspace_write_the_protected_path_keeps_its_own_story() {
    let adapter = adapter(SandboxMode::WorkspaceWrite, WRITABLE);
    let (spoken, withheld) = decide(&adapter, output("git commit -m wip", GIT)).await;
    assert_eq!(spoken, ["codex-protected-path"]);
    assert!(withheld.is_empty(), "{withheld:?}");
}

#[tokio::test]
async fn under_read_only_the_protected_path_defers_to_the_refused_write() {
    let adapter = adapter(SandboxMode::ReadOnly, WRITABLE);
    let (spoken, withheld) = decide(&adapter, output("git commit -m wip", GIT)).await;
    assert_eq!(spoken, ["sandbox-write-denied"]);
    assert!(withheld.is_empty(), "{withheld:?}");
}

#[tokio::test]
async fn a_protected_name_outside_the_workspace_is_the_refused_writes_story() {
    let adapter = adapter(SandboxMode::WorkspaceWrite, WRITABLE);
    let line = "touch: cannot touch '/home/dev/other/.git/x': Read-only file system";
    let (spoken, withheld) = decide(&adapter, output("touch /home/dev/other/.git/x", line)).await;
    assert_eq!(spoken, ["sandbox-write-denied"]);
    assert!(withheld.is_empty(), "{withheld:?}");
}

#[tokio::test]
async fn after_deferring_a_real_read_only_mount_stays_silent() {
    // The family deferred to finds the host's own mount read-only: refuted,
    // so nobody speaks and nothing is withheld.
    let mount = MountFact::ReadOnly {
        judged: Judged::Ancestor,
    };
    let adapter = adapter(SandboxMode::ReadOnly, mount);
    let (spoken, withheld) = decide(&adapter, output("git commit -m wip", GIT)).await;
    assert!(spoken.is_empty(), "{spoken:?}");
    assert!(withheld.is_empty(), "{withheld:?}");
}
