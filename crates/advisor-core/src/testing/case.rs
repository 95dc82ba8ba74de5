//! A fixture read, checked and turned into what the registry decides on.

mod gemini_checks;
mod write_checks;

use std::path::Path;

use serde_json::Value;

use super::fixture::{
    Arm, ChecksSpec, Decision, Expect, Fixture, FixtureError, HostSpec, PolicySpec,
};
use crate::checks::{
    ClaudeSandbox, HomePlace, HostChecks, NamespaceProbe, ProgramOnPath, UserNamespaces,
};
use crate::environment::{
    Environment, HostBinary, HostFacts, Platform, PolicyState, ResolvedPolicy, SandboxMode,
    Unresolved, WorkspaceRoot,
};
use crate::ids::{AgentId, CallId, SessionId, ToolName};
use crate::observation::{Failure, Observation, Outcome, Success};
use crate::paths::HostPath;

/// What a fixture is decided on: an observation, or a session's pre-flight.
#[derive(Debug, Clone)]
pub enum Subject {
    /// A settled tool call.
    Observation(Box<Observation>),
    /// The session's pre-flight.
    Preflight,
}

/// A fixture read and checked, ready to decide.
#[derive(Debug, Clone)]
pub struct Case {
    /// The file's stem (`pos-…` / `ctl-…`).
    pub name: String,
    /// The arm the name declares.
    pub arm: Arm,
    /// The fixture as written.
    pub fixture: Fixture,
    /// The observation or pre-flight.
    pub subject: Subject,
    /// The host facts.
    pub host: HostFacts,
    /// The policy a family that asks for it sees.
    pub policy: PolicyState,
    /// The language of the summary and the brief.
    pub locale: crate::Locale,
    /// The configured desktop version (`[host] version`).
    pub host_version: Option<crate::HostVersion>,
    /// What the host probe answers (`[checks]`; all unknown when absent).
    pub checks: HostChecks,
}

impl Case {
    /// Reads and checks one fixture file.
    pub fn load(path: &Path) -> Result<Self, FixtureError> {
        let invalid = |message: String| FixtureError::Invalid {
            path: path.to_owned(),
            message,
        };
        let raw = std::fs::read_to_string(path).map_err(|source| FixtureError::Read {
            path: path.to_owned(),
            source,
        })?;
        let file_name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let arm = Arm::of(file_name).ok_or_else(|| {
            invalid("the file name must be pos-<case>.toml or ctl-<case>.toml".into())
        })?;
        let fixture: Fixture = toml::from_str(&raw).map_err(|e| invalid(e.to_string()))?;
        let case =
            Self::build(file_name.trim_end_matches(".toml"), arm, fixture).map_err(invalid)?;
        Ok(case)
    }

    /// Reads `<crate_dir>/tests/fixtures/<name>.toml` (for a test that decides a
    /// fixture's observation under another environment).
    pub fn named(crate_dir: &str, name: &str) -> Result<Self, FixtureError> {
        Self::load(
            &Path::new(crate_dir)
                .join("tests/fixtures")
                .join(format!("{name}.toml")),
        )
    }

    /// The fixture's observation (`None` for a pre-flight).
    pub fn observation(&self) -> Option<&Observation> {
        match &self.subject {
            Subject::Observation(o) => Some(o),
            Subject::Preflight => None,
        }
    }

    /// Builds a case from a parsed fixture; the error names the key.
    pub fn build(name: &str, arm: Arm, fixture: Fixture) -> Result<Self, String> {
        check_expect(arm, &fixture.expect)?;
        let host = host_facts(fixture.host.as_ref())?;
        let policy = policy_state(fixture.policy.as_ref(), host.platform)?;
        let subject = subject(&fixture)?;
        let locale = match fixture.locale.as_deref() {
            None => crate::Locale::En,
            Some(tag) => tag.parse().map_err(|e| format!("locale: {e}"))?,
        };
        let host_version = fixture
            .host
            .as_ref()
            .and_then(|h| h.version.as_deref())
            .map(|v| v.parse().map_err(|e| format!("host.version: {e}")))
            .transpose()?;
        let checks = host_checks(fixture.checks.as_ref())?;
        Ok(Self {
            locale,
            host_version,
            checks,
            name: name.to_owned(),
            arm,
            fixture,
            subject,
            host,
            policy,
        })
    }

