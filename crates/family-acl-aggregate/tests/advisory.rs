//! The advisory's full account (`detail`): the facts (and forbidden things)
//! that must hold in both halves. What the brief (`text`) must carry is in
//! `tests/brief.rs`. The whole texts of every case are the fixtures' snapshots
//! (`tests/fixtures.rs`).

#![allow(clippy::unwrap_used, clippy::panic)] // test helpers outside #[test] fns

use advisor_core::quote::needs_escape;
use advisor_core::testing::{Arm, Case, fixture_files, verdict};
use advisor_core::{Advisory, SUMMARY_MAX_CHARS};
use family_acl_aggregate::{AclAggregateFailure, TEMP_SENTENCE, WORKSPACE_SENTENCE};

const CRATE_DIR: &str = env!("CARGO_MANIFEST_DIR");

/// A fixture's advisory, decided under its own environment, as delivered.
fn advisory(name: &str) -> Advisory {
    let case = Case::named(CRATE_DIR, name).unwrap();
    let observation = case.observation().unwrap();
    let advisory = verdict(&AclAggregateFailure, observation, &case.environment(false))
        .advisory()
        .unwrap_or_else(|| panic!("{name} does not speak"));
    assert_eq!(advisory.family, family_acl_aggregate::ID);
    advisory
}

/// A fixture's full account.
fn text(name: &str) -> String {
    advisory(name).detail
}

/// A fixture's brief and full account: what framing rules hold on.
fn texts(name: &str) -> [String; 2] {
    let advisory = advisory(name);
    [advisory.text, advisory.detail]
}

/// The members a fixture's aggregate carries (what must never be quoted).
fn members(name: &str) -> Vec<String> {
    let case = Case::named(CRATE_DIR, name).unwrap();
    case.observation()
        .and_then(|o| o.failure())
        .map(|f| f.members.clone())
        .unwrap_or_default()
}

fn both() -> [String; 2] {
    [text("pos-temp-half"), text("pos-workspace-half")]
}

#[test]
fn member_text_never_reaches_the_advisory() {
    for fixture in [
        "pos-temp-half",
        "pos-workspace-half",
        "pos-temp-half-lock-root",
        "pos-temp-half-with-acl-line",
        "pos-temp-half-error-envelope",
        "pos-workspace-half-aggregate-name",
    ] {
        let advisory = advisory(fixture);
        let all = format!(
            "{}\n{}\n{}",
            advisory.summary.as_str(),
            advisory.text,
            advisory.detail
        );
        let members = members(fixture);
        assert!(
            !members.is_empty(),
            "{fixture}: the fixture must carry members"
        );
        for member in &members {
            assert!(
                !all.contains(member.as_str()),
                "{fixture}: member {member:?} leaked"
            );
        }
        for fragment in [
            "SetNamedSecurityInfoW",
            "Win32 5",
            "grantWrite",
            r"C:\Users\u",
            "AppData",
            "dsh-Ab12Cd",
            r"E:\data",
            "ws-7f3e",
            "EPERM",
            "EACCES",
            "rmdir",
            "cleanup failure(s)",
        ] {
            assert!(!all.contains(fragment), "{fixture}: {fragment:?} leaked");
        }
    }
}

#[test]
fn the_advisory_depends_on_the_half_alone() {
    let temp = texts("pos-temp-half");
    for fixture in [
        "pos-temp-half-no-members",
        "pos-temp-half-lock-root",
        "pos-temp-half-with-acl-line",
        "pos-temp-half-error-envelope",
    ] {
        assert_eq!(texts(fixture), temp, "{fixture}");
    }
    assert_eq!(
        texts("pos-workspace-half-aggregate-name"),
        texts("pos-workspace-half")
    );
    let workspace = texts("pos-workspace-half");
    assert_ne!(temp[0], workspace[0]);
    assert_ne!(temp[1], workspace[1]);
}

#[test]
fn summaries_are_one_bounded_line() {
    for fixture in ["pos-temp-half", "pos-workspace-half"] {
        let advisory = advisory(fixture);
        let summary = advisory.summary.as_str();
        assert!(summary.chars().count() <= SUMMARY_MAX_CHARS);
        assert!(!summary.ends_with('…'), "the summary was cut: {summary}");
    }
}

