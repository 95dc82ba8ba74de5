//! The advisory: the brief ([`crate::brief`]) as its text, and below it the
//! full account, always in English: the mechanism and its source, what the
//! advisor checked and where each fact came from, the ways through with the
//! host's own words, what will not work, and where the account stops.

use advisor_core::erofs::Producer;
use advisor_core::{Advisory, Environment, HostRemedy, Judged, Locale, MountFact};

use crate::ID;
use crate::facts::{
    Confinement, Root, RootKind, absolute, confinement, in_git_dir, user_may_write,
};
use crate::recognize::{Carrier, Finding};

/// Builds the advisory for a write the sandbox refused.
pub fn advise(finding: &Finding, env: &Environment) -> Advisory {
    let confinement = confinement(finding, env).ok();
    let read_only = confinement == Some(Confinement::ReadOnlyMode);
    let git = in_git_dir(finding, env);
    let summary = if git {
        git_summary(env.locale).to_owned()
    } else {
        summary(env, read_only)
    };
    Advisory::new(ID, &summary, crate::brief::brief(finding, env)).with_detail(detail(
        finding,
        env,
        confinement.as_ref(),
    ))
}

/// The bounded one-line summary, in the locale (the advisor's words only).
fn summary(env: &Environment, read_only: bool) -> String {
    let host = env.host.kind.name();
    match (env.locale, read_only) {
        (Locale::En, false) => format!(
            "{host}'s sandbox refused a write outside its writable directories: retrying cannot help"
        ),
        (Locale::En, true) => "Codex runs under read-only: every write is refused; retrying \
                               cannot help"
            .to_owned(),
        (Locale::ZhCn, false) => {
            format!("{host} 的沙箱拒绝了在其可写目录之外的写入：重试无济于事")
        }
        (Locale::ZhCn, true) => {
            "Codex 以 read-only 运行：一切写入均被拒绝；重试无济于事".to_owned()
        }
    }
}

/// The summary of a write Gemini CLI kept from the workspace's `.git`.
fn git_summary(locale: Locale) -> &'static str {
    match locale {
        Locale::En => {
            "Gemini CLI keeps .git read-only for commands that do not run git: use git itself"
        }
        Locale::ZhCn => "Gemini CLI 对不运行 git 的命令保持 .git 只读：请用 git 本身",
    }
}

fn producer(carrier: Carrier) -> &'static str {
    match carrier {
        Carrier::Erofs(Producer::Coreutils(program)) => program,
        Carrier::Erofs(other) => other.name(),
        Carrier::Seatbelt => "macOS's sandbox (Seatbelt)",
    }
}

fn kind(kind: RootKind) -> &'static str {
    match kind {
        RootKind::Workspace => "the working directory",
        RootKind::Configured => "from the client's configuration",
        RootKind::Temporary => "a temporary directory the client keeps writable",
    }
}

