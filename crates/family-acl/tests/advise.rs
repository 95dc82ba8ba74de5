//! The advisory's two texts: the facts each variant must (and must never)
//! state. The brief (`text`) carries what decides what to do, in six parts;
//! the full account (`detail`) carries every fact, background included. The
//! whole of both, per variant and locale, is the fixtures' snapshots
//! (`tests/fixtures.rs`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use advisor_core::Advisory;
use advisor_core::testing::{Arm, Case, fixture_files, verdict};
use family_acl::AclProvisioning;

const CRATE_DIR: &str = env!("CARGO_MANIFEST_DIR");

/// A fixture's advisory, decided under its own environment, as delivered.
fn advise(name: &str) -> Advisory {
    let case = Case::named(CRATE_DIR, name).unwrap();
    let observation = case.observation().unwrap();
    verdict(&AclProvisioning, observation, &case.environment(false))
        .advisory()
        .unwrap_or_else(|| panic!("{name} does not speak"))
}

/// A fixture's full account (`detail`), today's whole text.
fn detail(name: &str) -> String {
    advise(name).detail
}

/// Every `pos-` fixture's name.
fn positives() -> Vec<String> {
    fixture_files(CRATE_DIR)
        .iter()
        .map(|p| Case::load(p).unwrap())
        .filter(|c| c.arm == Arm::Positive)
        .map(|c| c.name)
        .collect()
}

const HREF: &str = "https://example.invalid/discussions/acl";

// ---- facts the full account (detail) states ---------------------------------------

fn assert_has(text: &str, needles: &[&str]) {
    for n in needles {
        assert!(text.contains(n), "missing {n:?}");
    }
}

#[test]
fn quotes_the_reported_line() {
    let t = detail("pos-agentless-apply-denied");
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
    assert!(detail("pos-session-apply-denied").contains("this session's call"));
}

#[test]
fn retrying_is_said_not_to_help() {
    assert_has(
        &detail("pos-session-apply-denied"),
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
        &detail("pos-session-apply-denied"),
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
    let t = detail("pos-session-apply-denied");
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
        &detail("pos-session-apply-denied"),
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
        &detail("pos-session-apply-denied"),
        &["second workspace root", "sibling, not a child"],
    );
}

#[test]
fn non_fixes_carry_their_reasons() {
    let t = detail("pos-session-apply-denied");
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
        &detail("pos-session-apply-denied"),
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
        &detail("pos-session-apply-denied"),
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
    let t = detail("pos-session-apply-denied");
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
        &detail("pos-session-apply-denied"),
        &[
            "not a smaller version of this one",
            "no DACL-only path to fall back to",
            "Low token",
            "#8275",
        ],
    );
}

// ---- forbidden things, in every variant -----------------------------------------------

#[test]
fn forbidden_things_are_absent() {
    for f in positives() {
        let a = advise(&f);
        for forbidden in [
            "danger-full-access", // never tell the model to relax the sandbox
            "unconfined",         // the SandboxUnavailableError sentence is not echoed
            "(WD,WO)",            // deliberately not shipped: unverified
            "setintegritylevel",  // a "diagnostic" that writes when it succeeds
            "$env:USERNAME:",     // PowerShell would read the colon as part of the variable
        ] {
            assert!(
                !a.text.contains(forbidden),
                "{f}: {forbidden:?} in the brief"
            );
            assert!(
                !a.detail.contains(forbidden),
                "{f}: {forbidden:?} in detail"
            );
        }
    }
}

#[test]
fn href_replaces_discussion_numbers() {
    for f in ["pos-session-apply-denied-href", "pos-href-zh-cn"] {
        let a = advise(f);
        for t in [&a.text, &a.detail] {
            assert!(t.contains(HREF), "{f}");
            let bytes = t.as_bytes();
            for (i, b) in bytes.iter().enumerate() {
                if *b == b'#' {
                    assert!(
                        !bytes.get(i + 1).is_some_and(u8::is_ascii_digit),
                        "{f}: a discussion number survived: {}",
                        &t[i..(i + 6).min(t.len())]
                    );
                }
            }
        }
    }
}

#[test]
fn summary_is_one_bounded_line() {
    for f in positives() {
        let a = advise(&f);
        let s = a.summary.as_str();
        assert!(s.chars().count() <= 120 && !s.ends_with('…'), "{f}: {s}");
        assert!(a.detail.starts_with("Sandbox provisioning failed"), "{f}");
        let opening = if f.ends_with("-zh-cn") {
            "沙箱初始化"
        } else {
            "Sandbox provisioning failed"
        };
        assert!(a.text.starts_with(opening), "{f}");
        assert_eq!(a.family, family_acl::ID);
    }
}
