//! The one place the tests call the family: fixtures in, descriptions out.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;

use advisor_core::testing::{failure_with, foreground, host, success};
use advisor_core::{
    Advisory, Environment, Family, Observation, Platform, PolicyNeed, PolicyState, Registry,
};
use family_acl::{AclFinding, AclProvisioning};

/// The path of a fixture file.
pub fn fixture_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(format!("{name}.fixture"))
}

/// Reads a fixture: `outcome: failure|success`, then `--- message`, `--- content`
/// and any number of `--- member` sections (each section's lines joined by `\n`).
pub fn load(name: &str) -> Observation {
    let raw = std::fs::read_to_string(fixture_path(name))
        .unwrap_or_else(|e| panic!("fixture {name}: {e}"));
    let mut lines = raw.strip_suffix('\n').unwrap_or(&raw).split('\n');
    let outcome = lines
        .next()
        .and_then(|l| l.strip_prefix("outcome: "))
        .unwrap_or_else(|| panic!("fixture {name}: no outcome line"));
    let (mut message, mut content, mut members) = (String::new(), String::new(), Vec::new());
    let mut current: Option<(String, Vec<&str>)> = None;
    let mut flush = |section: Option<(String, Vec<&str>)>| {
        if let Some((kind, body)) = section {
            let text = body.join("\n");
            match kind.as_str() {
                "message" => message = text,
                "content" => content = text,
                "member" => members.push(text),
                other => panic!("fixture {name}: unknown section {other}"),
            }
        }
    };
    for line in lines {
        if let Some(kind) = line.strip_prefix("--- ") {
            flush(current.take());
            current = Some((kind.to_owned(), Vec::new()));
        } else if let Some((_, body)) = current.as_mut() {
            body.push(line);
        }
    }
    flush(current.take());
    match outcome {
        "failure" => {
            let members: Vec<&str> = members.iter().map(String::as_str).collect();
            failure_with(&message, &content, &members)
        }
        "success" => success(foreground(0, &content, "", None), &content),
        other => panic!("fixture {name}: unknown outcome {other}"),
    }
}

/// The environment the advisor builds for this family: the resolver is never consulted.
pub fn env(href: Option<&str>) -> Environment {
    Environment {
        host: host(Platform::Win32),
        policy: PolicyState::NotConsulted,
        href: href.map(str::to_owned),
    }
}

/// One line naming every fact the recognizer extracted, or `refused`.
pub fn describe(finding: Option<&AclFinding>) -> String {
    match finding {
        None => "refused".to_owned(),
        Some(f) => format!(
            "{} {} code={} label={} carrier={} field={} path={}",
            f.class().as_str(),
            f.api.as_str(),
            f.code,
            f.label.map_or("-", |l| l.as_str()),
            f.carrier.as_str(),
            match f.field {
                family_acl::Field::Message => "message",
                family_acl::Field::Content => "content",
            },
            f.path().escape_debug(),
        ),
    }
}

/// Recognizes a fixture and compares the description; for every recognized
/// fixture also checks what must hold of any finding (anchor, prefilter, gate,
/// a bounded summary, no unquotable path in a command line).
pub fn check(fixture: &str, expected: &str) {
    let observation = load(fixture);
    let finding = AclProvisioning.recognize(&observation);
    assert_eq!(describe(finding.as_ref()), expected, "fixture {fixture}");

    let registry = family_acl::register(Registry::builder())
        .build()
        .expect("registry");
    assert_eq!(
        registry.owner(&observation).is_some(),
        finding.is_some(),
        "fixture {fixture}: the shared prefilter disagrees with the recognizer"
    );
    let Some(finding) = finding else { return };
    let failure = observation.failure().expect("recognized only on failures");
    assert!(
        [&failure.message, &failure.content]
            .iter()
            .any(|t| t.contains("NamedSecurityInfoW failed (Win32 ")),
        "fixture {fixture}: the anchor is not a necessary condition"
    );
    assert_eq!(
        AclProvisioning.policy_need(&finding, &host(Platform::Linux)),
        PolicyNeed::NotNeeded
    );
    let advisory = advise(fixture, None);
    assert!(advisory.summary.as_str().chars().count() <= 120);
    assert!(!advisory.summary.as_str().contains('\n'));
    for line in command_lines(&advisory) {
        if advisor_core::text::command_safe_path(finding.path()).is_err() {
            assert!(!line.contains(finding.path()), "unsafe path in {line:?}");
            assert!(line.contains("<dir>"), "no placeholder in {line:?}");
        }
    }
}

/// The advisory for a recognized fixture.
pub fn advise(fixture: &str, href: Option<&str>) -> Advisory {
    let observation = load(fixture);
    let finding = AclProvisioning
        .recognize(&observation)
        .unwrap_or_else(|| panic!("fixture {fixture} is not recognized"));
    let env = env(href);
    assert_eq!(
        AclProvisioning.gate(&finding, &env),
        advisor_core::Gate::Speak
    );
    AclProvisioning.advise(&finding, &env)
}

/// The text of a recognized fixture's advisory.
pub fn text(fixture: &str) -> String {
    advise(fixture, None).text
}

/// The indented lines of an advisory that hold a command.
pub fn command_lines(advisory: &Advisory) -> Vec<&str> {
    advisory
        .text
        .lines()
        .filter(|l| l.starts_with("    "))
        .filter(|l| {
            ["icacls", "Get-Acl", "net helpmsg"]
                .iter()
                .any(|c| l.contains(c))
        })
        .collect()
}
