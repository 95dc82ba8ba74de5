//! The failure half's text, per carrier: what it must always say and never
//! say. The whole texts are the fixtures' snapshots (`tests/fixtures.rs`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use advisor_core::quote::is_visible;
use advisor_core::testing::{Case, fixture_files, resolved, unresolved, verdict};
use advisor_core::{Advisory, Family, Platform, SUMMARY_MAX_CHARS, SandboxMode, Unresolved};
use family_temp_root::{ID, TempRootInsideWorkspace};

/// The only place the family is called: the fixture's observation, decided
/// under its own environment, must speak; its advisory as delivered.
fn check(fixture: &str) -> Advisory {
    let case = Case::named(env!("CARGO_MANIFEST_DIR"), fixture).unwrap();
    let observation = case
        .observation()
        .unwrap_or_else(|| panic!("{fixture} is a pre-flight"));
    let advisory = verdict(
        &TempRootInsideWorkspace,
        observation,
        &case.environment(false),
    )
    .advisory()
    .unwrap_or_else(|| panic!("{fixture} must speak"));
    assert_eq!(advisory.family, ID);
    assert!(advisory.summary.as_str().chars().count() <= SUMMARY_MAX_CHARS);
    assert!(!advisory.summary.as_str().contains('\n'));
    advisory
}

const CARRIERS: [&str; 2] = ["pos-provider", "pos-runner"];

#[test]
fn carrier_is_named() {
    let provider = check("pos-provider").detail;
    let runner = check("pos-runner").detail;
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
    let runner = check("pos-runner").detail;
    assert!(runner.contains(
        "carried it:\n> windows-acl-run: Windows ACL temp root must be outside the workspace: \
         workspace=C:\\Users\\u; temp=C:\\Users\\u\\AppData\\Local\\Temp\n\n"
    ));
    let provider = check("pos-provider").detail;
    assert!(!provider.contains("> windows-acl-run:"));
    assert!(!provider.contains("exit 127"));
}

/// Issue 13: an assertion on its own line beside a runner line is the
/// provider's, and it is named and quoted exactly as the provider's.
#[test]
fn provider_beside_a_runner_line_reads_as_the_provider() {
    let provider = check("pos-provider");
    for fixture in [
        "pos-provider-after-runner-line",
        "pos-provider-before-runner-line",
        "pos-provider-enveloped",
    ] {
        assert_eq!(check(fixture), provider, "{fixture}");
    }
    let runner = check("pos-runner");
    for fixture in ["pos-runner-after-runner-line", "pos-runner-enveloped"] {
        assert_eq!(check(fixture), runner, "{fixture}");
    }
}

#[test]
fn both_operands_are_quoted() {
    for fixture in CARRIERS {
        let text = check(fixture).detail;
        assert!(text.contains(r"- workspace: `C:\Users\u`"), "{fixture}");
        assert!(
            text.contains(r"- temp: `C:\Users\u\AppData\Local\Temp`"),
            "{fixture}"
        );
    }
}

#[test]
fn escapes_in_operands_never_reach_the_text() {
    let text = check("pos-provider-escapes").detail;
    assert!(!text.contains('\u{1b}'));
    assert!(!text.contains('\u{7}'));
    assert!(text.contains(r"- workspace: `C:\Users\u\u{1B}[31m`"));
    assert!(text.contains(r"> Windows ACL temp root must be outside the workspace: workspace=C:\Users\u\u{1B}[31m; temp="));
}

#[test]
fn the_backends_sentence_is_quoted_on_its_own_line() {
    for fixture in CARRIERS {
        let text = check(fixture).detail;
        assert!(
            text.contains(
                "carried it:\n> Windows ACL temp root must be outside the workspace: \
                 workspace=C:\\Users\\u; temp=C:\\Users\\u\\AppData\\Local\\Temp\n\n"
            ),
            "{fixture}"
        );
    }
}

