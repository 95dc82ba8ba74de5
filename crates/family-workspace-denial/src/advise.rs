//! The advisory: what was refused and why retrying cannot help, the check,
//! the three branches by breadth, what to do, why no repair command ships,
//! and where the diagnosis stops.

use advisor_core::{Advisory, Environment, HostPath, Untrusted};

use crate::ID;
use crate::brief;
use crate::facts::{LISTED, checks};
use crate::gate;
use crate::named::NamedPath;
use crate::recognize::Finding;

/// The one-line summary for the transcript row.
pub const SUMMARY: &str = "Denied inside the workspace: the sandbox grant never reached this object; retrying cannot fix it";

/// The summary in Simplified Chinese.
pub const SUMMARY_ZH_CN: &str = "工作区内写入被拒：沙箱授权没有传到该对象，重试无法解决";

/// One named path: its spelling, and the normalized reading when that differs.
fn describe(path: &NamedPath) -> String {
    if path.spelled_normalized() {
        path.raw.inline().to_string()
    } else {
        format!(
            "{} (read as {})",
            path.raw.inline(),
            path.normalized().inline()
        )
    }
}

fn reported(finding: &Finding, inside: &[&NamedPath], root: Option<&Untrusted>) -> String {
    let enforcement = finding
        .enforcement
        .as_ref()
        .map_or_else(|| "not stamped".to_owned(), |e| e.inline().to_string());
    let tool = finding.tool.inline();
    // An exit code the value does not report is said to be missing, never
    // written as 0 or as any other number.
    let exited = match finding.exit_code {
        Some(code) => format!("the {tool} command exited {code}"),
        None => format!("the {tool} command's value reports no exit code"),
    };
    // The mode is the advisor's own word: recognize() accepts only the
    // harness's vocabulary, so it is written as that, not quoted. The stamp
    // itself follows as evidence, as the value carried it.
    let mut out = format!(
        "What was reported: {exited}, and the sandbox executor stamped it denied under `{mode}` \
         (enforcement: {enforcement}) — the backend's own refusal wording was in its stderr. The \
         stamp, exactly as the tool's value carries it:\n{stamp}\n\n",
        mode = finding.mode,
        stamp = finding.stamp.quote_block(),
    );
    if let [path] = inside {
        out.push_str(&format!("- path the command names: {}\n", describe(path)));
    } else {
        out.push_str("- paths the command names:\n");
        for path in inside.iter().take(LISTED) {
            out.push_str(&format!("  - {}\n", describe(path)));
        }
        let rest = inside.len().saturating_sub(LISTED);
        if rest > 0 {
            out.push_str(&format!("  - and {rest} more inside the same root\n"));
        }
    }
    let root = root.map_or_else(|| "(not available)".to_owned(), |r| r.inline().to_string());
    out.push_str(&format!("- workspace root (policy): {root}\n\n"));
    out.push_str(
        "Every absolute path the command names lies strictly below that root — compared component by \
         component, without regard to case or separator, after `.` and `..` are resolved. So this is \
         not the sandbox keeping a write out of the workspace; it is a refusal inside the tree this \
         session was granted.\n\n",
    );
    out
}

fn why_and_which(env: &Environment) -> String {
    format!(
        "Retrying cannot help, and the reason is mechanical. The Windows backend writes its grant once, \
         on the workspace root, and leaves it to Windows inheritance to carry that grant into the tree. \
         Pushing an inheritable entry into a child that already exists takes WRITE_DAC on the child; \
         where the account lacked it, Windows skipped the child without an error, a return code or a \
         log line. From then on the backend looks only at the root, finds its grant there (true from \
         the first call on) and returns early, so a skipped child is never visited again — not later \
         in this session, not in any later one. The identical call will be refused identically.\n\n\
         Which objects are affected depends on who made them, not on where they sit. Whatever the \
         sandboxed commands create inherits the grant; objects that were already there — left by an \
         installer, an editor, a checkout, or a process under another account — may not carry it. One \
         measured tree had 170 of its 729 objects without the grant, files directly under the root \
         among them ({c423}), so moving the write up to the root is not a safe way around it.\n\n",
        c423 = env.cite(&["#423"]),
    )
}

fn check(env: &Environment, inside: &[&NamedPath], root: Option<&Untrusted>) -> String {
    let checks = checks(inside, root);
    let mut out = String::new();
    for refused in checks.iter().filter_map(|c| c.refused.as_ref()) {
        out.push_str(&refused.sentence);
    }
    out.push_str(
        "How to confirm it — outside this session, from an ordinary unelevated PowerShell prompt; these \
         only read:\n",
    );
    for check in &checks {
        out.push_str(&check.line);
    }
    out.push_str(&format!(
        "Read both sides of the access. The backend checks reads and listings against your normal \
         token and writes and deletes against its restricted Low-integrity token, and an object has to \
         pass both. An object whose entries name only Administrators, SYSTEM and the backend's \
         capability SID passes the write side and still refuses the read side, so a check that merely \
         looks for the capability SID calls it healthy ({c423} found exactly this on a `.cache` \
         directory).\n\n",
        c423 = env.cite(&["#423"]),
    ));
    out
}

