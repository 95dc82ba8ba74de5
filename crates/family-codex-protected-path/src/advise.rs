//! The advisory: the brief ([`crate::brief`]) as its text, and below it the
//! full account, always in English: the mechanism and its source, the check,
//! the ways through with the host's own words, what will not work, and where
//! the account stops.

use advisor_core::{Advisory, Environment, HostRemedy, Locale};

use crate::ID;
use crate::brief::{purpose, words};
use crate::facts::{Protected, protected};
use crate::recognize::{Finding, Producer};

/// Builds the advisory for a refused write under a protected path.
pub fn advise(finding: &Finding, env: &Environment) -> Advisory {
    let place = protected(&finding.place, finding.path.inspect(), env);
    let summary = summary(place, env.locale);
    Advisory::new(ID, &summary, crate::brief::brief(finding, env))
        .with_detail(detail(finding, env, place))
}

/// The bounded one-line summary, in the locale (the advisor's words only).
fn summary(place: Option<Protected>, locale: Locale) -> String {
    let name = place.map_or("a protected path", Protected::name);
    match locale {
        Locale::En => format!(
            "Codex keeps {name} read-only under workspace-write: retrying cannot help; \
             the user decides the way through"
        ),
        Locale::ZhCn => {
            let name = place.map_or("受保护的路径", Protected::name);
            format!("Codex 在 workspace-write 下让 {name} 保持只读：重试无济于事，办法由用户决定")
        }
    }
}

/// Why the line is not taken for proof, in English.
const FORGEABLE: &str = "Why this is not certain: Codex sends its hook the command's bare \
    output, with no exit code and no mark of who printed a line, so a program that prints \
    git's line (a `cat` of a log, a test's output) reaches the advisor byte for byte like \
    git's own. Nothing the advisor can check from outside the sandbox proves that Codex's \
    mount refused this write. So this advisory offers no other sandbox mode and no command \
    run outside the sandbox: those weaken the sandbox, and a line a program printed must \
    never lead to that. What is left is what the user can do by hand.";

/// The full account, in English.
fn detail(finding: &Finding, env: &Environment, place: Option<Protected>) -> String {
    let en = words(Locale::En);
    let name = place.map_or(".git", Protected::name);
    let mut out: Vec<String> = Vec::with_capacity(32);
    out.push(match finding.producer {
        Producer::Git => "git could not create a file it needed, a lock or a directory (the path \
                          is in the line below): the kernel answered the write with EROFS, the \
                          error a read-only mount gives."
            .to_owned(),
        other => format!(
            "{} could not create or write a file (the path is in the line below): the kernel \
             answered the write with EROFS, the error a read-only mount gives.",
            other.name()
        ),
    });
    out.push(String::new());
    out.push("What was reported, the producer's line:".to_owned());
    out.push(finding.line.quote_block().to_string());
    out.push(String::new());
    out.push(FORGEABLE.to_owned());
    out.push(String::new());
    out.push(
        "Why: under `workspace-write`, Codex makes each writable root writable but keeps a few \
         names at the top of each root read-only, so a write there fails with EROFS as on a \
         read-only mount: `.git` (a directory, or a gitdir pointer file together with the \
         directory it points to), `.agents` and `.codex` (in recent versions `.codex` in the \
         workspace root even before it exists). Source: openai/codex, codex-rs/protocol/src/permissions.rs, \
         default_read_only_subpaths_for_writable_root. Only the top level is on that list: a \
         nested repository's `.git` is not."
            .to_owned(),
    );
    out.push(match place {
        Some(p) => format!(
            "Here the path lies under the workspace root's `{name}`, which protects {}, and the \
             session runs under `workspace-write`: that is the check this advisory rests on.",
            en.purposes[purpose(p)]
        ),
        None => "The advisor could not place the path under the workspace root here, so it \
                 names no protected directory."
            .to_owned(),
    });
    out.push(String::new());
    out.push("What the user can do:".to_owned());
    let host = env.host.kind;
    out.push(match finding.producer {
        Producer::Git => "- The user runs the same git command in the same directory \
                          themselves, outside Codex; nothing about the repository needs to \
                          change."
            .to_owned(),
        _ => "- The user makes the change themselves, outside Codex.".to_owned(),
    });
    out.push(String::new());
    out.push("What will not work:".to_owned());
    out.push(format!(
        "- Deleting lock files, changing modes with chmod, re-initializing the repository or \
         moving `{name}`: the mount refuses writes whatever the files' modes, and \
         re-initializing or moving a repository can throw its history away."
    ));
    out.push(
        "- Retrying, or making the same write through another tool or interpreter: every \
         process in the sandbox sees the same read-only mount."
            .to_owned(),
    );
    if let Some(text) = host.remedy_detail(HostRemedy::ExtraWritableRoot) {
        out.push(format!(
            "- Making more directories writable does not lift it either. {text}"
        ));
    }
    out.push(String::new());
    out.push(
        "Where this stops: the advisor did not see the sandbox's mounts. It reads the \
         producer's line, the host, the mode and the workspace root the session reported, and \
         infers the protected path from them."
            .to_owned(),
    );
    let mut text = out.join("\n");
    text.push('\n');
    text
}
