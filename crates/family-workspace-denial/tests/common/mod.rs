//! The one helper every test goes through — `check(fixture, env, expected)` —
//! and what every advisory must satisfy.
//!
//! Host facts and the resolved policy arrive through the `Environment`, the
//! way a harness supplies them; nothing here is a configuration knob.

#![allow(dead_code)] // each test target uses a part of it
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test helpers may fail loudly

use advisor_core::testing::{self, resolved};
use advisor_core::{
    Advisory, Environment, Failure, Family, Gate, Observation, Outcome, Platform, PolicyNeed,
    PolicyState, Registry, SandboxMode, Success, ToolName,
};
use family_workspace_denial::WorkspaceDenial;
use serde_json::Value;

pub const ROOT: &str = r"D:\ws";

/// What a fixture must come to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    NotRecognized,
    Decline(&'static str),
    Withhold(&'static str),
    Speak,
}

pub fn read(fixture: &str) -> Value {
    let path = format!(
        "{}/tests/fixtures/{fixture}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap()
}

pub fn load(fixture: &str) -> Observation {
    observation_from(fixture, &read(fixture))
}

pub fn observation_from(fixture: &str, v: &Value) -> Observation {
    let content = v["content"].as_str().unwrap_or_default().to_owned();
    let outcome = match v["outcome"].as_str() {
        Some("success") => Outcome::Success(Success {
            value: v["value"].clone(),
            content,
        }),
        Some("failure") => Outcome::Failure(Failure {
            message: v["message"].as_str().unwrap().to_owned(),
            members: Vec::new(),
            content,
            code: None,
        }),
        other => panic!("{fixture}: unknown outcome {other:?}"),
    };
    let mut observation = testing::observation(outcome);
    observation.tool = ToolName::new(v["tool"].as_str().unwrap());
    observation.arguments = v["arguments"].clone();
    observation
}

/// A Windows host whose session resolved to `workspace-write` on `D:\ws`.
pub fn windows() -> Environment {
    resolved(Platform::Win32, SandboxMode::WorkspaceWrite, Some(ROOT))
}

/// Checks one fixture from `tests/fixtures/`.
pub fn check(fixture: &str, env: &Environment, expected: Expect) -> Option<Advisory> {
    check_observation(fixture, load(fixture), env, expected)
}

/// The one place the family is called: recognize (cross-checked against the
/// registry's prefilter), then the policy need, then the gate — with the
/// policy withheld from the gate exactly as the core does when it is not needed —
/// then the advisory as the core delivers it (with the discussions' repository named).
pub fn check_observation(
    name: &str,
    observation: Observation,
    env: &Environment,
    expected: Expect,
) -> Option<Advisory> {
    let family = WorkspaceDenial;
    let finding = family.recognize(&observation);
    let registry = Registry::builder().family(WorkspaceDenial).build().unwrap();
    assert_eq!(
        registry.owner(&observation).is_some(),
        finding.is_some(),
        "{name}: the anchors must be necessary conditions of the recognizer"
    );
    let Some(finding) = finding else {
        assert_eq!(expected, Expect::NotRecognized, "{name}: not recognized");
        return None;
    };
    let need = family.policy_need(&finding, &env.host);
    let env = match need {
        PolicyNeed::NotNeeded => Environment {
            policy: PolicyState::NotConsulted,
            ..env.clone()
        },
        PolicyNeed::Required => env.clone(),
    };
    let got = match family.gate(&finding, &env) {
        Gate::Speak => Expect::Speak,
        Gate::Decline(code) => Expect::Decline(code),
        Gate::Withhold(reason) => Expect::Withhold(reason.code()),
    };
    assert_eq!(got, expected, "{name}");
    (got == Expect::Speak).then(|| family.advise(&finding, &env).name_sources(&env))
}

pub fn speak(fixture: &str, env: &Environment) -> Advisory {
    check(fixture, env, Expect::Speak).unwrap()
}

pub fn rendered(advisory: &Advisory) -> String {
    format!(
        "summary: {}\n\n{}",
        advisory.summary.as_str(),
        advisory.text
    )
}

pub const POSITIVES: [&str; 7] = [
    "pos_pwsh_set_content_vendor",
    "pos_bash_redirect_cache",
    "pos_pwsh_copy_two_inside",
    "pos_pwsh_case_slashes_dotdot",
    "pos_pwsh_unquotable_path",
    "pos_cmd_five_inside",
    "pos_stamp_member_order",
];

/// One fixture per shape of an exit code the value does not report: null,
/// absent, a string, a number that is not an integer. Each is "not reported".
pub const NOT_REPORTED: [&str; 4] = [
    "pos_exit_null_signal",
    "pos_exit_absent",
    "pos_exit_string",
    "pos_exit_fraction",
];

/// Every check line is `PowerShell: icacls ` with a placeholder whose reason
/// the text gives, or with one single-quoted literal of allow-listed
/// characters; nothing invisible survives anywhere, and no line leaves a code
/// span open.
pub fn assert_untrusted_text_is_framed(name: &str, text: &str) {
    for line in text.lines().filter(|l| l.contains("icacls")) {
        let Some(arg) = line.strip_prefix("    PowerShell: icacls ") else {
            // Prose that names the tool, never a command line.
            assert!(
                !line.starts_with(' '),
                "{name}: unlabelled command {line:?}"
            );
            continue;
        };
        if arg.starts_with('<') {
            assert!(arg.ends_with('>'), "{name}: {line:?}");
            assert!(
                text.contains(&format!("shows {arg} in its place")),
                "{name}: {arg} stands in without a reason"
            );
            continue;
        }
        let body = arg
            .strip_prefix('\'')
            .and_then(|a| a.strip_suffix('\''))
            .unwrap_or_else(|| panic!("{name}: not a single-quoted literal: {line:?}"));
        assert!(
            body.replace("''", "")
                .chars()
                .all(|c| c.is_alphanumeric() || r" -_.()[]{}@#&+,;=~$\:".contains(c)),
            "{name}: {line:?}"
        );
        assert!(
            !body.contains(r"\\") && !body.split('\\').any(|c| c == ".." || c == "."),
            "{name}: UNC, device or dot component in {line:?}"
        );
    }
    assert!(
        text.chars()
            .all(|c| c == '\n' || advisor_core::quote::is_visible(c)),
        "{name}: an invisible character reached the text"
    );
    for line in text.lines() {
        assert!(
            line.matches('`').count() % 2 == 0,
            "{name}: a code span left open: {line:?}"
        );
    }
}
