//! The record the advisory keyed on, quoted as the producer wrote it, and how
//! it reached the session.

use std::fmt::Write as _;

use super::para;
use crate::finding::{AclClass, AclFinding, Api, Carrier, Label};

/// "What was reported": the `Win32Error` line as a quote block, then the
/// carrier, the framing tag when there was one, and the backend step.
pub(super) fn reported(out: &mut String, finding: &AclFinding, class: AclClass) {
    let _ = writeln!(out, "What was reported:");
    let _ = writeln!(out, "{}", finding.line().quote_block());
    out.push('\n');
    para(out, &carrier_note(finding));
    if let Some(tag) = finding.tag() {
        para(
            out,
            &format!(
                "In the failure, the tag {} stood in front of that line. It is framing added on \
                 the way here, not part of the provider's message, so the quote above leaves it \
                 out.",
                tag.inline()
            ),
        );
    }
    if let Some(step) = step_note(finding, class) {
        para(out, step);
    }
}

/// Which directory the line names, as a phrase inside a sentence.
fn directory(finding: &AclFinding) -> String {
    match finding.path() {
        Some(path) => format!("for the directory {}", path.inline()),
        None => "for a directory the error does not name".to_owned(),
    }
}

fn carrier_note(finding: &AclFinding) -> String {
    let dir = directory(finding);
    match finding.carrier {
        Carrier::Session => format!(
            "It came from the Windows sandbox provider itself, while preparing this session's call \
             {dir} (the workspace root, or the session's private temp directory)."
        ),
        Carrier::SandboxUnavailable => format!(
            "It arrived as the runner failure inside a \"no sandbox backend is usable\" error: the \
             call had no session, so the Windows runner applied the grant for itself, {dir}, and \
             stopped at this line. The general sentence around it lists other platforms' \
             backends; it does not apply here. The Windows backend did start, and the line after \
             \"Runner failure:\" is the cause."
        ),
        Carrier::RunnerLine => format!(
            "It is the Windows runner's own failure line (windows-acl-run:), written when the \
             runner applies the grant for itself, here {dir}."
        ),
    }
}

/// The revoking step is named, because the reader would otherwise assume a grant.
fn step_note(finding: &AclFinding, class: AclClass) -> Option<&'static str> {
    if finding.label != Some(Label::RevokeWrite) {
        return None;
    }
    Some(match (finding.api, class.is_access_denied()) {
        (Api::GetNamedSecurityInfoW, _) => {
            "The read belonged to revokeWrite (taking a grant back), which reads the directory's \
             descriptor the same way before it writes."
        }
        (Api::SetNamedSecurityInfoW, true) => {
            "The failing step was revokeWrite (taking a grant back). It writes the same merged \
             security descriptor that granting writes, so the same rights decide it."
        }
        (Api::SetNamedSecurityInfoW, false) => {
            "The failing step was revokeWrite (taking a grant back), which writes the same merged \
             security descriptor that granting writes."
        }
    })
}
