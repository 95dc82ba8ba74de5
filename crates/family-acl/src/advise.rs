//! The advisory text, built from the finding's facts.
//!
//! Order (STYLE.md): what happened and whether retrying can help; the quoted
//! line and its carrier; then, for `ERROR_ACCESS_DENIED` (5) only, why (a
//! paragraph of its own per API), the read-only checks, the remedy forked on
//! ownership, what will not fix it, the version boundary, what the grant
//! leaves behind and why a weaker grant is not a smaller one; for any other
//! code, its own paragraph, Windows' description of the code and a look at
//! the directory, and none of the access-denied material ([`other`]). Each
//! ends with the boundary of what is known.
//!
//! Everything taken from the error is [`Untrusted`] and leaves only through a
//! rendering: the reported line as a `> ` quote block, the directory in prose
//! as an inline code span, and the directory on a command line through a
//! [`PathSlot`](advisor_core::quote::PathSlot) (`'…'` for PowerShell, `"…"`
//! for cmd, every line labelled with its shell). A path the slot refuses, or an error that names no directory,
//! becomes `<dir>`, the prose says why, and the commands are still given.

mod aftermath;
mod evidence;
mod other;
mod remedy;

use std::fmt::Write as _;

use advisor_core::{Advisory, Environment, Untrusted};

use crate::ID;
use crate::facts::{Dir, commands};
use crate::finding::{AclClass, AclFinding};

/// Discussion numbers, or the configured `href` in their place.
fn cite(env: &Environment, discussions: &[&str]) -> String {
    env.cite(discussions)
}

/// Appends one paragraph (a blank line follows it).
pub(crate) fn para(out: &mut String, text: &str) {
    out.push_str(text);
    out.push_str("\n\n");
}

// `Dir` is declared in `facts`, which the brief reads too; how the full
// account explains it is this module's own.
impl Dir {
    /// Writes why the placeholder stands in, or which normalized form of the
    /// directory the commands use; nothing when the path is placed as written.
    fn explain(&self, out: &mut String, path: Option<&Untrusted>) {
        match (&self.note, self.slot.path(), path) {
            (Some(note), _, _) => para(
                out,
                &format!(
                    "{note} Each command line names its shell: on a PowerShell line put the \
                     directory between single quotes, on a cmd line between double quotes."
                ),
            ),
            (None, Some(normal), Some(path)) if normal.as_str() != path.inspect() => para(
                out,
                &format!(
                    "The commands below write that directory in its normalized form, `{}`, which \
                     Windows reads as the same directory.",
                    normal.as_str()
                ),
            ),
            _ => {}
        }
    }
}

/// Builds the advisory for a recognized finding: the brief the model
/// receives ([`crate::brief`]) and this module's full account as `detail`.
pub(crate) fn advise(finding: &AclFinding, env: &Environment) -> Advisory {
    let class = finding.class();
    let dir = Dir::new(finding.path());
    let brief = crate::brief::brief(finding, &dir, env);
    let summary = crate::brief::summary(finding, env.locale);
    Advisory::new(ID, &summary, brief).with_detail(detail(finding, class, &dir, env))
}

/// The full account, in English: every fact this family knows about the finding.
fn detail(finding: &AclFinding, class: AclClass, dir: &Dir, env: &Environment) -> String {
    let mut out = String::with_capacity(12 * 1024);
    para(&mut out, &headline(finding, class, env));
    evidence::reported(&mut out, finding, class);
    if class.is_access_denied() {
        access_denied(&mut out, finding, class, dir, env);
    } else {
        other::body(&mut out, finding, class, dir);
    }
    out.trim_end().to_owned()
}

/// Everything that belongs to `ERROR_ACCESS_DENIED` (5).
fn access_denied(
    out: &mut String,
    finding: &AclFinding,
    class: AclClass,
    dir: &Dir,
    env: &Environment,
) {
    if class == AclClass::ReadDenied {
        why_read_denied(out);
    } else {
        why_apply_denied(out, env);
    }
    checks(out, class, finding, dir);
    remedy::remedy(out, finding, &dir.slot, env);
    remedy::non_fixes(out, class, env);
    aftermath::versions(out, env);
    aftermath::left_behind(out, env);
    aftermath::weaker_grant(out, env);
    para(
        out,
        "Where this advisory stops: it read one error line, not the directory. The two checks \
         above are the evidence for this machine; the commands were verified by the reporters \
         cited, not by this advisor on a Windows host.",
    );
}

