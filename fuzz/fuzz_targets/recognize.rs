//! Recognition on arbitrary bytes: every family's own `recognize` (called
//! directly, so a panic is a crash and not a `sandbox_advisor::fault` line) and
//! the standard registry's `owner()`, on a failure observation and on a success
//! value built from the input.
//!
//! Beyond "no panic", each input checks:
//! - the prefilter is sound: when some family recognizes the observation,
//!   `owner()` names the first such family in precedence order (an anchor that
//!   is not a necessary condition would hide a match);
//! - every finding's `policy_need`, `gate` and `advise` run without panicking
//!   under a handful of environments, and every advisory is bounded, one-line
//!   in its summary and free of control characters other than `\n`.
//!
//! Input layout (so a dictionary token or a seed file means something):
//! byte 0 selects the shape; the rest is split on `0xFF` (never valid UTF-8)
//! into fields, each read as lossy UTF-8.
//! - `0`: failure `{message: f0, content: f1 (default "Error: f0"), members: f2..}`
//! - `1`: success, the shell tools' foreground projection: `exitCode` from a
//!   table picked by byte 0 (or f0 when it parses as an integer), stdout f1,
//!   stderr f2, stamp mode f3 (absent when there is no f3), `denied` from
//!   byte 0; arguments `{"command": f4}`; content f5
//! - `2`: success whose value is the rest parsed as JSON (a string when it does not parse)
//! - `3`: failure whose arguments are f1 parsed as JSON and whose message is f0
#![no_main]

use std::sync::OnceLock;

use advisor_core::{
    AgentId, CallId, Environment, Failure, HostBinary, HostFacts, HostPath, Observation, Outcome,
    PathStyle, Platform, PolicyState, Registry, ResolvedPolicy, SandboxMode, SessionId, Success,
    ToolName, Unresolved, WorkspaceRoot,
};
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

/// The advisory bound the hostile tests also assert (text), and the harness's summary cap.
const TEXT_MAX_BYTES: usize = 64 * 1024;

/// Exit codes worth reaching: clean, ordinary, the runner's 127, both spellings
/// of 0xC0000142, its siblings, and the edges of the range.
const EXIT_CODES: [i64; 8] = [
    0,
    1,
    127,
    -1_073_741_502,
    3_221_225_794,
    -1_073_740_791,
    i64::MIN,
    i64::MAX,
];

fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| match host_adapter::standard_registry().build() {
        Ok(registry) => registry,
        Err(e) => panic!("the standard registry does not build: {e}"),
    })
}