    /// The environment a family sees when it asked for the policy (or not).
    pub fn environment(&self, policy_needed: bool) -> Environment {
        Environment {
            host: self.host.clone(),
            policy: if policy_needed {
                self.policy.clone()
            } else {
                PolicyState::NotConsulted
            },
            href: self.fixture.href.clone(),
            locale: self.locale,
            host_version: self.host_version,
            checks: HostChecks::default(),
        }
    }
}

fn host_checks(spec: Option<&ChecksSpec>) -> Result<HostChecks, String> {
    let Some(spec) = spec else {
        return Ok(HostChecks::default());
    };
    let userns_given = spec.userns_probe.is_some()
        || spec.max_user_namespaces.is_some()
        || spec.unprivileged_userns_clone.is_some()
        || spec.apparmor_restrict_unprivileged_userns.is_some();
    let probe = match spec.userns_probe.as_deref() {
        None | Some("not-run") => NamespaceProbe::NotRun,
        Some("created") => NamespaceProbe::Created,
        Some("refused") => NamespaceProbe::Refused,
        Some(other) => return Err(format!("checks.userns_probe: unknown `{other}`")),
    };
    let codex_home = match spec.codex_home.as_deref() {
        None => None,
        Some("under-temp") => Some(HomePlace::UnderTemp),
        Some("outside-temp") => Some(HomePlace::OutsideTemp),
        Some(other) => return Err(format!("checks.codex_home: unknown `{other}`")),
    };
    let enabled = match spec.claude_sandbox.as_deref() {
        None if spec.allowed_domains.is_empty()
            && spec.denied_domains.is_empty()
            && !write_checks::claude_keys(spec) =>
        {
            None
        }
        None => return Err("checks: the domain lists need `claude_sandbox`".into()),
        Some("on") => Some(Some(true)),
        Some("off") => Some(Some(false)),
        Some("unknown") => Some(None),
        Some(other) => return Err(format!("checks.claude_sandbox: unknown `{other}`")),
    };
    let sandbox_program = match spec.sandbox_program.as_deref() {
        None => None,
        Some("found") => Some(ProgramOnPath::Found),
        Some("missing") => Some(ProgramOnPath::Missing),
        Some(other) => return Err(format!("checks.sandbox_program: unknown `{other}`")),
    };
    let list = |d: &[String]| d.iter().map(|s| crate::Untrusted::new(s)).collect();
    let dirs = write_checks::claude(spec)?;
    Ok(HostChecks {
        user_namespaces: userns_given.then_some(UserNamespaces {
            max_user_namespaces: spec.max_user_namespaces,
            unprivileged_userns_clone: spec.unprivileged_userns_clone,
            apparmor_restrict_unprivileged_userns: spec.apparmor_restrict_unprivileged_userns,
            probe,
        }),
        codex_home,
        claude_sandbox: enabled.map(|enabled| ClaudeSandbox {
            enabled,
            allowed_domains: list(&spec.allowed_domains),
            denied_domains: list(&spec.denied_domains),
            allow_write: dirs.allow_write.clone(),
            tmpdir: dirs.tmpdir.clone(),
            project_dir: dirs.project_dir.clone(),
        }),
        client_tail: spec.client_tail,
        sandbox_program,
        mount: write_checks::mount(spec)?,
        working_directory: write_checks::mount_cwd(spec)?,
        codex_config: write_checks::codex(spec)?,
        inet_socket: spec.inet_socket,
        gemini_session: gemini_checks::gemini(spec)?,
    })
}

fn check_expect(arm: Arm, expect: &Expect) -> Result<(), String> {
    match (&expect.family, expect.decision) {
        (None, None) if expect.reason.is_none() => {}
        (None, _) => return Err("expect: `decision`/`reason` need a `family`".into()),
        (Some(_), None) => return Err("expect: a `family` needs a `decision`".into()),
        (Some(_), Some(Decision::Speak)) if expect.reason.is_some() => {
            return Err("expect: `reason` is only for withhold or decline".into());
        }
        (Some(_), Some(Decision::Withhold | Decision::Decline)) if expect.reason.is_none() => {
            return Err("expect: withhold and decline need a `reason`".into());
        }
        (Some(_), Some(_)) => {}
    }
    let speaks = expect.decision == Some(Decision::Speak);
    match (arm, speaks) {
        (Arm::Positive, false) => Err("expect: a pos- fixture must expect `speak`".into()),
        (Arm::Control, true) => Err("expect: a ctl- fixture must not expect `speak`".into()),
        _ => Ok(()),
    }
}