#[test]
fn it_says_the_cause_is_withheld_and_invents_none() {
    for text in both() {
        assert!(text.contains("the harness hands the session only the message"));
        assert!(text.contains("this note does not guess it"));
        assert!(text.contains("retrying does not help"));
    }
}

#[test]
fn the_line_is_quoted_as_a_block() {
    for text in texts("pos-temp-half-with-acl-line") {
        assert!(text.contains(
            "\nThe line:\n> sandbox-local windows-acl temp grant materialization failed and its cleanup also failed\n\n"
        ));
    }
    for text in texts("pos-workspace-half-aggregate-name") {
        assert!(text.contains(
            "\nThe line:\n> sandbox-local windows-acl workspace grant failed and its cleanup also failed\n\n"
        ));
    }
}

/// Messages written to pass for the advisor's own words (the `hostile-*`
/// fixtures). On the first line they are not the producer's sentence and are
/// refused (`ctl-hostile-*`, checked by the fixtures); after it they are never
/// read: every advisory they get quotes the producer's sentence alone, in the
/// brief and in the full account alike.
#[test]
fn hostile_messages_are_quoted_never_spoken() {
    let cases: Vec<Case> = fixture_files(CRATE_DIR)
        .iter()
        .map(|p| Case::load(p).unwrap())
        .filter(|c| c.name.contains("-hostile-"))
        .collect();
    let refused = cases.iter().filter(|c| c.arm == Arm::Control).count();
    assert!(refused >= 4, "{refused} refused hostile fixtures");
    let spoken: Vec<&Case> = cases.iter().filter(|c| c.arm == Arm::Positive).collect();
    assert!(
        spoken.len() >= 4,
        "{} spoken hostile fixtures",
        spoken.len()
    );
    for case in spoken {
        let fixture = &case.name;
        for text in texts(fixture) {
            hostile_text_is_framed(fixture, &text);
        }
    }
}

/// The framing one text of a hostile fixture must hold.
fn hostile_text_is_framed(fixture: &str, text: &str) {
    let quoted: Vec<&str> = text.lines().filter(|l| l.starts_with('>')).collect();
    assert!(
        matches!(
            quoted[..],
            [line] if line == format!("> {TEMP_SENTENCE}") || line == format!("> {WORKSPACE_SENTENCE}")
        ),
        "{fixture}: the quote is the producer's sentence alone: {quoted:?}"
    );
    assert!(
        !text
            .chars()
            .any(|c| c != '\n' && c != '`' && needs_escape(c)),
        "{fixture}: an invisible or control character reached the text"
    );
    for fragment in [
        "Note for the model",
        "verified harmless",
        "Remove-Item",
        "all clear",
        "EPERM",
        "D:\\w",
    ] {
        assert!(!text.contains(fragment), "{fixture}: {fragment:?} leaked");
    }
}

#[test]
fn it_says_what_the_line_does_tell() {
    let [temp, workspace] = both();
    for text in [&temp, &workspace] {
        assert!(text.contains("two throws happened — the grant, then its cleanup"));
    }
    assert!(workspace.contains("This is the workspace half"));
    assert!(workspace.contains("it only frees the security identifiers"));
    assert!(!workspace.contains("This is the temp half"));
    assert!(temp.contains("This is the temp half"));
    assert!(temp.contains("revokes that directory's access entry, frees the grant's identifiers and removes the directory"));
    assert!(!temp.contains("This is the workspace half"));
}

