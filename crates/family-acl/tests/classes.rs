//! The classes keep their own text (issue 13): a code other than 5 carries
//! none of the access-denied material, the labelled read is the read class, a
//! line without a detail invents no directory, and the evidence is the
//! producer's line exactly as it was written.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use advisor_core::testing::{Case, verdict};
use family_acl::AclProvisioning;

/// A fixture's advisory, decided under its own environment, as delivered.
fn advise(name: &str) -> advisor_core::Advisory {
    let case = Case::named(env!("CARGO_MANIFEST_DIR"), name).unwrap();
    let observation = case.observation().unwrap();
    verdict(&AclProvisioning, observation, &case.environment(false))
        .advisory()
        .unwrap_or_else(|| panic!("{name} does not speak"))
}

/// A fixture's full account (`detail`): the class's whole text.
fn text(name: &str) -> String {
    advise(name).detail
}

/// A fixture's brief (`text`), what the model receives.
fn brief(name: &str) -> String {
    advise(name).text
}

fn assert_has(text: &str, needles: &[&str]) {
    for n in needles {
        assert!(text.contains(n), "missing {n:?}");
    }
}

// ---- a code other than 5 --------------------------------------------------------

/// Every recognized fixture whose code is not 5, both APIs, with and without a path.
const OTHER: [&str; 5] = [
    "pos-apply-other",
    "pos-apply-other-1332",
    "pos-read-other",
    "pos-read-other-1332",
    "pos-no-detail-other",
];

/// The code-5 fixtures: the control, which carries all of that material.
const DENIED: [&str; 4] = [
    "pos-session-apply-denied",
    "pos-read-denied",
    "pos-read-labelled",
    "pos-no-detail-apply",
];

/// What belongs to ERROR_ACCESS_DENIED: the cause, the grant and its fork, the
/// non-fixes, the version (DACL-only) story, what the grant leaves behind, the
/// weaker-grant answer and the reports behind them.
const ACCESS_DENIED_MATERIAL: [&str; 16] = [
    "takeown",
    "/reset",
    "DACL only",
    "DACL-only",
    "weaker grant",
    "WRITE_OWNER",
    "/grant",
    "/setowner",
    "Modify",
    "0x1301bf",
    "SeSecurityPrivilege",
    "READ_CONTROL",
    "0.1.7-alpha.1",
    "leaves behind",
    "850 such calls",
    "#7",
];

#[test]
fn other_codes_have_their_own_paragraph_and_nothing_of_code_5() {
    for f in OTHER {
        let t = text(f);
        let code = t
            .split("Win32 error ")
            .nth(1)
            .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
            .unwrap();
        assert_has(
            &t,
            &[
                &format!("Win32 {code} is not ERROR_ACCESS_DENIED (5)"),
                "Code 5 is the case the backend's documented prerequisite explains",
                &format!("    PowerShell or cmd: net helpmsg {code}\n"),
                &format!("no report behind it carries Win32 {code}"),
                "retrying helps only once whatever the code names has changed",
            ],
        );
        for claim in ["Retrying cannot help", "permissions change"] {
            assert!(!t.contains(claim), "{f}: the code-5 headline's {claim:?}");
        }
        let b = brief(f);
        for material in ACCESS_DENIED_MATERIAL {
            assert!(!t.contains(material), "{f}: {material:?} in the text");
            assert!(!b.contains(material), "{f}: {material:?} in the brief");
        }
        assert!(!t.contains("#8"), "{f}: a report cited");
        assert!(!b.contains("Retrying cannot help"), "{f}");
        assert!(
            b.contains(&format!("Win32 {code} is not ERROR_ACCESS_DENIED (5)")),
            "{f}"
        );
    }
    for f in DENIED {
        let t = text(f);
        for material in [
            "takeown",
            "/reset",
            "/grant",
            "WRITE_OWNER",
            "0.1.7-alpha.1",
        ] {
            assert!(
                brief(f).contains(material),
                "{f}: the brief lost {material:?}"
            );
        }
        for material in [
            "takeown",
            "/reset",
            "DACL only",
            "weaker grant",
            "/grant",
            "#8232",
        ] {
            assert!(t.contains(material), "{f}: control lost {material:?}");
        }
        assert!(!t.contains("is not ERROR_ACCESS_DENIED"), "{f}");
    }
    assert!(text("pos-read-other").contains("so nothing was changed on disk"));
    assert!(!text("pos-apply-other").contains("nothing was changed on disk"));
}

