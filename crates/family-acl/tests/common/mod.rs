//! The one place the tests call the family: fixtures in, descriptions out.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;

use advisor_core::quote::{PathSlot, is_visible};
use advisor_core::testing::{failure_with, foreground, host, success};
use advisor_core::{
    Advisory, Environment, Family, Observation, Platform, PolicyNeed, PolicyState, Registry,
    Untrusted,
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
        Some(f) => {
            let mut line = format!(
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
                f.path().map_or("(none)".to_owned(), |p| p
                    .inspect()
                    .escape_debug()
                    .to_string()),
            );
            if let Some(tag) = &f.tag {
                line.push_str(&format!(" tag={}", tag.inspect()));
            }
            line
        }
    }
}

/// Recognizes a fixture and compares the description; for every recognized
/// fixture also checks what must hold of any finding (see [`check_observation`]).
pub fn check(fixture: &str, expected: &str) {
    check_observation(fixture, &load(fixture), expected);
}

/// Recognizes an observation and compares the description; for every
/// recognized observation also checks what must hold of any finding: the
/// anchor, the prefilter, the gate, a bounded summary, only visible characters
/// in the text, and command lines that are labelled with their shell and carry
/// the directory only as that shell's rendering (`-LiteralPath` for cmdlets),
/// or the placeholder with the reason stated.
pub fn check_observation(name: &str, observation: &Observation, expected: &str) {
    let finding = AclProvisioning.recognize(observation);
    assert_eq!(describe(finding.as_ref()), expected, "{name}");

    let registry = family_acl::register(Registry::builder())
        .build()
        .expect("registry");
    assert_eq!(
        registry.owner(observation).is_some(),
        finding.is_some(),
        "{name}: the shared prefilter disagrees with the recognizer"
    );
    let Some(finding) = finding else { return };
    let failure = observation.failure().expect("recognized only on failures");
    assert!(
        [&failure.message, &failure.content]
            .iter()
            .any(|t| t.contains("NamedSecurityInfoW failed (Win32 ")),
        "{name}: the anchor is not a necessary condition"
    );
    assert_eq!(
        AclProvisioning.policy_need(&finding, &host(Platform::Linux)),
        PolicyNeed::NotNeeded
    );
    let advisory = advise_observation(name, observation, None);
    assert!(advisory.summary.as_str().chars().count() <= 120);
    assert!(!advisory.summary.as_str().contains('\n'));
    let hidden = advisory
        .text
        .chars()
        .find(|c| *c != '\n' && !is_visible(*c));
    assert_eq!(hidden, None, "{name}: an invisible character in the text");

    check_evidence(name, observation, &finding, &advisory);

    // The directory's place on the command lines: the slot's rendering, or
    // `<dir>` with the reason stated (an error without a detail names none).
    let slot = PathSlot::new(finding.path().unwrap_or(&Untrusted::new("")), "<dir>");
    match (finding.path(), slot.note()) {
        (None, _) => assert!(
            advisory.text.contains("The error names no directory"),
            "{name}: <dir> stands in without its reason"
        ),
        (Some(_), Some(note)) => {
            assert!(advisory.text.contains(&note), "{name}: no reason for <dir>")
        }
        (Some(_), None) => {}
    }
    let commands = command_lines(&advisory);
    if finding.class().is_access_denied() {
        assert!(
            commands.len() >= 9,
            "{name}: a command went missing: {commands:?}"
        );
    } else {
        assert_eq!(commands.len(), 3, "{name}: {commands:?}");
    }
    for line in commands {
        let line = line.trim_start();
        if let Some(rest) = line.strip_prefix("PowerShell:") {
            assert!(rest.contains(&*slot.powershell()), "{name}: {line:?}");
            if rest.contains("Get-Acl") {
                assert!(rest.contains("Get-Acl -LiteralPath "), "{name}: {line:?}");
            }
        } else if let Some(rest) = line.strip_prefix("cmd:") {
            assert!(rest.contains(&*slot.cmd()), "{name}: {line:?}");
        } else {
            assert_eq!(
                line,
                format!("PowerShell or cmd: net helpmsg {}", finding.code),
                "{name}: a command line without its shell"
            );
        }
        if let Some(path) = finding.path().filter(|_| slot.path().is_none()) {
            assert!(
                !line.contains(path.inspect()),
                "{name}: refused path in {line:?}"
            );
        }
    }
}

/// The evidence rule: the finding's line is the `Win32Error` message exactly
/// as the producer wrote it — a whole line of the failure's text, or that
/// line's end after the envelope, the carrier prefix or the framing tag, with
/// only trailing white space removed — and the advisory quotes it on its own
/// `> ` line (escaped visibly where it holds a character that is not).
pub fn check_evidence(
    name: &str,
    observation: &Observation,
    finding: &AclFinding,
    advisory: &Advisory,
) {
    let line = finding.line.inspect();
    assert!(line.starts_with(finding.api.as_str()), "{name}: {line:?}");
    assert_eq!(line, line.trim_end(), "{name}: trailing white space quoted");
    let failure = observation.failure().expect("recognized only on failures");
    let held = [&failure.message, &failure.content]
        .iter()
        .flat_map(|t| t.lines())
        .any(|l| l.trim_end().ends_with(line));
    assert!(
        held,
        "{name}: {line:?} is not the end of any line of the failure"
    );
    let quoted = format!("\n{}\n", finding.line.quote_block());
    assert!(
        advisory.text.contains(&quoted),
        "{name}: the line is not quoted"
    );
    if line.chars().all(|c| is_visible(c) && c != '`') && line.chars().count() <= 400 {
        assert!(
            advisory.text.contains(&format!("\n> {line}\n")),
            "{name}: the quote is not verbatim"
        );
    }
}

/// The advisory for a recognized fixture.
pub fn advise(fixture: &str, href: Option<&str>) -> Advisory {
    advise_observation(fixture, &load(fixture), href)
}

/// The advisory for a recognized observation, as the registry delivers it
/// (with the closing sentence that names the discussions' repository).
pub fn advise_observation(name: &str, observation: &Observation, href: Option<&str>) -> Advisory {
    let finding = AclProvisioning
        .recognize(observation)
        .unwrap_or_else(|| panic!("{name} is not recognized"));
    let env = env(href);
    assert_eq!(
        AclProvisioning.gate(&finding, &env),
        advisor_core::Gate::Speak
    );
    AclProvisioning.advise(&finding, &env).name_sources(&env)
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
