//! The advisory text, driven through `common::check`: one snapshot per
//! variant, the evidence it quotes, and the facts (and forbidden things) every
//! variant must carry.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // test helpers may fail loudly

mod common;

use advisor_core::testing::resolved;
use advisor_core::{Environment, Platform, SandboxMode};
use common::{
    NOT_REPORTED, POSITIVES, ROOT, assert_untrusted_text_is_framed, rendered, speak, windows,
};

// ---- the anomaly: speaks, one snapshot per advisory variant -------------

#[test]
fn each_positive_speaks_and_is_snapshotted() {
    for fixture in POSITIVES {
        let advisory = speak(fixture, &windows());
        assert_untrusted_text_is_framed(fixture, &advisory.text);
        insta::assert_snapshot!(fixture, rendered(&advisory));
    }
}

#[test]
fn href_replaces_every_discussion_number() {
    let env = Environment {
        href: Some("https://github.com/deepseek-ai/deepseek-harness/discussions/423".into()),
        ..windows()
    };
    let advisory = speak("pos_pwsh_set_content_vendor", &env);
    assert!(!advisory.text.contains("#423") && !advisory.text.contains("#8383"));
    insta::assert_snapshot!("href", rendered(&advisory));
}

// ---- an exit code the value does not report: recognized, never a number --

/// The sentence that states the exit code says it is not reported, and no
/// number stands in for it anywhere.
fn assert_not_reported(name: &str, text: &str) {
    let sentence = text
        .lines()
        .find(|l| l.starts_with("What was reported:"))
        .unwrap_or_else(|| panic!("{name}: no report sentence"));
    assert!(
        sentence.starts_with("What was reported: the `pwsh` command's value reports no exit code,"),
        "{name}: {sentence}"
    );
    assert!(!sentence.contains("exited"), "{name}: {sentence}");
    assert!(
        !sentence.chars().any(|c| c.is_ascii_digit()),
        "{name}: a number in {sentence}"
    );
    assert!(
        !text.contains("exited 0") && !text.contains("exit code 0"),
        "{name}"
    );
}

#[test]
fn an_exit_code_the_value_does_not_report_blocks_nothing() {
    let fixture = NOT_REPORTED[0];
    let advisory = speak(fixture, &windows());
    assert_not_reported(fixture, &advisory.text);
    assert_untrusted_text_is_framed(fixture, &advisory.text);
    insta::assert_snapshot!(fixture, rendered(&advisory));
}

#[test]
fn every_shape_of_an_unreported_exit_code_reads_alike() {
    let null = speak(NOT_REPORTED[0], &windows()).text;
    for fixture in &NOT_REPORTED[1..] {
        let text = speak(fixture, &windows()).text;
        assert_not_reported(fixture, &text);
        assert_eq!(text, null, "{fixture}");
    }
}

// ---- the evidence: the stamp, quoted as the value carried it ------------

/// The lead-in and quote block of the stamp, as the advisory must print it.
fn quoted_stamp(record: &str) -> String {
    format!("The stamp, exactly as the tool's value carries it:\n> {record}\n\n")
}

#[test]
fn the_stamp_is_quoted_as_the_value_carries_it() {
    let text = speak("pos_pwsh_set_content_vendor", &windows()).text;
    assert!(text.contains(&quoted_stamp(
        r#""sandbox":{"mode":"workspace-write","denied":true,"enforcement":"partial"}"#
    )));
    // Its own member order, and nothing added that the value did not carry.
    let text = speak("pos_stamp_member_order", &windows()).text;
    assert!(text.contains(&quoted_stamp(
        r#""sandbox":{"denied":true,"mode":"workspace-write"}"#
    )));
    assert!(text.contains("(enforcement: not stamped)"));
    // The stamp's mode, whatever the session's policy says.
    let policy_says_read_only = resolved(Platform::Win32, SandboxMode::ReadOnly, Some(ROOT));
    let text = speak("pos_pwsh_set_content_vendor", &policy_says_read_only).text;
    assert!(text.contains(r#"> "sandbox":{"mode":"workspace-write","denied":true,"#));
}

// ---- the text: required facts and forbidden things ----------------------

#[test]
fn the_advisory_states_the_mechanism_and_its_measurements() {
    let text = speak("pos_pwsh_set_content_vendor", &windows()).text;
    for fact in [
        "Retrying cannot help",
        "once, on the workspace root",
        "WRITE_DAC",
        "looks only at the root",
        "never visited again",
        "170 of its 729",
        "files directly under the root",
        "(#423)",
        "normal token",
        "restricted Low-integrity token",
        "Administrators, SYSTEM and the backend's capability SID",
        "no-write-up",
        "`(CI)`",
        "(#8383, #8421)",
        "(#9559)",
        "(#8409)",
        "not even the root",
        "diagnose-windows-sandbox-acl",
        "0.2.0 and later",
        "Why no repair command is given",
    ] {
        assert!(text.contains(fact), "missing {fact:?}");
    }
}

#[test]
fn the_keyed_path_is_printed_beside_the_root() {
    let text = speak("pos_pwsh_set_content_vendor", &windows()).text;
    assert!(text.contains(r"- path the command names: `D:\ws\vendor\lib\config.json`"));
    assert!(text.contains(r"- workspace root (policy): `D:\ws`"));
    assert!(text.contains(r"    PowerShell: icacls 'D:\ws\vendor\lib\config.json'"));
    assert!(text.contains(r"    PowerShell: icacls 'D:\ws'"));
    let text = speak("pos_pwsh_case_slashes_dotdot", &windows()).text;
    assert!(text.contains(r"`d:/WS/Build/../dist/app.js` (read as `d:\WS\dist\app.js`)"));
    assert!(text.contains(r"    PowerShell: icacls 'd:\WS\dist\app.js'"));
}

#[test]
fn an_unquotable_path_never_reaches_a_command_line() {
    let text = speak("pos_pwsh_unquotable_path", &windows()).text;
    assert!(!text.contains(r"icacls 'D:\ws\100%"));
    assert!(text.contains("    PowerShell: icacls <path>\n"));
    assert!(text.contains(
        "The path `D:\\ws\\100%\\a.txt` is not written into the check below, because it contains a \
         character a shell could read as syntax; the check shows <path> in its place."
    ));
    assert!(text.contains(r"    PowerShell: icacls 'D:\ws'"));
}

#[test]
fn the_advisory_offers_no_repair_and_no_wider_mode() {
    for fixture in POSITIVES {
        let advisory = speak(fixture, &windows());
        let text = advisory.text.to_lowercase();
        for forbidden in [
            "danger-full-access",
            "sandbox_permissions",
            "escalat",
            "/grant",
            "/reset",
            "/setowner",
            "takeown",
            "set-acl",
            "setintegritylevel",
            "write at the root instead",
        ] {
            assert!(!text.contains(forbidden), "{fixture}: {forbidden:?}");
        }
        assert_untrusted_text_is_framed(fixture, &advisory.text);
        assert!(advisory.summary.as_str().chars().count() <= 120);
        assert!(!advisory.summary.as_str().contains('\n'));
    }
}