fn environments() -> &'static [Environment] {
    static ENVS: OnceLock<Vec<Environment>> = OnceLock::new();
    ENVS.get_or_init(|| {
        let host = |platform, binary| HostFacts {
            kind: advisor_core::Host::Dsh,
            platform,
            binary,
            temp_dir: Some(r"C:\Users\u\AppData\Local\Temp".into()),
        };
        let resolved = |platform: Platform, mode, root: &str| {
            PolicyState::Resolved(ResolvedPolicy {
                mode,
                workspace_root: Some(WorkspaceRoot::new(HostPath::lexical(
                    platform.path_style(),
                    root,
                ))),
            })
        };
        vec![
            Environment {
                host: host(Platform::Win32, HostBinary::Electron),
                policy: resolved(Platform::Win32, SandboxMode::WorkspaceWrite, r"D:\ws"),
                href: None,
                locale: advisor_core::Locale::En,
                host_version: Some(advisor_core::HostVersion::new(2, 0, 10)),
                checks: Default::default(),
            },
            Environment {
                host: host(Platform::Win32, HostBinary::NotElectron),
                policy: resolved(Platform::Win32, SandboxMode::ReadOnly, r"D:\ws"),
                href: Some("https://example.invalid/advice".into()),
                locale: advisor_core::Locale::ZhCn,
                host_version: None,
                checks: Default::default(),
            },
            Environment {
                host: host(Platform::Linux, HostBinary::NotElectron),
                policy: PolicyState::Resolved(ResolvedPolicy {
                    mode: SandboxMode::WorkspaceWrite,
                    workspace_root: Some(WorkspaceRoot::new(HostPath::lexical(
                        PathStyle::Posix,
                        "/ws",
                    ))),
                }),
                href: None,
                locale: advisor_core::Locale::En,
                host_version: None,
                checks: Default::default(),
            },
            Environment {
                host: host(Platform::Win32, HostBinary::NotElectron),
                policy: PolicyState::Unresolved(Unresolved::NoSession),
                href: None,
                locale: advisor_core::Locale::ZhCn,
                host_version: None,
                checks: Default::default(),
            },
            Environment {
                host: host(Platform::Win32, HostBinary::NotElectron),
                policy: PolicyState::NotConsulted,
                href: None,
                locale: advisor_core::Locale::En,
                host_version: None,
                checks: Default::default(),
            },
            // The clients' own families advise under their hosts, on Linux.
            Environment {
                host: HostFacts {
                    kind: advisor_core::Host::Codex,
                    ..host(Platform::Linux, HostBinary::NotElectron)
                },
                policy: PolicyState::Resolved(ResolvedPolicy {
                    mode: SandboxMode::WorkspaceWrite,
                    workspace_root: Some(WorkspaceRoot::new(HostPath::lexical(
                        PathStyle::Posix,
                        "/ws",
                    ))),
                }),
                href: None,
                locale: advisor_core::Locale::ZhCn,
                host_version: None,
                checks: Default::default(),
            },
            Environment {
                host: HostFacts {
                    kind: advisor_core::Host::ClaudeCode,
                    ..host(Platform::Linux, HostBinary::NotElectron)
                },
                policy: PolicyState::Unresolved(Unresolved::NoModeStated),
                href: None,
                locale: advisor_core::Locale::En,
                host_version: None,
                checks: Default::default(),
            },
            // The everyday refusals speak only on the host's facts (issue 37):
            // Codex's read-only mode with every fact checked, and Claude Code's
            // sandbox on with a configured writable root, so their gates and
            // advisories run.
            Environment {
                host: HostFacts {
                    kind: advisor_core::Host::Codex,
                    ..host(Platform::Linux, HostBinary::NotElectron)
                },
                policy: PolicyState::Resolved(ResolvedPolicy {
                    mode: SandboxMode::ReadOnly,
                    workspace_root: Some(WorkspaceRoot::new(HostPath::lexical(
                        PathStyle::Posix,
                        "/ws",
                    ))),
                }),
                href: None,
                locale: advisor_core::Locale::En,
                host_version: None,
                checks: advisor_core::HostChecks {
                    mount: Some(advisor_core::MountFact::Writable {
                        judged: advisor_core::Judged::Ancestor,
                        user_may_write: true,
                    }),
                    codex_config: Some(advisor_core::CodexConfig::Read(
                        advisor_core::CodexSandbox {
                            cwd: Some(HostPath::lexical(PathStyle::Posix, "/ws")),
                            ..Default::default()
                        },
                    )),
                    inet_socket: Some(true),
                    ..Default::default()
                },
            },
            Environment {
                host: HostFacts {
                    kind: advisor_core::Host::ClaudeCode,
                    ..host(Platform::Linux, HostBinary::NotElectron)
                },
                policy: PolicyState::Unresolved(Unresolved::NoModeStated),
                href: None,
                locale: advisor_core::Locale::ZhCn,
                host_version: None,
                checks: advisor_core::HostChecks {
                    mount: Some(advisor_core::MountFact::Writable {
                        judged: advisor_core::Judged::Path,
                        user_may_write: false,
                    }),
                    claude_sandbox: Some(advisor_core::ClaudeSandbox {
                        enabled: Some(true),
                        allowed_domains: Vec::new(),
                        denied_domains: Vec::new(),
                        allow_write: vec![HostPath::lexical(PathStyle::Posix, "/srv/out")],
                        tmpdir: Some(HostPath::lexical(PathStyle::Posix, "/tmp/claude-0")),
                        project_dir: Some(HostPath::lexical(PathStyle::Posix, "/ws")),
                    }),
                    ..Default::default()
                },
            },
        ]
    })
}

