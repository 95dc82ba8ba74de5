//! The facts (and forbidden things) the advisory must hold, each on its layer:
//! what the model must act on in the brief (`text`), the background in
//! `detail`. Each variant is a fixture and its snapshot (`tests/fixtures.rs`);
//! these tests pin what a reviewed snapshot change must still keep.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use advisor_core::SUMMARY_MAX_CHARS;
use advisor_core::quote::needs_escape;
use advisor_core::testing::{Case, assert_in_order, verdict};
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

/// The full account of the English (stamped) record.
fn english() -> String {
    speak("pos-en-record").detail
}

/// The full account of the Chinese (unstamped) record.
fn chinese() -> String {
    speak("pos-zh-record-read-only").detail
}

/// Both texts of one fixture: the brief, then the detail.
fn texts(name: &str) -> [String; 2] {
    let advisory = speak(name);
    [advisory.text, advisory.detail]
}

/// The briefs: English and zh-CN, stamped and not.
const BRIEFS: [&str; 4] = [
    "pos-en-record",
    "pos-zh-record-read-only",
    "pos-en-record-zh-cn",
    "pos-zh-record-zh-cn",
];

#[test]
fn the_brief_has_its_six_parts_in_order() {
    for name in BRIEFS {
        let advisory = speak(name);
        let text = &advisory.text;
        let zh = name.ends_with("zh-cn");
        let parts = [
            if zh {
                "重试无济于事"
            } else {
                "Retrying cannot help"
            },
            "\n> + FullyQualifiedErrorId : HRESULT 0x80041003,",
            "\nPowerShell: Get-Process\nPowerShell: Get-Service\n",
            "\nPowerShell: netstat -ano  # ",
            if zh {
                "\n- 绝不放宽沙箱模式"
            } else {
                "\n- never relax the sandbox mode"
            },
            "\n    '{\"kind\":\"foreground\",",
            "' | sandbox-advisor explain --detail --platform win32 --mode ",
        ];
        assert_in_order(name, text, &parts);
        assert!(
            advisor_core::brief::BriefSize::of(text).fits(),
            "{name} over budget"
        );
    }
}

#[test]
fn the_brief_hands_over_the_substitutes_the_gap_and_the_non_fixes() {
    for name in BRIEFS {
        let text = speak(name).text;
        for needle in [
            "PowerShell: netstat -ano",
            "PowerShell: [System.IO.DriveInfo]::new('C').AvailableFreeSpace",
            r"PowerShell: Get-Counter '\Memory\Available MBytes'",
            r"'HKLM:\SOFTWARE\Microsoft\Windows NT\CurrentVersion'",
            "`ipconfig /all`",
            "-ErrorAction SilentlyContinue",
            "Get-PSDrive",
            "root/cimv2",
            "danger-full-access",
            "`拒绝访问`",
        ] {
            assert!(text.contains(needle), "{name}: missing {needle}");
        }
    }
}

#[test]
fn the_zh_cn_brief_is_chinese_and_the_detail_stays_english() {
    for name in ["pos-en-record-zh-cn", "pos-zh-record-zh-cn"] {
        let advisory = speak(name);
        assert!(advisory.summary.as_str().contains("受限令牌"), "{name}");
        assert!(advisory.summary.as_str().contains("0x80041003"), "{name}");
        assert!(advisory.summary.as_str().chars().count() <= SUMMARY_MAX_CHARS);
        for english in [
            "Retrying cannot help",
            "Do not:",
            "never relax",
            "Use instead",
        ] {
            assert!(
                !advisory.text.contains(english),
                "{name}: English {english:?} in the brief"
            );
        }
        assert!(advisory.text.contains("不要："), "{name}");
        assert!(advisory.detail.contains("What will not help:"), "{name}");
    }
    // The same detail, whatever the locale.
    assert_eq!(speak("pos-en-record-zh-cn").detail, english());
}

#[test]
fn the_stamp_line_in_the_brief_follows_the_stamp() {
    assert!(
        speak("pos-en-record")
            .text
            .contains("The file-denial marker matched only the English wording")
    );
    assert!(
        speak("pos-en-record-zh-cn")
            .text
            .contains("标记只是匹配了英文措辞")
    );
    assert!(
        !speak("pos-zh-record-read-only")
            .text
            .contains("file-denial marker")
    );
    assert!(!speak("pos-zh-record-zh-cn").text.contains("标记"));
}

fn both() -> [String; 2] {
    [english(), chinese()]
}

#[test]
fn href_replaces_the_discussion_number() {
    for text in texts("pos-zh-record-href") {
        assert!(text.contains("https://example.org/cim"));
        assert!(!text.contains("#9272"));
    }
    for text in texts("pos-en-record") {
        assert!(text.contains("#9272"));
    }
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
    let line = "+ FullyQualifiedErrorId : HRESULT 0x80041003,Microsoft.Management.Infrastructure.CimCmdlets.GetCimInstanceCommand";
    for (text, plain) in texts("pos-en-record-ps51-layout")
        .into_iter()
        .zip(texts("pos-en-record"))
    {
        assert_eq!(quoted(&text), [format!(">     {line}")]);
        // Nothing else in the advisory depends on the record's layout.
        assert_eq!(
            text,
            plain.replace(&format!("\n> {line}\n"), &format!("\n>     {line}\n"))
        );
    }
}

/// The same record with an exit code the value does not report: the text is
/// the reported-exit text, word for word — no 0 and no number stands in for it.
fn assert_unreported_exit_reads_alike(fixture: &str) {
    assert_eq!(texts(fixture), texts("pos-en-record"), "{fixture}");
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
    for text in BRIEFS.iter().map(|name| speak(name).text).chain(both()) {
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
    }
    for text in both() {
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

/// The quote block: the only lines that start with `>`.
fn quoted(text: &str) -> Vec<&str> {
    text.lines().filter(|l| l.starts_with('>')).collect()
}

#[test]
fn the_quoted_line_loses_escapes_and_stays_bounded() {
    for text in texts("pos-en-record-ansi-crlf") {
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
    for (fixture, text) in HOSTILE
        .iter()
        .flat_map(|fixture| texts(fixture).map(|text| (fixture, text)))
    {
        let text = &text;
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
    for text in texts("pos-hostile-invisible-characters") {
        let quote = quoted(&text).concat();
        assert!(quote.contains("GetCimInstanceCommand 拒绝访问\\u{202E}denied"));
        assert!(quote.contains("0x80041003\\u{200B},Micro\\u{AD}soft"));
        assert!(quote.contains("\\u{E0052}\\u{E0055}\\u{E004E}"));
    }
}
