//! The facts (and forbidden things) the advisory text must hold. Each text
//! variant is a fixture and its snapshot (`tests/fixtures.rs`); these tests pin
//! what a reviewed snapshot change must still keep.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use advisor_core::SUMMARY_MAX_CHARS;
use advisor_core::quote::needs_escape;
use advisor_core::testing::{Case, verdict};
use advisor_core::{Advisory, Family};
use family_cim::{CimWmiDenial, ID, UPSTREAM_STATEMENT};

/// The advisory the fixture `name` produces under its own environment.
fn speak(name: &str) -> Advisory {
    let case = Case::named(env!("CARGO_MANIFEST_DIR"), name).expect("the fixture loads");
    let observation = case.observation().expect("an observation");
    let finding = CimWmiDenial
        .recognize(observation)
        .unwrap_or_else(|| panic!("{name} is not recognized"));
    let need = CimWmiDenial.policy_need(&finding, &case.host);
    let env = case.environment(need == advisor_core::PolicyNeed::Required);
    let advisory = verdict(&CimWmiDenial, observation, &env)
        .advisory()
        .unwrap_or_else(|| panic!("{name} does not speak"));
    assert_eq!(advisory.family, ID, "{name}");
    advisory
}

fn english() -> String {
    speak("pos-en-record").text
}

fn chinese() -> String {
    speak("pos-zh-record-read-only").text
}

fn both() -> [String; 2] {
    [english(), chinese()]
}

#[test]
fn href_replaces_the_discussion_number() {
    let text = speak("pos-zh-record-href").text;
    assert!(text.contains("https://example.org/cim"));
    assert!(!text.contains("#9272"));
    assert!(english().contains("#9272"));
}

#[test]
fn summary_is_one_bounded_line() {
    let advisory = speak("pos-en-record");
    let summary = advisory.summary.as_str();
    assert!(summary.chars().count() <= SUMMARY_MAX_CHARS);
    assert!(!summary.ends_with('…'), "the summary was cut: {summary}");
    assert!(summary.contains("0x80041003"));
}

#[test]
fn upstream_statement_is_quoted_as_upstream_s() {
    for text in both() {
        assert!(text.contains(&format!("\"{UPSTREAM_STATEMENT}\"")));
        assert!(text.contains("sandbox-windows-acl, 0.2.0-rc.1"));
    }
    assert!(UPSTREAM_STATEMENT.starts_with("Authenticated Users is absent from both lists"));
}

#[test]
fn the_reported_line_and_name_are_quoted() {
    let text = english();
    assert!(text.contains(
        "\nThe line that carries the code, as the command printed it:\n\
         > + FullyQualifiedErrorId : HRESULT 0x80041003,Microsoft.Management.Infrastructure.CimCmdlets.GetCimInstanceCommand\n"
    ));
    assert!(text.contains(
        "matched together with `HRESULT 0x80041003`, a name no display language translates"
    ));
}

#[test]
fn the_code_line_is_quoted_as_printed() {
    // Windows PowerShell 5.1's own layout: the detail lines are indented four
    // spaces and end in CRLF. The quote keeps the indentation, drops only the line end.
    let text = speak("pos-en-record-ps51-layout").text;
    let line = "+ FullyQualifiedErrorId : HRESULT 0x80041003,Microsoft.Management.Infrastructure.CimCmdlets.GetCimInstanceCommand";
    assert_eq!(quoted(&text), [format!(">     {line}")]);
    // Nothing else in the advisory depends on the record's layout.
    assert_eq!(
        text,
        english().replace(&format!("\n> {line}\n"), &format!("\n>     {line}\n"))
    );
}

/// The same record with an exit code the value does not report: the text is
/// the reported-exit text, word for word — no 0 and no number stands in for it.
fn assert_unreported_exit_reads_alike(fixture: &str) {
    let text = speak(fixture).text;
    assert_eq!(text, english(), "{fixture}");
}

#[test]
fn an_unreported_exit_code_changes_nothing_in_the_text() {
    assert_unreported_exit_reads_alike("pos-en-record-exit-null");
}

#[test]
fn every_unreported_exit_code_shape_reads_alike() {
    for fixture in [
        "pos-en-record-exit-absent",
        "pos-en-record-exit-string",
        "pos-en-record-exit-fraction",
    ] {
        assert_unreported_exit_reads_alike(fixture);
    }
}

#[test]
fn the_resolved_mode_is_named() {
    assert!(english().contains("under the workspace-write mode"));
    assert!(chinese().contains("under the read-only mode"));
}

#[test]
fn the_key_is_the_code_not_the_sentence() {
    for text in both() {
        assert!(text.contains("`拒绝访问`"));
        assert!(text.contains("FullyQualifiedErrorId in every display language"));
    }
}

#[test]
fn measured_substitutes_are_handed_over() {
    for text in both() {
        for needle in [
            "`netstat -ano`",
            "`Get-NetTCPConnection -State Listen`",
            "`[System.IO.DriveInfo]::new('C').AvailableFreeSpace`",
            r"`Get-Counter '\Memory\Available MBytes'`",
            r"`HKLM:\SOFTWARE\Microsoft\Windows NT\CurrentVersion`",
            "`Get-Process` and `Get-Service` keep working",
        ] {
            assert!(text.contains(needle), "missing {needle}");
        }
    }
}

