//! The two advisories: one answering a refusal (per carrier), one from the pre-flight.
//!
//! Both ship no repair command: what moves the condition is the harness's
//! environment or the session's workspace, and it is the user's move. The only
//! command lines are the `TMP`/`TEMP` example, on a neutral example directory.
//! The user's own paths never enter a command line: the backend's sentence is
//! quoted on its own `> ` lines, and each directory is mentioned as an
//! [`Untrusted::inline`](advisor_core::Untrusted::inline) code span that
//! nothing inside it can close.
//!
//! The pre-flight's facts ([`PreflightFacts`], [`Comparison`]) and the command
//! lines are declared in [`facts`](crate::facts), which the brief reads too:
//! the pre-flight computes the facts and calls this module, and nothing here
//! calls the pre-flight.

use std::fmt::Write as _;

use advisor_core::{Advisory, Containment, Environment};

use crate::ID;
use crate::brief;
use crate::facts::{
    Comparison, ECHO_TEMP, ECHO_TMP, EXAMPLE_DIR, MKDIR, PS_SET, PS_TEMP, PS_TMP, PreflightFacts,
    SET_TEMP, SET_TMP,
};
use crate::recognize::{Carrier, TempRootRefusal};

/// The discussion that reported the condition.
const DISCUSSION: &str = "#9175";

/// The advisory for a recognized refusal.
pub fn failure(finding: &TempRootRefusal, env: &Environment) -> Advisory {
    let source = env.cite(&[DISCUSSION]);
    let mut text = String::with_capacity(4096);
    text.push_str(
        "No sandboxed command can start in this session: the Windows sandbox backend refused to \
         set itself up because its temp root lies inside the workspace. Retrying cannot help — \
         every command, however trivial, is refused the same way until the environment outside \
         this session changes.\n\n",
    );
    match &finding.carrier {
        Carrier::Provider => text.push_str(
            "Which check refused: the session-scoped sandbox provider (sandbox-local), while it \
             prepared the workspace-write grant for this call. It refuses before any directory is \
             touched and before any process exists, which is why the call produced no command \
             output at all.\n\n",
        ),
        Carrier::Runner { mode, line } => {
            let _ = write!(
                text,
                "Which check refused: the Windows ACL runner (sandbox-windows-acl), which repeats \
                 the same check before it spawns anything. It wrote its refusal to stderr behind \
                 the `windows-acl-run:` marker and exited 127, so the harness reported a \
                 SandboxUnavailableError for mode \"{mode}\" with the runner's line as its detail. \
                 The generic suggestions in that error (bubblewrap, sandbox-exec, switching the \
                 consumer to danger-full-access) do not address this cause.\n\n\
                 The runner's record of that exit 127, its stderr line as the error's detail \
                 carried it:\n{}\n\n",
                line.quote_block(),
            );
        }
    }
    let _ = write!(
        text,
        "The backend's sentence, as the error carried it:\n{}\n\n\
         The two directories it named, spelled as they were passed to the check (the backend \
         resolves them before comparing):\n- workspace: {}\n- temp: {}\n\n",
        finding.sentence.quote_block(),
        finding.workspace.inline(),
        finding.temp.inline(),
    );
    why(&mut text);
    let _ = write!(
        text,
        "How to confirm: the quoted sentence is the backend's own verdict. In the console or \
         shortcut that starts the harness, read TMP and TEMP (cmd: `{ECHO_TMP}` and \
         `{ECHO_TEMP}`; PowerShell: `{PS_TMP}` and `{PS_TEMP}`) and compare them with the \
         directory this session was opened on: the temp value resolves to that directory or to \
         one below it.\n\n",
    );
    remedies(&mut text);
    will_not_help(&mut text);
    let _ = write!(
        text,
        "Where this stops: the condition was reported in {}. This advisor read the error's \
         message only; it did not resolve the two directories itself, and it changed nothing — \
         no environment variable was set and no mode was switched.",
        source,
    );
    let summary = match &finding.carrier {
        Carrier::Provider => env.locale.pick(
            "Sandbox provider refused: temp root is inside the workspace; no command can run, retrying will not help",
            "沙箱提供程序拒绝：临时目录根在工作区内，任何命令都无法运行，重试无用",
        ),
        Carrier::Runner { .. } => env.locale.pick(
            "Sandbox runner refused: temp root is inside the workspace; no command can run, retrying will not help",
            "沙箱运行器拒绝：临时目录根在工作区内，任何命令都无法运行，重试无用",
        ),
    };
    Advisory::new(ID, summary, brief::failure(finding, env)).with_detail(text)
}