fn fields(rest: &[u8]) -> Vec<String> {
    rest.split(|b| *b == 0xFF)
        .map(|f| String::from_utf8_lossy(f).into_owned())
        .collect()
}

fn observation(data: &[u8]) -> Option<Observation> {
    let (&selector, rest) = data.split_first()?;
    let f = fields(rest);
    let field = |i: usize| f.get(i).cloned().unwrap_or_default();
    let (arguments, outcome) = match selector % 4 {
        0 | 3 => {
            let message = field(0);
            let content = f
                .get(1)
                .cloned()
                .unwrap_or_else(|| format!("Error: {message}"));
            let arguments = if selector % 4 == 3 {
                serde_json::from_str(&field(1)).unwrap_or(Value::Null)
            } else {
                json!({"command": "echo hi"})
            };
            let members = if f.len() > 2 {
                f[2..].to_vec()
            } else {
                Vec::new()
            };
            (
                arguments,
                Outcome::Failure(Failure {
                    message,
                    members,
                    content,
                    code: None,
                }),
            )
        }
        1 => {
            let exit_code = field(0)
                .trim()
                .parse::<i64>()
                .unwrap_or(EXIT_CODES[usize::from(selector >> 2) % EXIT_CODES.len()]);
            let mut value = json!({
                "kind": "foreground", "exitCode": exit_code, "signal": null,
                "timedOut": false, "aborted": false, "timeoutMs": 120000,
                "stdout": {"text": field(1), "truncated": false},
                "stderr": {"text": field(2), "truncated": false},
            });
            if let (Some(mode), Some(map)) = (f.get(3), value.as_object_mut()) {
                map.insert(
                    "sandbox".into(),
                    json!({
                        "mode": mode,
                        "denied": selector & 0x20 != 0,
                        "enforcement": "partial",
                        "runnerFailed": selector & 0x40 != 0,
                    }),
                );
            }
            (
                json!({"command": field(4)}),
                Outcome::Success(Success {
                    value,
                    content: field(5),
                }),
            )
        }
        _ => {
            let value = serde_json::from_slice(rest)
                .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(rest).into_owned()));
            let arguments = value.get("args").cloned().unwrap_or(json!({}));
            (
                arguments,
                Outcome::Success(Success {
                    value,
                    content: String::new(),
                }),
            )
        }
    };
    Some(Observation {
        agent: AgentId::new("a1"),
        session: Some(SessionId::new("s1")),
        call: CallId::new("c1"),
        tool: ToolName::new(if selector & 0x80 != 0 { "pwsh" } else { "bash" }),
        arguments,
        outcome,
    })
}

fn check_advisory(family: &str, advisory: &advisor_core::Advisory) {
    let summary = advisory.summary.as_str();
    assert!(
        summary.chars().count() <= advisor_core::SUMMARY_MAX_CHARS,
        "{family}: summary over the bound"
    );
    assert!(
        !summary.chars().any(char::is_control),
        "{family}: control character in the summary"
    );
    assert!(
        advisory.text.len() < TEXT_MAX_BYTES,
        "{family}: advisory text is {} bytes",
        advisory.text.len()
    );
    if let Some(c) = advisory.text.chars().find(|c| c.is_control() && *c != '\n') {
        panic!("{family}: control character {c:?} in the advisory text");
    }
}

fuzz_target!(|data: &[u8]| {
    let Some(observation) = observation(data) else {
        return;
    };
    let registry = registry();
    let mut recognized = Vec::new();
    for family in registry.families() {
        let Some(finding) = family.recognize(&observation) else {
            continue;
        };
        recognized.push(family.id());
        for env in environments() {
            let _ = finding.policy_need(&env.host);
            let _ = finding.gate(env);
            check_advisory(family.id().as_str(), &finding.advise(env));
        }
    }
    // On each host, the owner is the first of that host's families that recognizes it.
    for host in advisor_core::Host::ALL {
        let first = recognized
            .iter()
            .copied()
            .find(|id| registry.families_on(host).any(|f| f.id() == *id));
        let owner = registry.owner(&observation, host).map(|o| o.family);
        assert_eq!(
            owner, first,
            "the prefilter hid a recognizer's match (or named another owner) on {host}"
        );
    }
});