/// The full account, in English.
fn detail(finding: &Finding, env: &Environment, confinement: Option<&Confinement>) -> String {
    let host = env.host.kind;
    let mut out: Vec<String> = Vec::with_capacity(40);
    out.push(match finding.carrier {
        Carrier::Erofs(p) => format!(
            "{} reported that the kernel refused a write with EROFS (read-only file system), \
             the error a read-only mount gives. {}'s sandbox on Linux is bubblewrap, which \
             mounts everything outside the writable directories read-only, so a write there \
             gets exactly this error.",
            producer(Carrier::Erofs(p)),
            host.name()
        ),
        Carrier::Seatbelt => format!(
            "{}'s sandbox on macOS is Seatbelt (sandbox-exec), which refuses a write outside \
             the writable directories with EPERM and logs the refusal; Claude Code appends the \
             sandbox's log lines to the output in a <sandbox_violations> block. Source: \
             anthropics/sandbox-runtime, src/sandbox/macos-sandbox-utils.ts and \
             sandbox-manager.ts (read in source only; no Mac ran this advisory).",
            host.name()
        ),
    });
    out.push(String::new());
    out.push("The refused path, as printed:".to_owned());
    out.push(finding.path.quote_block().to_string());
    out.push("The line that reported it:".to_owned());
    out.push(finding.line.quote_block().to_string());
    out.push(String::new());
    out.push("What the advisor checked, outside the sandbox:".to_owned());
    if let Ok(path) = absolute(finding, env) {
        if !matches!(finding.place, crate::Place::Absolute(_)) {
            out.push(format!(
                "- The path is relative; resolved against the session's working directory it \
                 is {}.",
                advisor_core::Untrusted::new(path.as_str()).inline()
            ));
        }
    }
    if finding.mark == crate::Mark::SandboxExpansion {
        out.push(
            "- Gemini CLI marked the result `sandbox_expansion_required` (`error.type` of its \
             hook payload, a field no command's output reaches): its sandbox ran the command \
             and its own match read a refusal in the output."
                .to_owned(),
        );
    }
    out.push(match &env.checks.mount {
        Some(MountFact::Writable { judged, .. }) => format!(
            "- The host's own mount at {} is writable (statvfs, no link followed): a real \
             read-only mount did not refuse this write.",
            match judged {
                Judged::Path => "the path",
                Judged::Ancestor =>
                    "the path's nearest existing directory (the path itself does not exist)",
            }
        ),
        _ => "- The host's mount could not be read.".to_owned(),
    });
    if !user_may_write(env) {
        out.push(
            "- This user may not write there outside the sandbox either (the kernel's own \
             access check), so widening the sandbox would only turn this error into \
             'Permission denied'."
                .to_owned(),
        );
    }
    match confinement {
        Some(Confinement::ReadOnlyMode) => out.push(
            "- The session runs under `read-only` (the mode stated to the advisor, else \
             `sandbox_mode` of Codex's configuration): no directory is writable."
                .to_owned(),
        ),
        Some(Confinement::OutsideRoots(_)) if in_git_dir(finding, env) => {}
        Some(Confinement::OutsideRoots(roots)) => {
            out.push(
                "- The path lies outside every directory the sandbox lets commands write, as \
                 far as the advisor knows them:"
                    .to_owned(),
            );
            out.extend(roots.iter().map(|Root { path, kind: k }| {
                format!(
                    "  - {} ({})",
                    advisor_core::Untrusted::new(path.as_str()).inline(),
                    kind(*k)
                )
            }));
        }
        None => {}
    }
    let git = in_git_dir(finding, env);
    if git {
        out.push(GIT_DIR_KEPT.to_owned());
    }
    out.push(String::new());
    out.push("Ways through:".to_owned());
    let rows: &[HostRemedy] = if git {
        out.push(GIT_WAY.to_owned());
        &[]
    } else if confinement == Some(&Confinement::ReadOnlyMode) {
        &[
            HostRemedy::WorkspaceWriteMode,
            HostRemedy::EscalateOneCommand,
        ]
    } else if user_may_write(env) {
        &[
            HostRemedy::WritableTempDir,
            HostRemedy::ExtraWritableRoot,
            HostRemedy::EscalateOneCommand,
        ]
    } else {
        &[HostRemedy::WritableTempDir]
    };
    out.extend(
        rows.iter()
            .filter_map(|r| host.remedy_detail(*r))
            .map(|t| format!("- {t}")),
    );
    out.push(
        "- The user runs the command themselves, outside the client; nothing about the \
         sandbox needs to change for that."
            .to_owned(),
    );
    out.push(String::new());
    out.push("What will not work:".to_owned());
    out.push(
        "- Retrying, or making the same write through another tool or interpreter: every \
         process in the sandbox sees the same mounts."
            .to_owned(),
    );
    out.push(
        "- chmod, chown or sudo: the refusal is the mount's (or the sandbox's), not the file's \
         mode."
            .to_owned(),
    );
    out.push(String::new());
    out.push(if host == advisor_core::Host::GeminiCli {
        STOPS_GEMINI.to_owned()
    } else {
        STOPS.to_owned()
    });
    out.join("\n")
}

/// Why the workspace's `.git` refused the write, under Gemini CLI.
const GIT_DIR_KEPT: &str = "- The path lies in the workspace's `.git`. Gemini CLI's sandbox binds \
     `.git` read-only unless one of the command's roots is `git`, and then adds it to the \
     command's writable paths (`GOVERNANCE_FILES` and `isGitCommand` in the bundle of \
     @google/gemini-cli 0.61.0, read there; recorded in docs/hooks/gemini-cli/git-write). No \
     word of this command is `git`.";

/// The way through for `.git`, under Gemini CLI.
const GIT_WAY: &str = "- Change the repository with a git command (`git config`, `git commit`, \
     `git update-ref`, …); Gemini CLI makes `.git` writable for it, with no approval and no \
     change to the sandbox.";

const STOPS: &str = "Where this stops: the advisor did not see the sandbox's mounts. It reads \
     the producer's line, checks the host's own mount at the path from outside the sandbox, \
     and compares the path with the writable directories it knows: the working directory, the \
     client's own configuration files, and the temporary directories the client keeps \
     writable. What the client was told on its command line (Codex's `--add-dir`, `-c`, \
     `--sandbox`) is not visible to a hook; the stated mode (`--mode`) stands for it. A \
     program that prints this line without trying the write would get the same advisory; what \
     it states about the sandbox and the path would still be true.";

const STOPS_GEMINI: &str = "Where this stops: the advisor did not see the sandbox's mounts. It \
     reads the producer's line and Gemini CLI's mark, checks the host's own mount at the path \
     from outside the sandbox, and compares the path with the workspace and the sandbox's \
     `/tmp`. It does not read Gemini's settings: a directory listed in \
     `tools.sandboxAllowedPaths`, or granted by an approved expansion, is writable in the \
     sandbox, so a refusal there is a real read-only mount, which the mount check declines \
     first. The mark says Gemini's own keyword match read a refusal in the output; a program \
     that prints this line without trying the write would get the same advisory, and what it \
     states about the sandbox and the path would still be true.";
