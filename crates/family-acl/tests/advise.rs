//! The advisory text: one snapshot per variant, and the facts each must (and
//! must never) state.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{advise, text};

const HREF: &str = "https://example.invalid/discussions/acl";

// ---- snapshots -----------------------------------------------------------------

#[test]
fn snapshot_apply_denied() {
    let a = advise("pos_session_apply_denied", None);
    insta::assert_snapshot!(
        "apply_denied",
        format!("{}\n---\n{}", a.summary.as_str(), a.text)
    );
}

#[test]
fn snapshot_apply_denied_agentless() {
    let a = advise("pos_agentless_apply_denied", None);
    insta::assert_snapshot!(
        "apply_denied_agentless",
        format!("{}\n---\n{}", a.summary.as_str(), a.text)
    );
}

#[test]
fn snapshot_apply_other() {
    let a = advise("pos_apply_other", None);
    insta::assert_snapshot!(
        "apply_other",
        format!("{}\n---\n{}", a.summary.as_str(), a.text)
    );
}

#[test]
fn snapshot_read_denied() {
    let a = advise("pos_read_denied", None);
    insta::assert_snapshot!(
        "read_denied",
        format!("{}\n---\n{}", a.summary.as_str(), a.text)
    );
}

#[test]
fn snapshot_read_other() {
    let a = advise("pos_read_other", None);
    insta::assert_snapshot!(
        "read_other",
        format!("{}\n---\n{}", a.summary.as_str(), a.text)
    );
}

#[test]
fn snapshot_unsafe_path() {
    let a = advise("pos_unsafe_quote_path", None);
    insta::assert_snapshot!(
        "unsafe_path",
        format!("{}\n---\n{}", a.summary.as_str(), a.text)
    );
}

#[test]
fn snapshot_no_detail() {
    let a = advise("pos_no_detail_apply", None);
    insta::assert_snapshot!(
        "no_detail",
        format!("{}\n---\n{}", a.summary.as_str(), a.text)
    );
}

#[test]
fn snapshot_no_detail_other() {
    let a = advise("pos_no_detail_other", None);
    insta::assert_snapshot!(
        "no_detail_other",
        format!("{}\n---\n{}", a.summary.as_str(), a.text)
    );
}

#[test]
fn snapshot_read_denied_labelled() {
    let a = advise("pos_read_labelled", None);
    insta::assert_snapshot!(
        "read_denied_labelled",
        format!("{}\n---\n{}", a.summary.as_str(), a.text)
    );
}

#[test]
fn snapshot_tagged() {
    let a = advise("pos_tagged_line", None);
    insta::assert_snapshot!("tagged", format!("{}\n---\n{}", a.summary.as_str(), a.text));
}

#[test]
fn snapshot_href_set() {
    let a = advise("pos_session_apply_denied", Some(HREF));
    insta::assert_snapshot!(
        "href_set",
        format!("{}\n---\n{}", a.summary.as_str(), a.text)
    );
}

// ---- facts every apply-denied advisory states ------------------------------------

fn assert_has(text: &str, needles: &[&str]) {
    for n in needles {
        assert!(text.contains(n), "missing {n:?}");
    }
}

#[test]
fn quotes_the_reported_line() {
    let t = text("pos_agentless_apply_denied");
    assert!(t.contains(
        "\n> SetNamedSecurityInfoW failed (Win32 5): grantWrite(C:\\Users\\dev\\AppData\\Local\\Temp)\n"
    ));
    assert_has(
        &t,
        &[
            "Runner failure:",
            "had no session",
            "for the directory `C:\\Users\\dev\\AppData\\Local\\Temp`,",
        ],
    );
    assert!(text("pos_session_apply_denied").contains("this session's call"));
}

#[test]
fn retrying_is_said_not_to_help() {
    assert_has(
        &text("pos_session_apply_denied"),
        &[
            "Retrying cannot help",
            "neither can a different command",
            "#8232",
            "850",
            "#7622",
        ],
    );
}

#[test]
fn why_names_write_owner_not_privilege() {
    assert_has(
        &text("pos_session_apply_denied"),
        &[
            "one SetNamedSecurityInfoW call",
            "SACL",
            "WRITE_OWNER",
            "READ_CONTROL and WRITE_DAC",
            "0x1301bf",
            "not SeSecurityPrivilege",
            "elevation is not what is missing",
            "`whoami /priv`",
            "#7735",
        ],
    );
}

#[test]
fn checks_are_read_only_and_quoted() {
    let t = text("pos_session_apply_denied");
    assert_has(
        &t,
        &[
            "    PowerShell: icacls 'D:\\ws'\n",
            "    cmd:        icacls \"D:\\ws\"\n",
            "    PowerShell: (Get-Acl -LiteralPath 'D:\\ws').Owner\n",
            "`whoami`",
            "unelevated",
        ],
    );
}