/// Issue 11's hostile inputs that can reach this family: every `pos-hostile-*`
/// fixture (its snapshot holds the whole text). A newline followed by fake
/// instructions never gets this far: recognition refuses a second line
/// (`ctl-hostile-newline-instructions`). The family writes no log line of its
/// own, and the user's paths never enter a command line, so only the prose
/// renderings are checked here.
#[test]
fn hostile_operands_are_only_ever_quoted() {
    let hostile: Vec<String> = fixture_files(env!("CARGO_MANIFEST_DIR"))
        .iter()
        .filter_map(|p| p.file_stem()?.to_str().map(str::to_owned))
        .filter(|n| n.starts_with("pos-hostile-"))
        .collect();
    assert!(
        hostile.len() >= 6,
        "issue 11's cases are fixtures: {hostile:?}"
    );
    for name in hostile {
        let a = check(&name);
        hostile_text_is_framed(&name, &a.text);
        hostile_text_is_framed(&name, &a.detail);
    }
}

/// The framing one text (the brief or the full account) of a hostile fixture
/// must hold. Untrusted text appears only in a `> ` quote, an inline span of
/// the detail's operand list, or core's `explain` line, where it is one
/// single-quoted PowerShell literal on an indented command line (core refuses
/// to write text no literal can carry, `<message>` stands for it then).
fn hostile_text_is_framed(name: &str, text: &str) {
    for c in text.chars().filter(|&c| c != '\n') {
        assert!(is_visible(c), "{name}: U+{:04X} reached the text", c as u32);
    }
    for line in text.lines() {
        let explain = line.starts_with("    sandbox-advisor explain ")
            && (line.ends_with('\'') || line.ends_with(" <message>"));
        if !explain {
            assert_eq!(
                line.matches('`').count() % 2,
                0,
                "{name}: a code span was closed early: {line}"
            );
        }
        let smuggled = ["Note for the model", "Start-Process", "\\host", "System32"];
        if smuggled.iter().any(|s| line.contains(s)) {
            let quoted = line.starts_with("> ")
                || (line.starts_with("- workspace: `") || line.starts_with("- temp: `"))
                    && line.ends_with('`')
                || explain;
            assert!(quoted, "{name}: untrusted text outside a quote: {line}");
        }
    }
}

#[test]
fn users_paths_never_enter_a_command_line() {
    for fixture in ["pos-provider", "pos-runner", "pos-provider-spaces"] {
        let advisory = check(fixture);
        let text = format!("{}\n{}", advisory.text, advisory.detail);
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
        let text = check(fixture).detail;
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
        let text = check(fixture).detail;
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
        let text = check(fixture).detail;
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
        let text = check(fixture).detail;
        let first = text.lines().next().unwrap_or_default();
        assert!(first.contains("Retrying cannot help"), "{fixture}");
    }
}

#[test]
fn discussion_is_cited_or_replaced_by_href() {
    let plain = check("pos-provider").detail;
    assert!(plain.contains("reported in #9175"));
    let href = check("pos-provider-href").detail;
    assert!(href.contains("reported in https://example.test/t/1"));
    assert!(!href.contains("#9175"));
}

#[test]
fn advice_does_not_depend_on_the_environment() {
    // No gate on the failure half, and the text reads no policy either.
    let family = TempRootInsideWorkspace;
    let case = Case::named(env!("CARGO_MANIFEST_DIR"), "pos-provider").unwrap();
    let finding = family
        .recognize(case.observation().expect("an observation"))
        .expect("recognized");
    let a = family.advise(
        &finding,
        &resolved(Platform::Linux, SandboxMode::ReadOnly, None),
    );
    let b = family.advise(
        &finding,
        &unresolved(Platform::Win32, Unresolved::NoSession),
    );
    // Only the brief's `explain` line names the platform and mode it ran under.
    let before_explain = |t: &str| {
        t.split("The full account")
            .next()
            .unwrap_or_default()
            .to_owned()
    };
    assert_eq!(before_explain(&a.text), before_explain(&b.text));
    assert_eq!((&a.summary, &a.detail), (&b.summary, &b.detail));
}