fn headline(finding: &AclFinding, class: AclClass, env: &Environment) -> String {
    let code = finding.code;
    let opening = match class {
        AclClass::ApplyDenied => "Sandbox provisioning failed: Windows refused the sandbox's \
             permission grant on this workspace directory, so no sandboxed command can start here."
            .to_owned(),
        AclClass::ApplyOther => format!(
            "Sandbox provisioning failed: writing the sandbox's permission grant on this workspace \
             directory ended with Win32 error {code}, so no sandboxed command can start here."
        ),
        AclClass::ReadDenied | AclClass::ReadOther => format!(
            "Sandbox provisioning failed before anything was written: the sandbox could not read \
             this directory's current permissions (Win32 error {code}), so no sandboxed command \
             can start here."
        ),
    };
    if !class.is_access_denied() {
        return format!(
            "{opening} A different command cannot avoid it: the grant is applied before any \
             command runs and nothing is remembered when it fails, so every sandboxed call in \
             this workspace stops at the same step, and retrying helps only once whatever the \
             code names has changed. Stop retrying and show the user the quoted line and the \
             read-only commands below: they run in an ordinary prompt on the machine, not \
             through the sandboxed shell."
        );
    }
    // The counted reports are of the write; the read refused is reasoned, not reported.
    let repeats = if class == AclClass::ApplyDenied {
        format!(
            "repeats this same error — even a read-only one such as Get-Date ({}) — until the \
             directory's permissions change; one report counted 850 such calls across 39 \
             sessions ({})",
            cite(env, &["#8232"]),
            cite(env, &["#7622"]),
        )
    } else {
        "repeats this same error, whatever the command, until the directory's permissions change"
            .to_owned()
    };
    format!(
        "{opening} Retrying cannot help, and neither can a different command: the grant is \
         applied before any command runs and nothing is remembered when it fails, so every \
         sandboxed call {repeats}. Stop retrying and show the user the check and the command \
         below: they run in an ordinary prompt on the machine, not through the sandboxed shell, \
         which cannot run anything here."
    )
}

fn why_apply_denied(out: &mut String, env: &Environment) {
    para(
        out,
        &format!(
            "Why a directory you can write to still refuses this: from 0.1.7-alpha.1 the backend \
             writes the directory's access list (DACL) and its mandatory integrity label in one \
             SetNamedSecurityInfoW call. The label is stored in the SACL, and changing it takes \
             the WRITE_OWNER right on the directory. Owning a directory implicitly gives only \
             READ_CONTROL and WRITE_DAC, which cover the DACL half and not the label half. Full \
             control includes WRITE_OWNER; a directory made with mkdir that only inherits \
             \"Authenticated Users: Modify\" (0x1301bf) does not have it. That is the usual state \
             of a workspace on a data volume, where the inherited Modify entry is all the access \
             the account has ({}). The backend's own README states the prerequisite: a granted \
             directory must be owned by the caller and grant it WRITE_OWNER.",
            cite(env, &["#7750", "#7735", "#8232"])
        ),
    );
    para(
        out,
        &format!(
            "It is not SeSecurityPrivilege, and elevation is not what is missing. That privilege \
             is the token-wide cousin of the same idea; WRITE_OWNER is a right on this one \
             directory, so `whoami /priv`, which lists token privileges, can never show it. One \
             unprivileged account isolated the gate ({}): the label write succeeded with Full \
             control or with Take ownership alone, and failed with Change permissions, Read \
             permissions or Modify alone.",
            cite(env, &["#7735"])
        ),
    );
}

/// The read refused with code 5: the READ_CONTROL story.
fn why_read_denied(out: &mut String) {
    para(
        out,
        "What this means: before merging its entries the backend reads the directory's current \
         DACL (and, from 0.1.7-alpha.1, its label) with GetNamedSecurityInfoW, and that read \
         failed, so nothing was changed on disk. Windows lets the owner, or an account granted \
         READ_CONTROL, read those parts of a descriptor. An access refusal on the read therefore \
         means this account neither owns the directory nor holds an entry that lets it read \
         permissions, which places you in the not-owner branch below: the unelevated grant will \
         be refused as well. No report behind this advisory shows this variant; the reasoning is \
         Windows' documented rule for reading a descriptor, not a measurement.",
    );
}

/// The read-only checks for the code-5 classes. When the placeholder stands
/// in, its reason comes first; when the slot normalized the path, the form
/// the commands use is named.
fn checks(out: &mut String, class: AclClass, finding: &AclFinding, dir: &Dir) {
    dir.explain(out, finding.path());
    let _ = writeln!(
        out,
        "Confirm it without changing anything, in PowerShell or in cmd (a normal, unelevated \
         prompt is enough):"
    );
    commands::list(&dir.slot).write(out, "    ");
    if class == AclClass::ReadDenied {
        let _ = writeln!(out, "    {}", commands::helpmsg(finding.code));
    }
    out.push('\n');
    let verdict = match class {
        AclClass::ReadDenied => {
            "the directory also lacks the WRITE_OWNER right the apply step needs, which the grant \
             below supplies"
        }
        _ => "the directory is in the state described above",
    };
    para(
        out,
        &format!(
            "In the icacls listing, look for an entry naming your account with F or WO. If the \
             only entry that applies to you is an inherited Modify, such as \
             NT AUTHORITY\\Authenticated Users:(I)(M), {verdict}."
        ),
    );
    let _ = writeln!(
        out,
        "Then read who owns it, because ownership decides which remedy can run (PowerShell 5.1 or \
         later), and compare the result with the output of `whoami`:"
    );
    let _ = writeln!(out, "    PowerShell: {}", commands::owner(&dir.slot));
    out.push('\n');
}