#[test]
fn the_gap_is_named_and_ipconfig_is_only_a_candidate() {
    for text in both() {
        assert!(
            text.contains("No measured substitute exists for Get-NetIPAddress or Get-NetAdapter")
        );
        assert!(
            text.contains("`ipconfig /all` is a likely candidate, but it has never been measured")
        );
    }
}

#[test]
fn both_silent_shapes_are_stated() {
    for text in both() {
        assert!(text.contains("`-ErrorAction SilentlyContinue`"));
        assert!(text.contains(
            "`(Get-NetTCPConnection -State Listen -ErrorAction SilentlyContinue).Count` prints 0"
        ));
        assert!(text.contains("`Get-PSDrive -PSProvider FileSystem` reports Used and Free as 0"));
        assert!(text.contains("no classifier — this one included — can flag them"));
    }
}

#[test]
fn no_repair_is_offered() {
    for text in both() {
        for forbidden in [
            "icacls",
            "takeown",
            "Set-Acl",
            "/grant",
            "runas",
            "Start-Process -Verb",
            "sandbox_permissions",
        ] {
            assert!(
                !text.contains(forbidden),
                "the advisory must not carry {forbidden:?}"
            );
        }
        assert!(text.contains("No repair is offered"));
    }
}

#[test]
fn danger_full_access_confirms_and_is_not_a_fix() {
    for text in both() {
        assert!(text.contains(
            "succeeding under danger-full-access confirms this diagnosis. It is not a fix"
        ));
    }
}

#[test]
fn the_namespace_allowance_is_priced_and_unmeasured() {
    for text in both() {
        assert!(text.contains("read access to the root/cimv2 namespace"));
        assert!(text.contains("closing the C:\\-root tree-creation escape"));
        assert!(
            text.contains("Nobody has measured which of the token's checks refuses the namespace")
        );
    }
}

#[test]
fn the_stamp_is_explained_only_when_present() {
    assert!(english().contains("also marked as a sandbox file-access denial"));
    assert!(!chinese().contains("file-access denial"));
}

/// The quote block under the lead-in line.
fn quoted(text: &str) -> Vec<&str> {
    text.lines()
        .skip_while(|l| !l.starts_with("The line that carries the code"))
        .skip(1)
        .take_while(|l| l.starts_with('>'))
        .collect()
}

#[test]
fn the_quoted_line_loses_escapes_and_stays_bounded() {
    let text = speak("pos-en-record-ansi-crlf").text;
    assert!(!text.contains('\u{1b}'));
    assert!(!text.contains('\r'));
    let [line] = quoted(&text)[..] else {
        panic!("one quoted line expected:\n{text}");
    };
    assert!(line.starts_with("> \\u{1B}[31;1m+ FullyQualifiedErrorId : HRESULT 0x80041003,"));
    assert!(line.ends_with('…'));
    // The cap counts the stderr's characters; each ESC shows as one escape.
    let shown = line.replace("\\u{1B}", "e").chars().count();
    assert!(shown <= "> ".len() + advisor_core::quote::QUOTE_MAX_CHARS + "…".len());
}

/// Stderr written to be read as the advisor's own words, one fixture each;
/// each is asserted on the whole advisory (and snapshotted as a fixture).
const HOSTILE: [&str; 4] = [
    "pos-hostile-backtick-framing",
    "pos-hostile-newline-instructions",
    "pos-hostile-invisible-characters",
    "pos-hostile-ansi-escapes",
];

#[test]
fn hostile_stderr_is_quoted_never_spoken() {
    for fixture in HOSTILE {
        let advisory = speak(fixture);
        let text = &advisory.text;
        let quote = quoted(text);
        assert_eq!(quote.len(), 1, "{fixture}: one quoted line:\n{text}");
        assert!(quote[0].contains("HRESULT 0x80041003"), "{fixture}");
        assert!(
            !text
                .chars()
                .any(|c| c != '\n' && needs_escape(c) && c != '`'),
            "{fixture}: an invisible or control character reached the text"
        );
        assert!(
            !quote[0].contains('`'),
            "{fixture}: a backtick from the stderr reached the text"
        );
        for line in text.lines() {
            assert!(
                !line.starts_with("Note for the model") && !line.starts_with("Run `"),
                "{fixture}: the stderr started a line of its own: {line}"
            );
        }
    }
}

#[test]
fn a_localized_quoted_line_stays_readable() {
    let text = speak("pos-hostile-invisible-characters").text;
    let quote = quoted(&text).concat();
    assert!(quote.contains("GetCimInstanceCommand 拒绝访问\\u{202E}denied"));
    assert!(quote.contains("0x80041003\\u{200B},Micro\\u{AD}soft"));
    assert!(quote.contains("\\u{E0052}\\u{E0055}\\u{E004E}"));
}
