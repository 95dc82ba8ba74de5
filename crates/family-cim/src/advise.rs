//! The advisory's full account (`detail`): the documented boundary quoted as
//! upstream's, and what this note adds to it — measured substitutes, the gap,
//! and the two silent shapes. The brief the model receives is `brief.rs`.

use std::fmt::Write as _;

use advisor_core::{Advisory, Environment};

use crate::ID;
use crate::brief;
use crate::facts::REPORT;
use crate::facts::commands::{
    CONTROLS, COUNTER, DRIVE_INFO, IPCONFIG, NET_TCP_LISTEN, NETSTAT, OS_VERSION_KEY,
};
use crate::recognize::CimRefusal;

/// The one quotation this advisory carries: the Windows ACL backend's own
/// statement of the boundary (packages/sandbox/sandbox-windows-acl/README.md, 0.2.0-rc.1).
pub const UPSTREAM_STATEMENT: &str = "Authenticated Users is absent from both lists — the WMI namespace security check fails (`0x80041003`), so CIM cmdlets and `Get-ComputerInfo` are unavailable in every confined mode, and the C:\\-root tree-creation escape is closed.";

/// Builds the advisory for one recognized refusal: the brief as `text`, this
/// module's full account as `detail`.
pub fn advise(finding: &CimRefusal, env: &Environment) -> Advisory {
    Advisory::new(ID, brief::summary(env.locale), brief::brief(finding, env))
        .with_detail(detail(finding, env))
}

/// The full account, in English.
fn detail(finding: &CimRefusal, env: &Environment) -> String {
    let cite = env.cite(&[REPORT]);
    let mode = env.mode().map_or_else(
        |_| "a confining mode".to_owned(),
        |m| format!("the {m} mode"),
    );
    let mut t = String::with_capacity(4096);

    // What happened, and whether retrying helps.
    let _ = writeln!(
        t,
        "WMI refused this command's query: its stderr carries 0x80041003 (WBEM_E_ACCESS_DENIED) in a CIM error \
         record, matched together with `{}`, a name no display language translates. \
         On Windows under {mode}, commands run with the sandbox's restricted token, and that token fails the WMI \
         namespace security check — so every CIM query is refused: Get-CimInstance for any class, and with it \
         Get-NetTCPConnection, Get-NetIPAddress, Get-NetAdapter, Get-Volume and Get-ComputerInfo. Retrying, or \
         reaching for another CIM-based cmdlet, meets the same refusal for as long as the session is confined.",
        finding.product_name
    );
    let _ = writeln!(
        t,
        "\nThe line that carries the code, as the command printed it:\n{}",
        finding.code_line.quote_block()
    );
    if finding.stamped_denied {
        t.push_str(
            "\nThe result is also marked as a sandbox file-access denial. That marker matched the English wording \
             of the refusal, which is in the backend's file-denial vocabulary; no file was refused. Another \
             confined mode would change nothing, because CIM is unavailable in every confined mode, and the only \
             mode where it answers is the one without a sandbox — so the escalation hint on this result is not the \
             way forward here; the substitutes below are.\n",
        );
    }

    // The authority, and what this note adds.
    let _ = writeln!(
        t,
        "\nThis boundary is documented by the harness, not discovered here. The Windows ACL backend's README \
         (sandbox-windows-acl, 0.2.0-rc.1) states it as follows: \"{UPSTREAM_STATEMENT}\" What this note adds is \
         what that statement leaves out: which commands replace the refused ones, where no replacement is known, \
         and the two ways this refusal turns into a wrong answer with no error ({cite})."
    );

    // The check that confirms it.
    t.push_str(
        "\nHow to confirm it: key on the code, not the sentence. The sentence is translated (`拒绝访问` on a \
         Chinese install, \"Access is denied\" on an English one); 0x80041003 appears unchanged in the record's \
         FullyQualifiedErrorId in every display language. Get-Process and Get-Service do not use CIM — when they \
         answer in this session while CIM cmdlets are refused, this boundary is the explanation.\n",
    );

    // The remedy: measured substitutes, then the gap.
    let _ = writeln!(
        t,
        "\nWhat to run instead — each measured in the same session as the refusal it replaces ({cite}):\n\
         - listening ports: `{NETSTAT}`, reading the LISTENING rows, in place of `{NET_TCP_LISTEN}`\n\
         - free disk space: `{DRIVE_INFO}`, in place of `Get-CimInstance Win32_LogicalDisk`\n\
         - available memory: `{COUNTER}`\n\
         - OS version: the registry key `{OS_VERSION_KEY}`, in place of `Get-CimInstance Win32_OperatingSystem`\n\
         - `{}` and `{}` keep working; neither goes through CIM, and they were the controls of that measurement.",
        CONTROLS[0], CONTROLS[1]
    );
    let _ = writeln!(
        t,
        "\nNo measured substitute exists for Get-NetIPAddress or Get-NetAdapter. `{IPCONFIG}` is a likely \
         candidate, but it has never been measured under a confining mode: treat it as a candidate and check its \
         output rather than relying on it."
    );

    // The silent shapes nobody can key on.
    t.push_str(
        "\nTwo shapes of the same refusal raise no error at all. Nothing in their output marks them, so no \
         classifier — this one included — can flag them when they happen; that is why they are stated here:\n\
         - `-ErrorAction SilentlyContinue` (or `$ErrorActionPreference = 'SilentlyContinue'`) turns the refusal \
         into an empty result: `(Get-NetTCPConnection -State Listen -ErrorAction SilentlyContinue).Count` prints 0, \
         which reads as \"nothing is listening\" when the query never ran.\n\
         - `Get-PSDrive -PSProvider FileSystem` reports Used and Free as 0 for every drive, because Windows \
         PowerShell 5.1 fills those columns from WMI, while DriveInfo gives the true figure at the same moment. \
         A 0-bytes-free reading from it is not a fact to act on.\n",
    );

    // What will not work, and why.
    t.push_str(
        "\nWhat will not help:\n\
         - No repair is offered, and no ACL change or elevation closes this: the refusal names no file or \
         directory. It comes from the restricted token's own lists (Authenticated Users is in neither), not \
         from anything on disk, so no access entry on a path reaches it.\n\
         - The same command succeeding under danger-full-access confirms this diagnosis. It is not a fix: it \
         removes the confinement the session was started with.\n\
         - The narrow allowance that suggests itself, read access to the root/cimv2 namespace, would be a change \
         to the restricted token's own lists, and it has a price: upstream credits the very same absence of \
         Authenticated Users from those lists with closing the C:\\-root tree-creation escape. Nobody has measured \
         which of the token's checks refuses the namespace — the second access pass, the mandatory label, or the \
         namespace's own access mask — so this note does not price a narrower change and proposes none.\n",
    );

    // The boundary of what is known.
    let _ = write!(
        t,
        "\nWhat this rests on: the code and a product name in this command's own stderr, the backend's own \
         statement above, and one reporter's measurements ({cite}). The substitutes are measured facts from that \
         report, not a promise for every Windows build."
    );

    t
}