fn host_facts(spec: Option<&HostSpec>) -> Result<HostFacts, String> {
    let spec = spec.cloned().unwrap_or_default();
    let platform = match spec.platform.as_deref().unwrap_or("win32") {
        "win32" => Platform::Win32,
        "linux" => Platform::Linux,
        "macos" => Platform::Macos,
        other => return Err(format!("host.platform: unknown platform `{other}`")),
    };
    let kind = match spec.kind.as_deref() {
        None => crate::Host::Dsh,
        Some(raw) => raw.parse().map_err(|e| format!("host.kind: {e}"))?,
    };
    Ok(HostFacts {
        kind,
        platform,
        binary: if spec.electron {
            HostBinary::Electron
        } else {
            HostBinary::NotElectron
        },
        temp_dir: spec.temp_dir,
    })
}

fn policy_state(spec: Option<&PolicySpec>, platform: Platform) -> Result<PolicyState, String> {
    let spec = spec.cloned().unwrap_or_default();
    if let Some(why) = spec.unresolved {
        if spec.mode.is_some() || spec.root.is_some() {
            return Err("policy: `unresolved` excludes `mode` and `root`".into());
        }
        return Ok(PolicyState::Unresolved(match why.as_str() {
            "no-policy-service" => Unresolved::NoPolicyService,
            "no-session" => Unresolved::NoSession,
            "no-mode-stated" => Unresolved::NoModeStated,
            "resolver-error" => Unresolved::ResolverError("the resolver failed".into()),
            other => return Err(format!("policy.unresolved: unknown reason `{other}`")),
        }));
    }
    let mode: SandboxMode = spec
        .mode
        .as_deref()
        .unwrap_or("workspace-write")
        .parse()
        .map_err(|_| "policy.mode: unknown sandbox mode".to_owned())?;
    let default_root = match platform {
        Platform::Win32 => r"D:\ws",
        Platform::Linux | Platform::Macos => "/ws",
    };
    let root = spec.root.as_deref().unwrap_or(default_root);
    let workspace_root = (!root.is_empty())
        .then(|| WorkspaceRoot::new(HostPath::lexical(platform.path_style(), root)));
    Ok(PolicyState::Resolved(ResolvedPolicy {
        mode,
        workspace_root,
    }))
}

fn json(key: &str, text: &str) -> Result<Value, String> {
    serde_json::from_str(text).map_err(|e| format!("{key}: not JSON: {e}"))
}

fn subject(fixture: &Fixture) -> Result<Subject, String> {
    let outcome = match (
        &fixture.failure,
        &fixture.foreground,
        &fixture.success,
        fixture.preflight,
    ) {
        (None, None, None, true) => {
            if fixture.call.is_some() {
                return Err("preflight: a pre-flight has no [call]".into());
            }
            return Ok(Subject::Preflight);
        }
        (Some(f), None, None, false) => Outcome::Failure(Failure {
            message: f.message.clone(),
            members: f.members.clone(),
            content: f
                .content
                .clone()
                .unwrap_or_else(|| format!("Error: {}", f.message)),
            code: f.code.clone(),
        }),
        (None, Some(f), None, false) => {
            let sandbox = f
                .sandbox
                .as_deref()
                .map(|s| json("foreground.sandbox", s))
                .transpose()?;
            let mut value =
                super::foreground(f.exit_code.unwrap_or(0), &f.stdout, &f.stderr, sandbox);
            if f.exit_code.is_none() {
                if let Some(map) = value.as_object_mut() {
                    map.insert("exitCode".into(), Value::Null);
                }
            }
            Outcome::Success(Success {
                value,
                content: f.content.clone(),
            })
        }
        (None, None, Some(s), false) => Outcome::Success(Success {
            value: json("success.value", &s.value)?,
            content: s.content.clone(),
        }),
        _ => {
            return Err(
                "exactly one of [failure], [foreground], [success] or `preflight = true`".into(),
            );
        }
    };
    let call = fixture.call.clone().unwrap_or_default();
    let arguments = match call.arguments.as_deref() {
        Some(text) => json("call.arguments", text)?,
        None => serde_json::json!({"command": "echo hi"}),
    };
    Ok(Subject::Observation(Box::new(Observation {
        agent: AgentId::new("a1"),
        session: Some(SessionId::new("s1")),
        call: CallId::new("c1"),
        tool: ToolName::new(call.tool.as_deref().unwrap_or("bash")),
        arguments,
        outcome,
    })))
}
