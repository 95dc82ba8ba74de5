//! A code other than `ERROR_ACCESS_DENIED` (5): its own paragraph, Windows'
//! description of the code and a look at the directory, and none of the
//! access-denied material. Every report behind this family carries code 5, and
//! the cause, the grant, the non-fixes, the version story and the weaker-grant
//! answer were all worked out for that code; lending them to another one would
//! name a cause nobody observed.

use std::fmt::Write as _;

use super::{Dir, commands, para};
use crate::finding::{AclClass, AclFinding};

/// The whole body after the quoted line, for the two non-5 classes.
pub(super) fn body(out: &mut String, finding: &AclFinding, class: AclClass, dir: &Dir) {
    let code = finding.code;
    let step = match class {
        AclClass::ReadOther => {
            "the read of the directory's current permissions that comes before any write \
             (GetNamedSecurityInfoW), so nothing was changed on disk"
        }
        _ => "the write of the sandbox's grant itself (SetNamedSecurityInfoW)",
    };
    para(
        out,
        &format!(
            "What this code means here: Win32 {code} is not ERROR_ACCESS_DENIED (5). Code 5 is \
             the case the backend's documented prerequisite explains, and the cause, the checks \
             and the repair known for it belong to that code; none of them is assumed for \
             {code}. The step that failed is {step}."
        ),
    );
    dir.explain(out, finding.path());
    let _ = writeln!(
        out,
        "Read what Windows says the code means, then look at the directory; neither changes \
         anything (a normal, unelevated prompt is enough):"
    );
    let _ = writeln!(out, "    {}", commands::helpmsg(code));
    commands::list(&dir.slot).write(out, "    ");
    out.push('\n');
    para(
        out,
        "If the description is about a path that cannot be found, the directory itself is what \
         is wrong (moved, renamed or never created), not its permissions, and icacls will say so \
         too. If it names anything else, show the user the quoted line together with that \
         description: this advisory names no command that changes anything for this code, \
         because none is known to fix it.",
    );
    para(
        out,
        &format!(
            "Where this advisory stops: it read one error line, not the directory, and no report \
             behind it carries Win32 {code}. The description Windows prints is the evidence for \
             this machine."
        ),
    );
}