#[test]
fn remedy_forks_on_ownership() {
    assert_has(
        &text("pos_session_apply_denied"),
        &[
            "If you are the owner",
            "PowerShell: icacls 'D:\\ws' /grant \"${env:USERNAME}:(OI)(CI)(WO)\"",
            "cmd:        icacls \"D:\\ws\" /grant \"%USERNAME%:(OI)(CI)(WO)\"",
            "F in place of (WO)",
            "If someone else owns it",
            "BUILTIN\\Administrators",
            "#7771",
            "Access is denied",
            "PowerShell: icacls 'D:\\ws' /grant '<your account>:(OI)(CI)F'",
            "cmd:        icacls \"D:\\ws\" /grant \"<your account>:(OI)(CI)F\"",
            "PowerShell: icacls 'D:\\ws' /setowner '<your account>'",
            "cmd:        icacls \"D:\\ws\" /setowner \"<your account>\"",
            "%USERPROFILE%",
        ],
    );
}

#[test]
fn second_root_needs_its_own_line() {
    assert_has(
        &text("pos_session_apply_denied"),
        &["second workspace root", "sibling, not a child"],
    );
}

#[test]
fn non_fixes_carry_their_reasons() {
    let t = text("pos_session_apply_denied");
    assert_has(
        &t,
        &[
            "takeown /F <dir> /R /D Y makes you the owner",
            "WRITE_OWNER, the right this call lacks, is still missing",
            "icacls <dir> /reset /T /C turns inheritance back on",
            "exactly the failing state",
            "#8314",
            "#7720",
        ],
    );
}

#[test]
fn version_boundary_is_stated() {
    assert_has(
        &text("pos_session_apply_denied"),
        &[
            "0.1.6-alpha.x",
            "0.1.7-alpha.1",
            "flag 4",
            "flag 20",
            "reopens the escape",
            "diagnose-windows-sandbox-acl",
            "arrives with 0.2.0",
            "#8272",
        ],
    );
}

#[test]
fn grant_aftermath_is_stated() {
    assert_has(
        &text("pos_session_apply_denied"),
        &[
            "Nothing revokes them",
            "FILE_DELETE_CHILD",
            "(OI)(CI), kept in the SACL",
            "Low integrity",
            "hard link",
            "pnpm",
            "#8312",
            "#8314",
            "the grant the wrong move",
        ],
    );
}

#[test]
fn removal_procedure_is_attributed() {
    let t = text("pos_session_apply_denied");
    assert_has(
        &t,
        &[
            "One reporter ran a removal end to end on a real tree (#7846)",
            "it is the reporter's procedure, not one this advisor ships",
            "back up the ACLs first",
            "Get-Acl and Set-Acl",
            "1332",
            "85 613",
            "explicit label rather than no label",
            "visits the whole tree",
        ],
    );
}

#[test]
fn weaker_grant_is_explained() {
    assert_has(
        &text("pos_session_apply_denied"),
        &[
            "not a smaller version of this one",
            "no DACL-only path to fall back to",
            "Low token",
            "#8275",
        ],
    );
}

// ---- forbidden things, in every variant -----------------------------------------------

const ALL: &[&str] = &[
    "pos_session_apply_denied",
    "pos_agentless_apply_denied",
    "pos_content_only",
    "pos_runner_line",
    "pos_apply_other",
    "pos_apply_other_1332",
    "pos_read_denied",
    "pos_read_other",
    "pos_read_other_1332",
    "pos_read_labelled",
    "pos_read_labelled_revoke",
    "pos_no_detail_apply",
    "pos_no_detail_other",
    "pos_tagged_line",
    "pos_revoke_write",
    "pos_no_detail_agentless",
    "pos_no_detail_read",
    "pos_tagged_content_only",
    "pos_aggregate_envelope",
    "pos_unsafe_quote_path",
    "pos_unsafe_control_path",
    "pos_unsafe_long_path",
    "pos_unsafe_expansion_path",
];

#[test]
fn forbidden_things_are_absent() {
    for f in ALL {
        let t = text(f);
        for forbidden in [
            "danger-full-access", // never tell the model to relax the sandbox
            "unconfined",         // the SandboxUnavailableError sentence is not echoed
            "(WD,WO)",            // deliberately not shipped: unverified
            "setintegritylevel",  // a "diagnostic" that writes when it succeeds
            "$env:USERNAME:",     // PowerShell would read the colon as part of the variable
        ] {
            assert!(!t.contains(forbidden), "{f}: {forbidden:?} in text");
        }
    }
}

#[test]
fn href_replaces_discussion_numbers() {
    let a = advise("pos_session_apply_denied", Some(HREF));
    assert!(a.text.contains(HREF));
    let bytes = a.text.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        if *b == b'#' {
            assert!(
                !bytes.get(i + 1).is_some_and(u8::is_ascii_digit),
                "a discussion number survived: {}",
                &a.text[i..(i + 6).min(a.text.len())]
            );
        }
    }
}

#[test]
fn summary_is_one_bounded_line() {
    for f in ALL {
        let a = advise(f, None);
        let s = a.summary.as_str();
        assert!(s.chars().count() <= 120 && !s.ends_with('…'), "{f}: {s}");
        assert!(a.text.starts_with("Sandbox provisioning failed"), "{f}");
        assert_eq!(a.family, family_acl::ID);
    }
}