fn branches(env: &Environment) -> String {
    format!(
        "Which of three situations this is follows from how much of the tree refuses writes — a fact \
         you can see and the session cannot:\n\
         1. A few stubborn objects while the rest of the tree writes normally: the DACL branch \
         described above — those objects never received the inherited entry.\n\
         2. Everything below the root refuses and only the root itself accepts writes: the label \
         branch ({c8383}). The grant and the Low mandatory label leave in one security-descriptor \
         write on the root, with no walk over the tree, so the label can miss the descendants while \
         the DACL half reaches every level; the root-only check then finds grant, deny entry and label \
         on the root and never tries again. Windows lets a Low-integrity process write into a directory \
         only when that directory is itself labelled Low (the no-write-up rule), and that test runs \
         before the DACL is consulted, so no DACL entry changes the outcome — an explicit entry for \
         the user on a subdirectory left the write refused ({c8383_only}). That report's control was a \
         directory created after the grant: it received the capability entry, inheritable to \
         subdirectories (`(CI)`), and no label at all. Its caution is worth keeping: an intermediate \
         directory without a label proves nothing, because inheritance runs from each parent; only a \
         direct child of the labelled root is evidence.\n   \
         The same breadth has a second shape ({c9559}): the child holds neither the capability entry \
         nor a label, so the whole security-descriptor write missed it, not one half of it. Whenever \
         the root still accepts writes, read a direct child's ACL rather than judging from breadth \
         alone.\n\
         3. Nothing accepts writes, not even the root: a separate cause with its own remedy — the \
         harness's standing grant is gone from the root's own DACL ({c8409}). The account above does \
         not apply to it.\n\n\
         Outside the session, the backend's own `diagnose-windows-sandbox-acl` skill separates the \
         DACL half from the label half: it reports the owner and the caller's rights for the first \
         and a `LOW_LABEL` finding for the second. It ships with 0.2.0 and later — a 0.1.7 install \
         does not have it — and it reports without repairing.\n\n",
        c8383 = env.cite(&["#8383", "#8421"]),
        c8383_only = env.cite(&["#8383"]),
        c9559 = env.cite(&["#9559"]),
        c8409 = env.cite(&["#8409"]),
    )
}

fn remedy(env: &Environment) -> String {
    format!(
        "What to do, in order:\n\
         1. Stop. Do not retry this write, and do not go looking for another existing file or directory \
         that happens to accept it: which objects carry the grant cannot be told from where they sit, \
         files at the root included.\n\
         2. Tell the user what was refused, with the path and root above and the breadth question, \
         and hand over the check.\n\
         3. If the work can go into objects this session creates itself, that works in the DACL \
         branch: a new file or directory inherits the grant, and the report's own control was exactly \
         that — the command refused on a pre-existing directory succeeded on one the harness had \
         created ({c423}). It does not work in the label branch, where a new subdirectory receives \
         the entry but not the label ({c8383}); a refusal there rules the DACL branch out.\n\
         4. The repair is a change to the affected objects' security descriptors, made by the user \
         outside the session once the check shows which half is missing.\n\n\
         Why no repair command is given: the right edit depends on the branch, and from inside the \
         session the branches look identical, and an edit to the wrong half does nothing — a widened \
         DACL did not clear a missing label ({c8383}). The objects that missed the grant are scattered through whatever \
         predated the session, so a command built around the one path above would fix one object out \
         of possibly hundreds. And this project has not run an inheritance repair end to end on a \
         Windows host; an unverified ACL edit handed over as the fix would be the kind of wrong answer \
         this note exists to prevent. The defect sits in the backend — one write on the root, and an \
         idempotency check that never looks below it — and nothing reachable from a session corrects \
         that.\n\n",
        c423 = env.cite(&["#423"]),
        c8383 = env.cite(&["#8383"]),
    )
}

const BOUNDARY: &str = "Where this diagnosis stops: the stamp says the backend's refusal wording appeared on \
     stderr, not which object was refused. The path above is the one the command named, placed \
     lexically against the root the policy resolver reports; a junction or symbolic link inside the \
     tree that leads elsewhere is not followed, and an object reached through a script or a relative \
     path is not seen. The inheritance mechanism is taken from the backend's source and the reports \
     cited; it has not been reproduced here.";

/// Builds the advisory from the finding and the resolved root: the brief as
/// its text, the full account as its detail.
pub fn advise(finding: &Finding, env: &Environment) -> Advisory {
    let root: Option<HostPath> = gate::root(env).ok();
    let inside = root
        .as_ref()
        .and_then(|r| gate::place(&finding.named, r).ok())
        .unwrap_or_default();
    // The resolver's root is text the advisor did not write either.
    let root = root.as_ref().map(|r| Untrusted::new(r.as_str()));
    let brief = brief::brief(finding, env, &inside, root.as_ref());
    let summary = env.locale.pick(SUMMARY, SUMMARY_ZH_CN);
    Advisory::new(ID, summary, brief).with_detail(detail(finding, env, &inside, root.as_ref()))
}

/// The full account: what was reported, the mechanism, the check, the three
/// branches, what to do and why no repair command ships, where it stops.
fn detail(
    finding: &Finding,
    env: &Environment,
    inside: &[&NamedPath],
    root: Option<&Untrusted>,
) -> String {
    let mut text = String::from(
        "Write refused inside the workspace — the sandbox's grant never reached this object, and \
         retrying cannot change that.\n\n",
    );
    text.push_str(&reported(finding, inside, root));
    text.push_str(&why_and_which(env));
    text.push_str(&check(env, inside, root));
    text.push_str(&branches(env));
    text.push_str(&remedy(env));
    text.push_str(BOUNDARY);
    text
}
