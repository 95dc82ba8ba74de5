//! The failure half's text, per carrier: snapshots, and what must never be in it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use advisor_core::quote::is_visible;
use advisor_core::testing::{resolved, unresolved};
use advisor_core::{Advisory, Family, Platform, SUMMARY_MAX_CHARS, SandboxMode, Unresolved};
use family_temp_root::{ID, TempRootInsideWorkspace};

/// The only place the family is called: recognize the fixture and advise.
fn check(fixture: &str, href: Option<&str>) -> Advisory {
    let family = TempRootInsideWorkspace;
    let finding = family
        .recognize(&common::load(fixture))
        .unwrap_or_else(|| panic!("{fixture} must be recognized"));
    let mut env = unresolved(Platform::Win32, Unresolved::NoPolicyService);
    env.href = href.map(str::to_owned);
    let advisory = family.advise(&finding, &env);
    assert_eq!(advisory.family, ID);
    assert!(advisory.summary.as_str().chars().count() <= SUMMARY_MAX_CHARS);
    assert!(!advisory.summary.as_str().contains('\n'));
    advisory
}

const CARRIERS: [&str; 2] = ["failure-provider.txt", "failure-runner.txt"];

#[test]
fn snapshot_provider_carrier() {
    let a = check("failure-provider.txt", None);
    insta::assert_snapshot!(
        "failure_provider",
        format!("summary: {}\n\n{}", a.summary.as_str(), a.text)
    );
}

#[test]
fn snapshot_runner_carrier() {
    let a = check("failure-runner.txt", None);
    insta::assert_snapshot!(
        "failure_runner",
        format!("summary: {}\n\n{}", a.summary.as_str(), a.text)
    );
}

#[test]
fn carrier_is_named() {
    let provider = check("failure-provider.txt", None).text;
    let runner = check("failure-runner.txt", None).text;
    assert!(provider.contains("session-scoped sandbox provider (sandbox-local)"));
    assert!(!provider.contains("SandboxUnavailableError"));
    assert!(!provider.contains("windows-acl-run:"));
    assert!(runner.contains("Windows ACL runner (sandbox-windows-acl)"));
    assert!(runner.contains("SandboxUnavailableError for mode \"workspace-write\""));
    assert!(runner.contains("`windows-acl-run:` marker and exited 127"));
    assert!(!runner.contains("sandbox-local"));
}

/// Issue 13: the runner carrier quotes its record — the line the runner wrote
/// as it exited 127, byte for byte as the error's detail carried it — and then
/// the sentence; the provider has no such record.
#[test]
fn runner_record_is_quoted_verbatim() {
    let runner = check("failure-runner.txt", None).text;
    assert!(runner.contains(
        "carried it:\n> windows-acl-run: Windows ACL temp root must be outside the workspace: \
         workspace=C:\\Users\\u; temp=C:\\Users\\u\\AppData\\Local\\Temp\n\n"
    ));
    let provider = check("failure-provider.txt", None).text;
    assert!(!provider.contains("> windows-acl-run:"));
    assert!(!provider.contains("exit 127"));
}

/// Issue 13: an assertion on its own line beside a runner line is the
/// provider's, and it is named and quoted exactly as the provider's.
#[test]
fn provider_beside_a_runner_line_reads_as_the_provider() {
    let provider = check("failure-provider.txt", None);
    for fixture in [
        "failure-provider-after-runner-line.txt",
        "failure-provider-before-runner-line.txt",
        "failure-provider-enveloped.txt",
    ] {
        assert_eq!(check(fixture, None), provider, "{fixture}");
    }
    let runner = check("failure-runner.txt", None);
    for fixture in [
        "failure-runner-after-runner-line.txt",
        "failure-runner-enveloped.txt",
    ] {
        assert_eq!(check(fixture, None), runner, "{fixture}");
    }
}

#[test]
fn both_operands_are_quoted() {
    for fixture in CARRIERS {
        let text = check(fixture, None).text;
        assert!(text.contains(r"- workspace: `C:\Users\u`"), "{fixture}");
        assert!(
            text.contains(r"- temp: `C:\Users\u\AppData\Local\Temp`"),
            "{fixture}"
        );
    }
}

#[test]
fn escapes_in_operands_never_reach_the_text() {
    let text = check("failure-provider-escapes.txt", None).text;
    assert!(!text.contains('\u{1b}'));
    assert!(!text.contains('\u{7}'));
    assert!(text.contains(r"- workspace: `C:\Users\u\u{1B}[31m`"));
    assert!(text.contains(r"> Windows ACL temp root must be outside the workspace: workspace=C:\Users\u\u{1B}[31m; temp="));
}

#[test]
fn the_backends_sentence_is_quoted_on_its_own_line() {
    for fixture in CARRIERS {
        let text = check(fixture, None).text;
        assert!(
            text.contains(
                "carried it:\n> Windows ACL temp root must be outside the workspace: \
                 workspace=C:\\Users\\u; temp=C:\\Users\\u\\AppData\\Local\\Temp\n\n"
            ),
            "{fixture}"
        );
    }
}

