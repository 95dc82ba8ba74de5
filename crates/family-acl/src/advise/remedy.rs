//! The remedy, forked on ownership, and the two commands that look right and are not.

use std::fmt::Write as _;

use advisor_core::Environment;
use advisor_core::quote::PathSlot;

use super::{cite, commands, para};
use crate::facts::in_user_profile;
use crate::finding::{AclClass, AclFinding};

/// The ranked remedy. The failure text is identical whether or not the caller
/// owns the directory, so the advisory hands over the ownership check as the
/// selector instead of guessing a branch. Every command is given for
/// PowerShell and for cmd, each line labelled, the directory rendered by `dir`
/// for that shell. Only the code-5 classes get it.
pub(super) fn remedy(out: &mut String, finding: &AclFinding, dir: &PathSlot, env: &Environment) {
    let lead = if finding.class() == AclClass::ReadDenied {
        "Once the directory can be read, the apply that follows needs the same grant as the \
         reported access failures; it is a command the user runs once, outside the sandbox, and \
         it leaves the sandbox's confinement as it is."
    } else {
        "What fixes it is a command the user runs once, outside the sandbox; it changes this \
         directory's permissions and leaves the sandbox's confinement as it is."
    };
    para(out, lead);
    let _ = writeln!(
        out,
        "If you are the owner (the usual case for a workspace you created, on C: or on a data \
         volume alike): grant your account WRITE_OWNER on the directory, inherited by everything \
         below it, from a normal unelevated prompt, then run the failed command again."
    );
    commands::grant_write_owner(dir).write(out, "    ");
    out.push('\n');
    para(
        out,
        &format!(
            "WO is WRITE_OWNER, exactly the right the backend's prerequisite names, so the line \
             adds nothing the harness did not ask for; it was measured working ({}). Full control \
             works too, with F in place of (WO), and grants more than is needed; a reporter \
             verified F ({}).",
            cite(env, &["#7750"]),
            cite(env, &["#7804"]),
        ),
    );
    let _ = writeln!(
        out,
        "If someone else owns it (for example BUILTIN\\Administrators, reported in {}): the \
         lines above are themselves refused with \"Access is denied\". Changing a DACL takes WRITE_DAC, which \
         you then hold neither as owner nor through an entry, and (WO) alone would not be enough \
         even if it went through. Pick one:",
        cite(env, &["#7771"])
    );
    let _ = writeln!(
        out,
        "  1. From an elevated prompt, grant your own account Full control once (type your account \
         name yourself; in an elevated prompt %USERNAME% can be a different administrator):"
    );
    commands::grant_full(dir).write(out, "         ");
    let _ = writeln!(
        out,
        "  2. From an elevated prompt (this uses the take-ownership privilege), make yourself the \
         owner, then run the unelevated (WO) line above:"
    );
    commands::set_owner(dir).write(out, "         ");
    // Already in a user profile, the move would lead where it is.
    if !finding.path().is_some_and(in_user_profile) {
        let _ = writeln!(
            out,
            "  3. Or avoid the question: keep the workspace under %USERPROFILE%, away from the data \
             volume's inherited entries."
        );
    }
    out.push('\n');
    para(
        out,
        &format!(
            "The grant reaches this directory and what lies below it. A second workspace root on \
             the same volume is a sibling, not a child, and needs the same line run for it; a \
             reporter saw a second workspace fail on a machine whose first one was already \
             repaired ({}).",
            cite(env, &["#8232"])
        ),
    );
}

/// The two repairs reporters tried, each with the reason it fails. Written with
/// a placeholder on purpose: they are not commands to run. Only the code-5
/// classes get them.
pub(super) fn non_fixes(out: &mut String, class: AclClass, env: &Environment) {
    let missing = if class == AclClass::ReadDenied {
        "That lets the read through and supplies the DACL half of the write after it; \
         WRITE_OWNER, which that write needs, is still missing."
    } else {
        "That supplies the DACL half; WRITE_OWNER, the right this call lacks, is still missing."
    };
    let _ = writeln!(
        out,
        "What will not fix it on its own; both look like the right move and both were tried ({}):",
        cite(env, &["#7720"])
    );
    let _ = writeln!(
        out,
        "- takeown /F <dir> /R /D Y makes you the owner, and an owner's implicit rights are \
         READ_CONTROL and WRITE_DAC only. {missing}"
    );
    let _ = writeln!(
        out,
        "- icacls <dir> /reset /T /C turns inheritance back on, and inheritance is where the \
         Modify-only entry came from. Where it removes the last entry naming you, the directory is \
         left with only the inherited Authenticated Users:(M), which is exactly the failing state \
         (that follow-on failure was measured in {}). It also rebuilds only the DACL, so it never \
         touches the label.",
        cite(env, &["#8314"])
    );
    out.push('\n');
}
