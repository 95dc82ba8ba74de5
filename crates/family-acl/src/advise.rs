//! The advisory text, built from the finding's facts.
//!
//! Order (STYLE.md): what happened and whether retrying can help; the quoted
//! line and its carrier; why (a paragraph of its own per class); the read-only
//! checks; the remedy, forked on ownership; what will not fix it; the version
//! boundary; what the grant leaves behind; why a weaker grant is not a smaller
//! one; the boundary of what is known.
//!
//! Everything taken from the error is [`Untrusted`] and leaves only through a
//! rendering: the reported line as a `> ` quote block, the directory in prose
//! as an inline code span, and the directory on a command line through a
//! [`PathSlot`] (`'…'` for PowerShell, `"…"` for cmd, every line labelled with
//! its shell). A path the slot refuses becomes `<dir>`, the prose says why,
//! and the checks and the remedy are still given.

mod aftermath;
mod remedy;

use std::fmt::Write as _;

use advisor_core::quote::PathSlot;
use advisor_core::{Advisory, Environment, Untrusted};

use crate::ID;
use crate::recognize::{AclClass, AclFinding, Carrier, Label};

/// What the command lines show when the directory cannot be placed on them.
const PLACEHOLDER: &str = "<dir>";

/// Discussion numbers, or the configured `href` in their place.
fn cite(env: &Environment, discussions: &[&str]) -> String {
    env.cite(discussions)
}

/// Appends one paragraph (a blank line follows it).
pub(crate) fn para(out: &mut String, text: &str) {
    out.push_str(text);
    out.push_str("\n\n");
}

/// Builds the advisory for a recognized finding.
pub(crate) fn advise(finding: &AclFinding, env: &Environment) -> Advisory {
    let class = finding.class();
    let dir = PathSlot::new(finding.path(), PLACEHOLDER);
    let mut out = String::with_capacity(12 * 1024);

    para(&mut out, &headline(finding, class, env));
    let _ = writeln!(out, "What was reported:");
    let _ = writeln!(out, "{}", finding.line.quote_block());
    out.push('\n');
    para(&mut out, &carrier_note(finding));
    if let Some(Label::RevokeWrite) = finding.label {
        para(
            &mut out,
            "The failing step was revokeWrite (taking a grant back). It writes the same merged \
             security descriptor that granting writes, so the same rights decide it.",
        );
    }
    match class {
        AclClass::ApplyDenied => why_apply_denied(&mut out, env),
        AclClass::ApplyOther => why_apply_other(&mut out, finding.code),
        AclClass::ReadDenied => why_read_denied(&mut out, finding.code),
    }
    checks(&mut out, class, finding.code, finding.path(), &dir);
    remedy::remedy(&mut out, finding, &dir, env);
    remedy::non_fixes(&mut out, env);
    aftermath::versions(&mut out, env);
    aftermath::left_behind(&mut out, env);
    aftermath::weaker_grant(&mut out, env);
    para(
        &mut out,
        "Where this advisory stops: it read one error line, not the directory. The two checks \
         above are the evidence for this machine; the commands were verified by the reporters \
         cited, not by this advisor on a Windows host.",
    );
    let text = out.trim_end().to_owned();
    Advisory::new(ID, &summary(finding, class), text)
}

fn summary(finding: &AclFinding, class: AclClass) -> String {
    match class {
        AclClass::ApplyDenied => {
            "Windows sandbox ACL grant refused (SetNamedSecurityInfoW, Win32 5): no \
             sandboxed command runs here until it is fixed"
                .to_owned()
        }
        AclClass::ApplyOther => format!(
            "Windows sandbox ACL grant failed (SetNamedSecurityInfoW, Win32 {}): no sandboxed \
             command runs until resolved",
            finding.code
        ),
        AclClass::ReadDenied => format!(
            "Windows sandbox could not read the workspace ACL (GetNamedSecurityInfoW, Win32 {}); \
             retrying will not help",
            finding.code
        ),
    }
}

fn headline(finding: &AclFinding, class: AclClass, env: &Environment) -> String {
    let opening = match class {
        AclClass::ApplyDenied => "Sandbox provisioning failed: Windows refused the sandbox's \
             permission grant on this workspace directory, so no sandboxed command can start here."
            .to_owned(),
        AclClass::ApplyOther => format!(
            "Sandbox provisioning failed: writing the sandbox's permission grant on this workspace \
             directory ended with Win32 error {}, so no sandboxed command can start here.",
            finding.code
        ),
        AclClass::ReadDenied => format!(
            "Sandbox provisioning failed before anything was written: the sandbox could not read \
             this directory's current permissions (Win32 error {}), so no sandboxed command can \
             start here.",
            finding.code
        ),
    };
    let until = match class {
        AclClass::ApplyDenied => "until the directory's permissions change",
        AclClass::ApplyOther | AclClass::ReadDenied => "until what the code names is fixed",
    };
    format!(
        "{opening} Retrying cannot help, and neither can a different command: the grant is \
         applied before any command runs and nothing is remembered when it fails, so every \
         sandboxed call repeats this same error — even a read-only one such as Get-Date ({}) — \
         {until}; one report counted 850 such calls across 39 \
         sessions ({}). Stop retrying and show the user the check and the command below: they \
         run in an ordinary prompt on the machine, not through the sandboxed shell, which cannot \
         run anything here.",
        cite(env, &["#8232"]),
        cite(env, &["#7622"]),
    )
}