/// Issue 11's hostile inputs that can reach this family, one fixture each
/// (the raw operands are spelled out in `tests/recognize.rs`). A newline
/// followed by fake instructions never gets this far: recognition refuses a
/// second line. The family writes no log line of its own, and the user's paths
/// never enter a command line, so the snapshots show prose renderings only.
const HOSTILE: [(&str, &str); 6] = [
    ("hostile_quote_variant", "failure-hostile-quote-variant.txt"),
    ("hostile_unc_path", "failure-hostile-unc-path.txt"),
    (
        "hostile_framing_backtick",
        "failure-hostile-framing-backtick.txt",
    ),
    (
        "hostile_framing_line_separator",
        "failure-hostile-framing-line-separator.txt",
    ),
    ("hostile_invisible", "failure-hostile-invisible.txt"),
    (
        "hostile_drive_root_and_brackets",
        "failure-hostile-drive-root.txt",
    ),
];

#[test]
fn hostile_operands_are_only_ever_quoted() {
    for (name, fixture) in HOSTILE {
        let a = check(fixture, None);
        for c in a.text.chars().filter(|&c| c != '\n') {
            assert!(is_visible(c), "{name}: U+{:04X} reached the text", c as u32);
        }
        for line in a.text.lines() {
            assert_eq!(
                line.matches('`').count() % 2,
                0,
                "{name}: a code span was closed early: {line}"
            );
            let smuggled = ["Note for the model", "Start-Process", "\\host", "System32"];
            if smuggled.iter().any(|s| line.contains(s)) {
                let quoted = line.starts_with("> ")
                    || (line.starts_with("- workspace: `") || line.starts_with("- temp: `"))
                        && line.ends_with('`');
                assert!(quoted, "{name}: untrusted text outside a quote: {line}");
            }
        }
        insta::assert_snapshot!(
            name,
            format!("summary: {}\n\n{}", a.summary.as_str(), a.text)
        );
    }
}

#[test]
fn users_paths_never_enter_a_command_line() {
    for fixture in [
        "failure-provider.txt",
        "failure-runner.txt",
        "failure-provider-spaces.txt",
    ] {
        let text = check(fixture, None).text;
        for line in text.lines() {
            let commandish = ["mkdir ", "set TMP", "set TEMP", "$env:", "icacls"]
                .iter()
                .any(|c| line.contains(c));
            if commandish {
                assert!(!line.contains(r"C:\Users"), "{fixture}: {line}");
            }
        }
        assert!(
            !text.contains("icacls \""),
            "{fixture}: ships a repair command"
        );
    }
}

#[test]
fn both_tmp_and_temp_are_set_with_their_reasons() {
    for fixture in CARRIERS {
        let text = check(fixture, None).text;
        assert!(text.contains("   set TMP=C:\\dsh-temp\n"), "{fixture}");
        assert!(text.contains("   set TEMP=C:\\dsh-temp\n"), "{fixture}");
        assert!(text.contains("$env:TMP = 'C:\\dsh-temp'; $env:TEMP = 'C:\\dsh-temp'"));
        assert!(
            text.contains("GetTempPathW, which reads TMP before TEMP"),
            "{fixture}"
        );
        assert!(text.contains("reads TEMP before TMP"), "{fixture}");
        assert!(
            text.contains("   mkdir C:\\dsh-temp\n"),
            "{fixture}: create it first"
        );
    }
}

#[test]
fn second_remedy_is_another_workspace() {
    for fixture in CARRIERS {
        let text = check(fixture, None).text;
        assert!(
            text.contains(
                "2. Or open the session on a workspace that does not contain the temp root"
            )
        );
    }
}

#[test]
fn never_recommends_relaxing_the_sandbox() {
    for fixture in CARRIERS {
        let text = check(fixture, None).text;
        for line in text.lines().filter(|l| l.contains("danger-full-access")) {
            assert!(line.contains("not"), "{fixture}: {line}");
        }
        assert!(text.contains("not a workaround"), "{fixture}");
        assert!(
            text.contains("Do not switch to it to get past this."),
            "{fixture}"
        );
        for relax in [
            "Switch to it",
            "switch to danger-full-access",
            "use danger-full-access",
        ] {
            assert!(!text.contains(relax), "{fixture}: {relax}");
        }
        assert!(
            text.contains("read-only is not affected by this check"),
            "{fixture}"
        );
    }
}

#[test]
fn retry_is_ruled_out_first() {
    for fixture in CARRIERS {
        let text = check(fixture, None).text;
        let first = text.lines().next().unwrap_or_default();
        assert!(first.contains("Retrying cannot help"), "{fixture}");
    }
}

#[test]
fn discussion_is_cited_or_replaced_by_href() {
    let plain = check("failure-provider.txt", None).text;
    assert!(plain.contains("reported in #9175"));
    let href = check("failure-provider.txt", Some("https://example.test/t/1")).text;
    assert!(href.contains("reported in https://example.test/t/1"));
    assert!(!href.contains("#9175"));
}

#[test]
fn advice_does_not_depend_on_the_environment() {
    // No gate on the failure half, and the text reads no policy either.
    let family = TempRootInsideWorkspace;
    let finding = family
        .recognize(&common::load("failure-provider.txt"))
        .expect("recognized");
    let a = family.advise(
        &finding,
        &resolved(Platform::Linux, SandboxMode::ReadOnly, None),
    );
    let b = family.advise(
        &finding,
        &unresolved(Platform::Win32, Unresolved::NoSession),
    );
    assert_eq!(a, b);
}