#[test]
fn each_code_5_class_keeps_its_own_why() {
    let apply = text("pos-session-apply-denied");
    assert_has(
        &apply,
        &[
            "0x1301bf",
            "`whoami /priv`",
            "Owning a directory implicitly",
        ],
    );
    assert!(!apply.contains("net helpmsg"));
    let read = text("pos-read-denied");
    assert_has(
        &read,
        &[
            "nothing was changed on disk",
            "READ_CONTROL",
            "not-owner branch",
            "    PowerShell or cmd: net helpmsg 5\n",
            "That lets the read through",
        ],
    );
    for borrowed in ["0x1301bf", "`whoami /priv`", "850 such calls"] {
        assert!(
            !read.contains(borrowed),
            "read-denied borrowed {borrowed:?}"
        );
    }
    assert!(apply.contains("WRITE_OWNER, the right this call lacks"));
}

// ---- the labelled read -----------------------------------------------------------

#[test]
fn labelled_read_carries_the_read_class_text() {
    let labelled = text("pos-read-labelled");
    assert_eq!(
        labelled.replace("grantWrite(D:\\ws)", "D:\\ws"),
        text("pos-read-denied"),
        "the labelled read differs from the bare-path read beyond its quoted line"
    );
    assert_has(
        &labelled,
        &[
            "\n> GetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\\ws)\n",
            "READ_CONTROL",
            "0.1.7-alpha.1",
            "    PowerShell: icacls 'D:\\ws'\n",
        ],
    );
    assert!(
        text("pos-read-labelled-revoke").contains("The read belonged to revokeWrite"),
        "the revoking read is not named"
    );
}

#[test]
fn revoke_write_is_named_for_its_step() {
    assert!(text("pos-revoke-write").contains("revokeWrite (taking a grant back). It writes"));
    assert!(!text("pos-session-apply-denied").contains("revokeWrite"));
    assert!(!text("pos-read-labelled").contains("revokeWrite"));
}

// ---- no detail -------------------------------------------------------------------

#[test]
fn a_line_without_a_detail_invents_no_directory() {
    for f in [
        "pos-no-detail-apply",
        "pos-no-detail-agentless",
        "pos-no-detail-read",
        "pos-no-detail-other",
    ] {
        let t = text(f);
        assert_has(
            &t,
            &[
                "The error names no directory",
                "for a directory the error does not name",
                "    PowerShell: icacls <dir>\n",
                "    cmd:        icacls <dir>\n",
            ],
        );
        assert!(!t.contains(":\\"), "{f}: a drive path in the text");
        assert!(
            !t.contains("The path from the error"),
            "{f}: the empty path's note"
        );
    }
    for f in ["pos-no-detail-apply", "pos-no-detail-other"] {
        let b = brief(f);
        assert_has(
            &b,
            &[
                "The error names no directory",
                "    PowerShell: icacls <dir>\n",
            ],
        );
        assert!(!b.contains(":\\"), "{f}: a drive path in the brief");
    }
    assert!(text("pos-no-detail-apply").contains("\n> SetNamedSecurityInfoW failed (Win32 5)\n"));
    let with_path = text("pos-session-apply-denied");
    assert!(!with_path.contains("The error names no directory"));
    assert!(with_path.contains("for the directory `D:\\ws`"));
}

// ---- the framing tag and the evidence ----------------------------------------------

#[test]
fn a_tagged_line_is_quoted_without_its_tag_and_the_tag_is_named() {
    let t = text("pos-tagged-line");
    assert_has(
        &t,
        &[
            "\n> SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\\ws)\n",
            "the tag `[provider]` stood in front of that line",
        ],
    );
    assert!(!t.contains("> [provider]"));
    assert!(!text("pos-session-apply-denied").contains("the tag"));
}

/// Each fixture and the exact line its quote block must carry: the producer's
/// `Win32Error` message, without what a carrier, a tag or an envelope added.
const EVIDENCE: [(&str, &str); 10] = [
    (
        "pos-session-apply-denied",
        r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)",
    ),
    (
        "pos-agentless-apply-denied",
        r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(C:\Users\dev\AppData\Local\Temp)",
    ),
    (
        "pos-runner-line",
        r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)",
    ),
    (
        "pos-content-only",
        r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)",
    ),
    (
        "pos-read-other-1332",
        r"GetNamedSecurityInfoW failed (Win32 1332): grantWrite(D:\ws)",
    ),
    (
        "pos-no-detail-agentless",
        "SetNamedSecurityInfoW failed (Win32 5)",
    ),
    (
        "pos-tagged-content-only",
        r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)",
    ),
    (
        "pos-parenthesized-path",
        r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\Program Files (x86)\ws)",
    ),
    (
        "pos-enveloped-crlf",
        r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)",
    ),
    (
        "pos-second-line-of-content",
        r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)",
    ),
];

#[test]
fn evidence_is_the_producer_line_verbatim() {
    for (f, line) in EVIDENCE {
        for t in [text(f), brief(f)] {
            let quoted: Vec<&str> = t.lines().filter(|l| l.starts_with('>')).collect();
            assert_eq!(quoted, [format!("> {line}")], "{f}");
        }
    }
    assert!(!text("pos-enveloped-crlf").contains('\r'));
}