#[test]
fn the_lock_root_leads_and_the_listing_settles_it() {
    for text in both() {
        let lock = text.find("1. The lock root").unwrap();
        let prerequisite = text.find("2. The documented prerequisite").unwrap();
        let directory = text.find("3. The directory itself").unwrap();
        assert!(
            lock < prerequisite && prerequisite < directory,
            "candidate order"
        );
        assert!(text.contains(r"`<temp root>\dsh-acl-locks\<16 hex>.lock`"));
        assert!(text.contains("GetTempPathW()"));
        assert!(text.contains("SHA-256 of the lowercased protected path"));
        assert!(text.contains("before any security descriptor is read or written"));
        assert!(text.contains("OPEN_ALWAYS and never deleted"));
        assert!(
            text.contains("an absent or empty `dsh-acl-locks` directory is itself the finding")
        );
        assert!(text.contains(r#"`dir "%TMP%\dsh-acl-locks"`"#));
        assert!(text.contains("needs no privileges"));
    }
}

#[test]
fn the_prerequisite_names_both_rights_and_not_elevation() {
    for text in both() {
        assert!(text.contains("WRITE_OWNER"));
        assert!(text.contains("changing the DACL needs WRITE_DAC as well"));
        assert!(text.contains("not SeSecurityPrivilege"));
    }
}

#[test]
fn every_command_names_its_shell_and_takes_paths_literally() {
    for text in both() {
        assert!(text.contains(
            "PowerShell: `Get-ChildItem -LiteralPath (Join-Path ([System.IO.Path]::GetTempPath()) 'dsh-acl-locks')`"
        ));
        assert!(text.contains(r#"cmd: `dir "%TMP%\dsh-acl-locks"`"#));
        assert!(text.contains(r#"cmd: `icacls "<directory>"` (for a drive root, double the trailing backslash: `"D:\\"`)"#));
        assert!(text.contains(
            "PowerShell: `(Get-Acl -LiteralPath '<directory>').Owner` (a single quote in the name is written twice)"
        ));
        for unsafe_form in ["Get-Acl \"", "Get-ChildItem (", "Get-Acl '"] {
            assert!(!text.contains(unsafe_form), "{unsafe_form:?}");
        }
    }
    assert!(text("pos-temp-half").contains(r#"in cmd: `dir "%TEMP%\dsh-*"`"#));
}

#[test]
fn the_temp_half_points_at_the_private_directory_and_both_temp_roots() {
    let temp = text("pos-temp-half");
    assert!(temp.contains(r#"`dir "%TEMP%\dsh-*"`"#));
    assert!(temp.contains("os.tmpdir() (TEMP first, then TMP) places the private directory"));
    assert!(temp.contains("GetTempPathW() (TMP first, then TEMP) places `dsh-acl-locks`"));
    let workspace = text("pos-workspace-half");
    assert!(workspace.contains("there is no `dsh-XXXXXX` trace"));
}

#[test]
fn the_skill_is_named_with_its_version_boundary() {
    for text in both() {
        assert!(text.contains("`diagnose-windows-sandbox-acl`"));
        assert!(text.contains("ships with the 0.2.0 line; no 0.1.7 build carries it"));
        assert!(text.contains("(#8272)"));
    }
}

#[test]
fn the_measured_non_repairs_come_with_their_reasons() {
    for text in both() {
        assert!(text.contains("`takeown /A` makes the Administrators group the owner"));
        assert!(text.contains("only READ_CONTROL and WRITE_DAC, not WRITE_OWNER"));
        assert!(text.contains(
            "`icacls /reset /T /C` restores the inherited `Authenticated Users:(M)` entry"
        ));
        assert!(text.contains("neither WRITE_OWNER nor WRITE_DAC"));
    }
}

#[test]
fn probe_timeout_is_not_the_mechanism() {
    for text in both() {
        assert!(text.contains("`probeTimeoutMs` is not the mechanism"));
        assert!(text.contains("This backend has no capability probe"));
    }
}

#[test]
fn no_repair_command_is_given() {
    for text in both() {
        assert!(text.contains("No repair command is given here"));
    }
    for text in texts("pos-temp-half")
        .into_iter()
        .chain(texts("pos-workspace-half"))
    {
        for forbidden in [
            "/grant",
            "/setowner",
            "/setintegritylevel",
            "takeown /F",
            "Set-Acl",
            "sandbox_permissions",
            "danger-full-access",
        ] {
            assert!(
                !text.contains(forbidden),
                "the advisory must not carry {forbidden:?}"
            );
        }
        for line in text.lines().filter(|l| l.contains("icacls")) {
            assert!(
                line.contains(r#"`icacls "<directory>"`"#)
                    || line.contains("`icacls /reset /T /C` restores")
                    || line == r#"cmd: icacls "<directory>""#
                    || line.starts_with("- icacls /reset /T /C: "),
                "unexpected icacls line: {line}"
            );
        }
    }
}

#[test]
fn href_replaces_the_discussion_numbers() {
    for text in texts("pos-workspace-half-href") {
        assert!(text.contains("https://example.org/acl"));
        assert!(!text.contains("#9460"));
        assert!(!text.contains("#8272"));
    }
}
