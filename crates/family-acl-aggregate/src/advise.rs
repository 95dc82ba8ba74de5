//! The advisory: what the line is, what it does and does not say, and the
//! candidates in the order a reader can separate them. Built from the half
//! alone — never from the message's other lines or the aggregate's members.

use std::fmt::Write as _;

use advisor_core::{Advisory, Environment};

use crate::ID;
use crate::brief;
use crate::facts::commands::{DSH_TRACE, ICACLS_CHECK, LOCKS_CMD, LOCKS_PS, OWNER_PS};
use crate::facts::{REPORT, SKILL_REPORT};
use crate::recognize::{AggregateFailure, Half};

/// Builds the advisory for one recognized sentence: the brief as `text`, this
/// module's full account as `detail`.
pub fn advise(finding: &AggregateFailure, env: &Environment) -> Advisory {
    Advisory::new(
        ID,
        brief::summary(finding.half, env.locale),
        brief::brief(finding, env),
    )
    .with_detail(detail(finding, env))
}

/// The full account, in English.
fn detail(finding: &AggregateFailure, env: &Environment) -> String {
    let cite = env.cite(&[REPORT]);
    let (object, directory) = match finding.half {
        Half::Workspace => ("the workspace root", "the workspace root"),
        Half::Temp => (
            "its private temp directory",
            "the session's private `dsh-XXXXXX` directory",
        ),
    };
    let mut t = String::with_capacity(4096);

    // What happened, and whether retrying helps.
    let _ = writeln!(
        t,
        "The Windows ACL backend could not grant this session write access to {object}, and the cleanup it runs \
         after a failed grant failed as well. sandbox-local reports that pair as an AggregateError whose message is \
         this one sentence. The inner errors — the Win32 code, the API that refused, the directory — are members of \
         that error, and the harness hands the session only the message, so the cause is not visible from here and \
         this note does not guess it. The grant is made before the command starts and nothing is kept when it fails, \
         so every confined command meets it again: retrying does not help until the condition is found and cleared."
    );

    let _ = writeln!(t, "\nThe line:\n{}", finding.sentence.quote_block());

    // What the line does say.
    t.push_str("\nWhat the sentence does tell: two throws happened — the grant, then its cleanup — and which half failed. ");
    t.push_str(match finding.half {
        Half::Workspace => {
            "This is the workspace half: the standing access entry on the workspace root, which the backend keeps \
             on purpose and reuses across sessions. Its cleanup never takes that entry off; it only frees the \
             security identifiers the grant allocated, so the second failure was in that release.\n"
        }
        Half::Temp => {
            "This is the temp half: the per-session private capability on a `dsh-XXXXXX` directory that \
             sandbox-local creates under os.tmpdir() for this session. Its cleanup revokes that directory's access \
             entry, frees the grant's identifiers and removes the directory, so the second failure was one of \
             those steps.\n"
        }
    });

    // Candidate 1: the lock root.
    let _ = write!(
        t,
        "\nCandidates, in the order they can be told apart:\n\
         \n1. The lock root, which needs no ACL reading at all. Every grant and every revocation first takes a \
         per-path lock file, `<temp root>\\dsh-acl-locks\\<16 hex>.lock` — the temp root is GetTempPathW(), the 16 \
         hex characters begin the SHA-256 of the lowercased protected path — and it does so before any security \
         descriptor is read or written. If that directory cannot be created or the file cannot be opened, the grant \
         and its cleanup fail together without a single ACL operation, which produces exactly this sentence. Lock \
         files are opened with OPEN_ALWAYS and never deleted, so after a failure an absent or empty `dsh-acl-locks` \
         directory is itself the finding. Listing it needs no privileges; run it from an ordinary prompt outside \
         the sandbox, since a sandboxed command here may fail the same way before it starts:\n\
         \x20  PowerShell: `{LOCKS_PS}`\n\
         \x20  cmd: `{LOCKS_CMD}` (GetTempPathW reads TMP first, then TEMP)\n",
    );

    // Candidate 2: the documented prerequisite.
    let _ = writeln!(
        t,
        "\n2. The documented prerequisite. The backend requires a granted directory to be owned by the caller and \
         to grant it WRITE_OWNER; where the caller is not the owner, changing the DACL needs WRITE_DAC as well. \
         These are rights on the directory — not SeSecurityPrivilege, and elevating the session is not the lever. \
         Here the directory is {directory}. Read-only checks, with the directory filled in by hand once it is known:\n\
         \x20  cmd: `{ICACLS_CHECK}` (for a drive root, double the trailing backslash: `\"D:\\\\\"`)\n\
         \x20  PowerShell: `{OWNER_PS}` (a single quote in the name is written \
         twice), compared with `whoami`"
    );

    // Candidate 3: the directory itself.
    match finding.half {
        Half::Temp => {
            let _ = write!(
                t,
                "\n3. The directory itself. The private `dsh-XXXXXX` directory is created before the grant is tried, so \
             when removing it was among the failed cleanups it is still there — the trace to search for, in cmd: \
             `{DSH_TRACE}`. Two different temp roots are involved: os.tmpdir() (TEMP first, then TMP) \
             places the private directory, while GetTempPathW() (TMP first, then TEMP) places `dsh-acl-locks`. A \
             redirect that reached only one of TEMP and TMP moved only one of them, and can look as if it did \
             nothing.\n"
            );
        }
        Half::Workspace => t.push_str(
            "\n3. The directory itself. The workspace half creates no private directory, so there is no \
             `dsh-XXXXXX` trace to look for; the directory is the workspace root, and the checks under 2 read it. \
             The lock in 1 lives under GetTempPathW() (TMP first, then TEMP), not necessarily where os.tmpdir() \
             (TEMP first, then TMP) points, so a redirect that reached only one of the two variables can look as \
             if it did nothing.\n",
        ),
    }

    // The backend's own skill, with its version boundary.
    let skill_cite = env.cite(&[SKILL_REPORT]);
    let _ = writeln!(
        t,
        "\nOnce a directory is named, the backend's own `diagnose-windows-sandbox-acl` skill is the next tool to \
         reach for. The skill ships with the 0.2.0 line; no 0.1.7 build carries it, so on a 0.1.7 install there \
         is nothing to find and the way to it is the upgrade ({skill_cite})."
    );

    // What will not work, and why.
    let _ = writeln!(
        t,
        "\nWhat will not fix it:\n\
         - `takeown /A` makes the Administrators group the owner. Ownership implies only READ_CONTROL and \
         WRITE_DAC, not WRITE_OWNER, so the right the grant needs is still missing (measured in {cite}).\n\
         - `icacls /reset /T /C` restores the inherited `Authenticated Users:(M)` entry, which carries neither \
         WRITE_OWNER nor WRITE_DAC (measured in {cite}).\n\
         - No repair command is given here. The sentence names no directory, and a grant aimed at the wrong one is \
         worse than none; the listing above is how the directory gets named.\n\
         - `probeTimeoutMs` is not the mechanism. This backend has no capability probe: its Windows chain is the \
         single rung `windows-acl`, chosen without probing, and the grant path runs no probe, so no timeout can \
         produce this sentence."
    );

    // The boundary of what is known.
    let _ = write!(
        t,
        "\nWhat this rests on: the sentence, the half it names, and the backend code that can throw it. The inner \
         error is not known here; the candidates are ordered by how cheaply each can be ruled out, not by how \
         likely it is ({cite})."
    );

    t
}