fn carrier_note(finding: &AclFinding) -> String {
    let path = finding.path().inline();
    match finding.carrier {
        Carrier::Session => format!(
            "It came from the Windows sandbox provider itself, while preparing this session's call \
             for the directory {path} (the workspace root, or the session's private temp directory)."
        ),
        Carrier::SandboxUnavailable => format!(
            "It arrived as the runner failure inside a \"no sandbox backend is usable\" error: the \
             call had no session, so the Windows runner applied the grant for itself, for the \
             directory {path}, and stopped at this line. The general sentence around it lists \
             other platforms' backends; it does not apply here. The Windows backend did start, \
             and the line after \"Runner failure:\" is the cause."
        ),
        Carrier::RunnerLine => format!(
            "It is the Windows runner's own failure line (windows-acl-run:), written when the \
             runner applies the grant for itself, here for the directory {path}."
        ),
    }
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

fn why_apply_other(out: &mut String, code: u32) {
    para(
        out,
        &format!(
            "What this code means here: Win32 {code} is not ERROR_ACCESS_DENIED (5). The reports \
             behind this advisory all carry code 5, and their explanation (the label half of the \
             write needing WRITE_OWNER) belongs to that code, so it is not assumed for this one. \
             `net helpmsg {code}` prints Windows' own description of the code and changes \
             nothing. If that description is about access or ownership, the checks and the grant \
             below are where to start. If it names something else, such as a path that does not \
             exist, the directory's permissions are not what needs changing, and the grant below \
             will not help until that is fixed."
        ),
    );
}

fn why_read_denied(out: &mut String, code: u32) {
    let meaning = if code == crate::recognize::ACCESS_DENIED {
        "Windows lets the owner, or an account granted READ_CONTROL, read those parts of a \
         descriptor. An access refusal on the read therefore means this account neither owns the \
         directory nor holds an entry that lets it read permissions, which places you in the \
         not-owner branch below: the unelevated grant will be refused as well. No report behind \
         this advisory shows this variant; the reasoning is Windows' documented rule for reading \
         a descriptor, not a measurement."
            .to_owned()
    } else {
        format!(
            "Win32 {code} is not an access refusal (that would be 5), and no report behind this \
             advisory shows it, so the WRITE_OWNER explanation reported for the apply step is not \
             borrowed here. `net helpmsg {code}` prints Windows' own description of the code and \
             changes nothing; if it names a missing path, the workspace root itself is the \
             problem, not its permissions."
        )
    };
    para(
        out,
        &format!(
            "What this means: before merging its entries the backend reads the directory's current \
             DACL (and, from 0.1.7-alpha.1, its label) with GetNamedSecurityInfoW, and that read \
             failed, so nothing was changed on disk. {meaning}"
        ),
    );
}

/// The read-only checks. When the slot refused the path, its reason comes
/// first and the commands carry the placeholder; when it normalized the path,
/// the form the commands use is named.
fn checks(out: &mut String, class: AclClass, code: u32, path: &Untrusted, dir: &PathSlot) {
    match (dir.note(), dir.path()) {
        (Some(note), _) => para(
            out,
            &format!(
                "{note} Each command line names its shell: on a PowerShell line put the \
                 directory between single quotes, on a cmd line between double quotes."
            ),
        ),
        (None, Some(normal)) if normal.as_str() != path.inspect() => para(
            out,
            &format!(
                "The commands below write that directory in its normalized form, `{}`, which \
                 Windows reads as the same directory.",
                normal.as_str()
            ),
        ),
        (None, _) => {}
    }
    let (ps, cmd) = (dir.powershell(), dir.cmd());
    let _ = writeln!(
        out,
        "Confirm it without changing anything, in PowerShell or in cmd (a normal, unelevated \
         prompt is enough):"
    );
    let _ = writeln!(out, "    PowerShell: icacls {ps}");
    let _ = writeln!(out, "    cmd:        icacls {cmd}");
    if class != AclClass::ApplyDenied {
        let _ = writeln!(out, "    PowerShell or cmd: net helpmsg {code}");
    }
    out.push('\n');
    let verdict = match class {
        AclClass::ApplyDenied => "the directory is in the state described above",
        AclClass::ApplyOther | AclClass::ReadDenied => {
            "the directory also lacks the WRITE_OWNER right the apply step needs, which the grant \
             below supplies"
        }
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
    let _ = writeln!(out, "    PowerShell: (Get-Acl -LiteralPath {ps}).Owner");
    out.push('\n');
}
