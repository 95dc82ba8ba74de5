//! The advisory text: one snapshot per variant, and the facts (and forbidden
//! things) that must hold in every variant.

#![allow(clippy::unwrap_used, clippy::panic)] // test helpers outside #[test] fns

mod common;

use advisor_core::SUMMARY_MAX_CHARS;
use advisor_core::SandboxMode::{self, ReadOnly, WorkspaceWrite};
use advisor_core::quote::needs_escape;
use common::{Expect, check, render, windows};
use family_cim::UPSTREAM_STATEMENT;

fn english() -> String {
    check("en_record", windows(WorkspaceWrite), Expect::Speaks)
        .unwrap()
        .text
}

fn chinese() -> String {
    check("zh_record", windows(ReadOnly), Expect::Speaks)
        .unwrap()
        .text
}

fn both() -> [String; 2] {
    [english(), chinese()]
}

#[test]
fn snapshot_english_stamped_workspace_write() {
    let advisory = check("en_record", windows(WorkspaceWrite), Expect::Speaks).unwrap();
    insta::assert_snapshot!("english_stamped_workspace_write", render(&advisory));
}

#[test]
fn snapshot_chinese_unstamped_read_only() {
    let advisory = check("zh_record", windows(ReadOnly), Expect::Speaks).unwrap();
    insta::assert_snapshot!("chinese_unstamped_read_only", render(&advisory));
}

#[test]
fn href_replaces_the_discussion_number() {
    let env = windows(WorkspaceWrite).with_href("https://example.org/cim");
    let text = check("zh_record", env, Expect::Speaks).unwrap().text;
    assert!(text.contains("https://example.org/cim"));
    assert!(!text.contains("#9272"));
    assert!(english().contains("#9272"));
}

#[test]
fn summary_is_one_bounded_line() {
    let advisory = check("en_record", windows(WorkspaceWrite), Expect::Speaks).unwrap();
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
    let text = check(
        "en_record_ps51_layout",
        windows(WorkspaceWrite),
        Expect::Speaks,
    )
    .unwrap()
    .text;
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
    let text = check(fixture, windows(WorkspaceWrite), Expect::Speaks)
        .unwrap()
        .text;
    assert_eq!(text, english(), "{fixture}");
}

#[test]
fn an_unreported_exit_code_changes_nothing_in_the_text() {
    assert_unreported_exit_reads_alike("en_record_exit_null");
}

#[test]
fn every_unreported_exit_code_shape_reads_alike() {
    for fixture in [
        "en_record_exit_absent",
        "en_record_exit_string",
        "en_record_exit_fraction",
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
    let text = check(
        "en_record_ansi_crlf",
        windows(WorkspaceWrite),
        Expect::Speaks,
    )
    .unwrap()
    .text;
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

/// Stderr written to be read as the advisor's own words: each case goes
/// through `check` and is asserted on the whole advisory.
const HOSTILE: [(&str, SandboxMode); 4] = [
    ("hostile_backtick_framing", WorkspaceWrite),
    ("hostile_newline_instructions", WorkspaceWrite),
    ("hostile_invisible_characters", ReadOnly),
    ("hostile_ansi_escapes", WorkspaceWrite),
];

#[test]
fn hostile_stderr_is_quoted_never_spoken() {
    for (fixture, mode) in HOSTILE {
        let advisory = check(fixture, windows(mode), Expect::Speaks).unwrap();
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
        insta::assert_snapshot!(fixture, render(&advisory));
    }
}

#[test]
fn a_localized_quoted_line_stays_readable() {
    let text = check(
        "hostile_invisible_characters",
        windows(ReadOnly),
        Expect::Speaks,
    )
    .unwrap()
    .text;
    let quote = quoted(&text).concat();
    assert!(quote.contains("GetCimInstanceCommand 拒绝访问\\u{202E}denied"));
    assert!(quote.contains("0x80041003\\u{200B},Micro\\u{AD}soft"));
    assert!(quote.contains("\\u{E0052}\\u{E0055}\\u{E004E}"));
}