/// The pre-flight advisory, from the facts it computed.
pub fn preflight(facts: &PreflightFacts, env: &Environment) -> Advisory {
    let thread = env.cite(&[DISCUSSION]);
    let mut text = String::with_capacity(4096);
    text.push_str(
        "Before any command has run: every sandboxed command in this session is expected to be \
         refused, because the host's temp directory lies inside the workspace the session was \
         opened on. Nothing has failed yet, and running a test command to find out would only \
         spend a turn on a refusal.\n\n",
    );
    let relation = match facts.relation {
        Containment::Same => "the temp directory IS the workspace root",
        Containment::Inside | Containment::Outside => {
            "the temp directory lies inside the workspace root"
        }
    };
    let _ = write!(
        text,
        "What was checked, so the claim can be audited:\n- host: {}\n- sandbox mode: {}\n\
         - workspace root: {}\n- temp directory (the host's temp lookup): {}\n",
        facts.host.as_str(),
        facts.mode,
        facts.workspace.inline(),
        facts.temp.inline(),
    );
    match &facts.comparison {
        Comparison::Canonical { workspace, temp } => {
            let _ = write!(
                text,
                "- comparison: both directories exist where this check ran and were resolved \
                 first, symlinks and junctions followed, as the backend does (workspace → {}, \
                 temp → {}); result: {relation}.\n\n",
                workspace.inline(),
                temp.inline(),
            );
        }
        Comparison::Lexical => {
            let _ = write!(
                text,
                "- comparison: at least one of the directories could not be resolved where this \
                 check ran, so they were compared by spelling with Windows rules \
                 (case-insensitive, component by component) rather than resolved as the backend \
                 does; a symlink or junction could change the answer in either direction; \
                 result: {relation}.\n\n",
            );
        }
    }
    text.push_str(
        "How to verify: if any command does run in this session, this condition does not apply \
         and this note can be ignored. If a command is refused with the backend's own sentence \
         instead, a second note follows naming the check that refused it.\n\n",
    );
    why(&mut text);
    remedies(&mut text);
    will_not_help(&mut text);
    let _ = write!(
        text,
        "Where this stops: the condition was reported in {}. This check looked at the temp \
         directory the host reported, which follows the runtime's lookup (TEMP first); the lock \
         folder's lookup (TMP first) was not checked. It changed nothing — no environment \
         variable was set and no mode was switched.",
        thread,
    );
    let summary = env.locale.pick(
        "Temp root is inside this session's workspace: sandboxed commands are expected to be refused",
        "临时目录在本会话的工作区内：沙箱命令预计都会被拒",
    );
    Advisory::new(ID, summary, brief::preflight(facts, env)).with_detail(text)
}

fn why(text: &mut String) {
    text.push_str(
        "Why the backend refuses: a workspace-write session is given two write capabilities — a \
         standing grant on the workspace root, which stays after the session, and a revocable one \
         on a private directory the backend creates under the temp root. If the temp root is the \
         workspace or lies below it, that private directory would sit inside the standing grant \
         and inherit it, so the part meant to be withdrawn could never be. The backend refuses \
         rather than hand out that pair. It compares the two directories after resolving them, \
         so a symlink or junction can put the temp root inside the workspace even when the \
         spellings do not look nested.\n\n",
    );
}

fn remedies(text: &mut String) {
    let _ = write!(
        text,
        "What fixes it — the user's move, made outside this session, since there is no working \
         shell here to make it from. The backend ships no repair command, and nothing needs \
         repairing:\n\
         1. Move the temp directory out of the workspace before the harness starts. Create a \
         directory outside the workspace first (the check resolves both paths, so a directory \
         that does not exist fails with a different error), then set BOTH TMP and TEMP to it in \
         the console that launches the harness. In cmd, with {EXAMPLE_DIR} as the example (any \
         directory outside the workspace works; pick another drive if the workspace is a drive \
         root):\n\
         \x20  {MKDIR}\n\
         \x20  {SET_TMP}\n\
         \x20  {SET_TEMP}\n\
         In PowerShell: `{PS_SET}`. Both variables \
         matter: the backend's lock folder is placed with GetTempPathW, which reads TMP before \
         TEMP, while the private temp folder comes from the runtime's temp lookup (Node's \
         os.tmpdir()), which reads TEMP before TMP. Setting one leaves the other lookup where it \
         was.\n\
         2. Or open the session on a workspace that does not contain the temp root — a project \
         directory such as C:\\work\\project rather than the user profile directory or one of \
         its ancestors.\n\n",
    );
}

fn will_not_help(text: &mut String) {
    text.push_str(
        "What will not help:\n\
         - Retrying this or any other command: each is refused before it starts.\n\
         - icacls grants, ownership changes or elevation: the refusal comes before any access \
         entry is written, so no permission is involved.\n\
         - Setting TMP or TEMP from inside this session: no command can run here, and a child \
         process's environment would not reach the harness anyway.\n\
         - read-only is not affected by this check, because it creates no private temp \
         capability — but it also cannot write, so it steps around the check rather than \
         fixing it.\n\
         - danger-full-access runs nothing through the sandbox, so commands succeeding there is \
         consistent with this diagnosis, not a workaround for it. Do not switch to it to get \
         past this.\n\n",
    );
}
