//! Facts about the package's grant itself, stated for every class: the version
//! boundary, what the grant leaves behind once it applies, and why a weaker
//! grant is not a smaller version of the same one.

use std::fmt::Write as _;

use advisor_core::Environment;

use super::{cite, para};

/// The version boundary the error cannot carry.
pub(super) fn versions(out: &mut String, env: &Environment) {
    para(
        out,
        &format!(
            "Versions matter here, and the error does not say which one you run. Up to \
             0.1.6-alpha.x the backend wrote the DACL only (security-information flag 4), and a \
             Modify-only workspace provisioned without complaint; the label, and with it the \
             SACL (flag 20), arrives in 0.1.7-alpha.1. On an older build the same line has a \
             different cause. Going back to such a build is not a fix: the label is what keeps \
             the sandbox's deletes inside the workspace, and rolling back reopens the escape it \
             closed (the rollback was requested, and that trade described, in {}).",
            cite(env, &["#7750"])
        ),
    );
    para(
        out,
        &format!(
            "The backend's diagnose-windows-sandbox-acl skill has a boundary of its own: it is in \
             no 0.1.7 build (the published 0.1.7-rc.2 names it nowhere and ships no assets \
             directory) and arrives with 0.2.0, under assets/. On 0.1.7 the way to get it is the \
             upgrade, not a repair of the package ({}).",
            cite(env, &["#8272"])
        ),
    );
}

/// What the grant leaves on disk once it applies: worth knowing before the
/// reader runs the command that makes it apply.
pub(super) fn left_behind(out: &mut String, env: &Environment) {
    let _ = writeln!(
        out,
        "What the grant leaves behind once it applies (worth knowing before running the command \
         above, because the backend does not take it back):"
    );
    let _ = writeln!(
        out,
        "- Standing entries. For the workspace the backend writes a deny of FILE_DELETE_CHILD for \
         Everyone, an allow for the sandbox's capability SID and a Low mandatory label, and keeps \
         all three on purpose as a cache for later sessions. Nothing revokes them; they outlast \
         the session and the harness exiting (sandbox-windows-acl src/grant.ts and src/index.ts; \
         {}).",
        cite(env, &["#8312"])
    );
    let _ = writeln!(
        out,
        "- An inheritable Low label, (OI)(CI), kept in the SACL, which is also why icacls /reset \
         cannot remove it. Windows starts a process at the lower of the user's and the \
         executable's integrity level, so programs launched from inside that tree run at Low \
         integrity, with symptoms that never name the harness: an Electron or Chromium app \
         exiting with 0x80000003 and no output ({}); msbuild, dotnet or npm treating files as \
         downloaded from the Internet though no Zone.Identifier exists ({}); a double-clicked \
         .exe or .cmd warning that its publisher could not be verified ({}). The symptoms are \
         collected in {}.",
        cite(env, &["#7709"]),
        cite(env, &["#8175"]),
        cite(env, &["#7735"]),
        cite(env, &["#8312"])
    );
    let _ = writeln!(
        out,
        "- Reach beyond the workspace through hard links. An NTFS hard link is a second name for \
         the same file object, with one security descriptor between them, and a pnpm workspace's \
         node_modules is largely hard links into a content-addressed store on the same volume. \
         The inheritable label therefore lands on the store's files and stays there, and other \
         projects building from that store get Low-integrity executables and failures that blame \
         the build tool: vite build unable to delete its own temp file, pnpm install unable to \
         replace a hook (the whole chain was measured in {}). The backend's own test suite \
         records this reach as a known boundary (tests/runner.spec.ts).",
        cite(env, &["#8314"])
    );
    let _ = writeln!(
        out,
        "- Removing it. None of the commands in this advisory removes the label: that needs \
         WRITE_OWNER on every object, and the backend's diagnose skill reports a Low label \
         without removing it by design. One reporter ran a removal end to end on a real tree \
         ({}); it is the reporter's procedure, not one this advisor ships, and it has not been \
         verified on a Windows host here. As the reporter describes it: back up the ACLs first; \
         remove the Everyone deny; remove the capability SID's allow through PowerShell's \
         Get-Acl and Set-Acl, because icacls cannot name that SID at all and answers with error \
         1332; then relabel (85 613 objects, no failures). Its limits, also the reporter's: what \
         remains is an explicit label rather than no label, the relabel visits the whole tree, \
         and each object's label change needs WRITE_OWNER.",
        cite(env, &["#7846"])
    );
    out.push('\n');
    para(
        out,
        "None of this makes the grant the wrong move: without it, nothing sandboxed runs in this \
         workspace. It is what the harness does to any directory it is pointed at, and better \
         known now than found later as a broken build in another project.",
    );
}

/// Why dropping the label is not a narrower form of the same grant.
pub(super) fn weaker_grant(out: &mut String, env: &Environment) {
    para(
        out,
        &format!(
            "A weaker grant is not a smaller version of this one (the DACL-only idea was proposed \
             in {}). The label travels in the same SetNamedSecurityInfoW call as the DACL, so \
             there is no DACL-only path to fall back to; one would have to be built. And leaving \
             out only the label would not give a working workspace: the backend lowers the \
             sandboxed token to Low integrity before any child starts, and the directory's Low \
             label is what lets that Low process write there. Doing without the label means doing \
             without the Low token as well, which gives up half of the confinement rather than an \
             optional second layer.",
            cite(env, &["#8275"])
        ),
    );
}
