//! The advisory: the brief ([`crate::brief`]) as its text, and below it the
//! full account, always in English: how bubblewrap starts a sandbox, what the
//! hook checked on this host (or why nothing settled it), which step this
//! message names, what each check shows, every remedy with its cost (only on
//! proof), and where the account stops.

use advisor_core::{Advisory, Environment, HomePlace, Locale, NamespaceProbe};

use crate::ID;
use crate::brief::{commands, words};
use crate::facts::{FIX_APPARMOR_PROFILE, checks, confirmed_fixes, host_remedy, index};
use crate::provenance::proven;
use crate::recognize::{Finding, Kind};

/// Builds the advisory for a recognized bubblewrap start failure.
pub fn advise(finding: &Finding, env: &Environment) -> Advisory {
    let proven = proven(finding, env);
    Advisory::new(
        ID,
        summary(finding.kind, proven, env.locale),
        crate::brief::brief(finding, env),
    )
    .with_detail(detail(finding, env, proven))
}

/// The bounded one-line summary, in the locale.
fn summary(kind: Kind, proven: bool, locale: Locale) -> &'static str {
    match (locale, kind) {
        (Locale::En, _) if !proven => {
            "Possibly the sandbox cannot start (bubblewrap's line, host not checked): run `echo ok` to tell"
        }
        (Locale::ZhCn, _) if !proven => {
            "沙箱可能无法启动（bubblewrap 的那一行，未检查主机）：运行 `echo ok` 即可分辨"
        }
        (Locale::En, Kind::HelperMissing) => {
            "Sandbox cannot start: its helper is missing; every command fails, retrying will not help"
        }
        (Locale::En, _) => {
            "Sandbox cannot start: the host refuses user namespaces; every command fails, retrying will not help"
        }
        (Locale::ZhCn, Kind::HelperMissing) => {
            "沙箱无法启动：缺少辅助程序；每条命令都会失败，重试无济于事"
        }
        (Locale::ZhCn, _) => "沙箱无法启动：主机不允许用户命名空间；每条命令都会失败，重试无济于事",
    }
}

/// What the message says bubblewrap was doing, in English.
fn step(kind: Kind) -> &'static str {
    match kind {
        Kind::NamespaceLimit
        | Kind::KernelWithoutUserns
        | Kind::UnprivilegedRefused
        | Kind::NamespaceRefused => {
            "The message comes from the first step: `clone` with the namespace flags failed, \
             so no sandbox exists at all (bubblewrap.c, `main`, the `raw_clone` failure branch)."
        }
        Kind::IdMapRefused => {
            "The message comes from the second step: the namespace exists, but writing \
             `/proc/<pid>/uid_map` (or `gid_map`) was refused, so the sandbox has no identity \
             to run the command as (bubblewrap.c, `write_uid_gid_map`)."
        }
        Kind::HelperMissing => {
            "The message comes from the last step: the sandbox was built, but the program \
             bubblewrap was told to start, `codex-linux-sandbox`, was not found (bubblewrap.c, \
             `main`, the final `execvp`). Codex starts every sandboxed command through that \
             helper."
        }
    }
}

/// The account of the cause beyond the brief's sentence, in English.
fn mechanism(kind: Kind) -> &'static str {
    match kind {
        Kind::NamespaceLimit => {
            "`ENOSPC` from `clone` means a count limit: `user.max_user_namespaces` (or another \
             `max_*_namespaces`) is 0 or reached for this user, or the new namespace would be \
             nested deeper than the kernel's 32 levels. Setting `user.max_user_namespaces=0` \
             inside a container is a common way to forbid nested sandboxes, and it gives \
             exactly this line: recorded from Claude Code 2.1.332, Codex 0.171.0 and Gemini CLI \
             0.61.0 (run by a user other than root, whose bwrap needs a user namespace; the \
             project's client recordings), each printed it for `echo hello`."
        }
        Kind::KernelWithoutUserns => {
            "`EINVAL` from `clone` with `CLONE_NEWUSER` means the kernel was built without \
             user namespaces (`CONFIG_USER_NS`). An unprivileged bubblewrap cannot work there."
        }
        Kind::UnprivilegedRefused => {
            "`EPERM` from `clone` for an unprivileged caller: the kernel allows user namespaces \
             only to privileged users. Debian before 11 shipped \
             `kernel.unprivileged_userns_clone=0` for this; a container's seccomp profile can \
             refuse the call too."
        }
        Kind::NamespaceRefused => {
            "`clone` was refused with a bare `EPERM` or `EACCES`: typical inside a container \
             whose runtime filters the namespace system calls or withholds the capability, or \
             under a security module (AppArmor, SELinux) that denies it."
        }
        Kind::IdMapRefused => {
            "Ubuntu 23.10 and later set `kernel.apparmor_restrict_unprivileged_userns=1`: an \
             unprivileged program may create a user namespace but gets no capabilities in it \
             unless an AppArmor profile allows `userns`, so the map write is refused. The \
             profile must name the bwrap that actually runs: Claude Code uses the system \
             `/usr/bin/bwrap`; Codex uses it when present, else the copy it ships."
        }
        Kind::HelperMissing => {
            "Codex refuses to create its helper executables under the system temp directory, \
             so with its home there the helper never exists and every sandboxed command fails \
             with this line (the project's client reference, Codex 0.171.0)."
        }
    }
}

/// What the hook checked on this host, one line each, in English: numbers
/// it read and the probe's outcome, all the advisor's own words.
fn checked(env: &Environment) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(host) = env.checks.user_namespaces {
        out.push(
            match host.probe {
                NamespaceProbe::Refused => {
                    "- a child process the hook ran could not create a user namespace and map \
                     its ids either (the check below, run by the advisor);"
                }
                NamespaceProbe::Created => {
                    "- a child process the hook ran created a user namespace and mapped its ids;"
                }
                NamespaceProbe::NotRun => {
                    "- no child process could be run to try it, so the settings below decided;"
                }
            }
            .to_owned(),
        );
        for (key, value) in [
            ("user.max_user_namespaces", host.max_user_namespaces),
            (
                "kernel.unprivileged_userns_clone",
                host.unprivileged_userns_clone,
            ),
            (
                "kernel.apparmor_restrict_unprivileged_userns",
                host.apparmor_restrict_unprivileged_userns,
            ),
        ] {
            if let Some(value) = value {
                out.push(format!("- `{key}` reads {value};"));
            }
        }
    }
    if env.checks.codex_home == Some(HomePlace::UnderTemp) {
        out.push(
            "- Codex's home (`CODEX_HOME`, else `~/.codex`) lies under the system temp \
             directory;"
                .to_owned(),
        );
    }
    out
}

/// Why a hedged advisory is hedged, in English.
const HEDGED: &str = "Why this is not certain: a command's own output can hold this exact line \
    (a test that prints it and exits 1, a `cat` of a log), and the client's report cannot tell \
    the two apart: Claude Code and Gemini CLI report exit code 1 either way, Codex sends the bare \
    output. The \
    advisor can tell them apart only by checking this host from outside the sandbox (the hook \
    does: whether a user namespace can be made, or where Codex keeps its home), and here it \
    could not. So this advisory names no host setting to change and no weaker sandbox: those \
    weaken the host, and a line a program printed must never lead to that. `echo ok` settles \
    it: when the sandbox cannot start, it fails with the same line.";

/// The full account, in English.
fn detail(finding: &Finding, env: &Environment, proven: bool) -> String {
    let en = words(Locale::En);
    let client = env.host.kind.name();
    let fill = |s: &str| advisor_core::brief::fill(s, &[("client", client)]);
    let at = index(finding.kind);
    let mut out: Vec<String> = Vec::with_capacity(40);
    out.push(format!(
        "{client} runs every command through bubblewrap (`bwrap`), which builds the sandbox in \
         three steps: new namespaces (a user namespace first), a user and group map for them, \
         then the command. When a step fails, bubblewrap prints one line starting `bwrap: ` \
         and exits 1 before the command starts, so nothing the command would do happened."
    ));
    out.push(String::new());
    out.push("What was reported, the command's whole output:".to_owned());
    out.push(finding.line.quote_block().to_string());
    out.push(String::new());
    let checked = checked(env);
    if proven {
        out.push("What the advisor checked on this host, outside the sandbox:".to_owned());
        out.extend(checked);
    } else {
        out.push(HEDGED.to_owned());
        if !checked.is_empty() {
            out.push("What the advisor could check did not settle it:".to_owned());
            out.extend(checked);
        }
        out.push("If the line is bubblewrap's:".to_owned());
    }
    out.push(String::new());
    out.push(step(finding.kind).to_owned());
    out.push(fill(en.causes[at]));
    out.push(mechanism(finding.kind).to_owned());
    out.push(String::new());
    out.push(
        "Retrying cannot help: the failure is in building the sandbox, before any command, \
         so `echo` fails the same way. Nothing in the command or the workspace is involved."
            .to_owned(),
    );
    let checks = checks(finding.kind);
    if !checks.is_empty() {
        out.push(String::new());
        out.push(format!(
            "Check, in a terminal outside {client}, as the same user: `unshare` failing \
             confirms the host refuses what bubblewrap needs; `bwrap` should print the same \
             line as above; a `sysctl` value shows which switch is set (a missing key means \
             that kernel has no such switch)."
        ));
        out.push(commands(checks));
    }
    out.push(String::new());
    if !proven {
        out.push(
            "Remedies are named once the line is shown to be bubblewrap's (`echo ok` failing \
             the same way, or the checks above failing in a terminal outside the client)."
                .to_owned(),
        );
        out.push(String::new());
        out.push(
            "For the model: run `echo ok`; if it fails with the same line, stop running \
             commands and tell the user; if it runs, the line was the command's own output. \
             Do not run commands outside the sandbox or ask for it to be turned off either way."
                .to_owned(),
        );
        let mut text = out.join("\n");
        text.push('\n');
        return text;
    }
    out.push("Remedies, for the user or the host's administrator:".to_owned());
    out.push(format!("- {}", fill(en.remedies[at])));
    let fixes = confirmed_fixes(finding, env);
    if !fixes.is_empty() {
        out.push(commands(fixes));
    }
    if finding.kind == Kind::IdMapRefused && !fixes.is_empty() {
        out.push(
            "- The narrower fix is a profile for bwrap alone (AppArmor 4, Ubuntu 24.04); edit \
             the path if another bwrap runs. Lifting the restriction host-wide gives every \
             program unprivileged user namespaces again."
                .to_owned(),
        );
        out.push(commands(&FIX_APPARMOR_PROFILE));
    }
    if let Some(row) = env.host.kind.remedy_detail(host_remedy(finding.kind)) {
        out.push(format!("- {row}"));
    }
    out.push(String::new());
    out.push(
        "For the model: stop running commands and tell the user what is above. Do not run \
         commands outside the sandbox or ask for it to be turned off: the sandbox is not at \
         fault, and giving up its confinement is the user's decision, not a way around a host \
         that cannot build it."
            .to_owned(),
    );
    out.push(String::new());
    out.push(
        "Where this stops: the line says which step failed, not which layer refused it (the \
         host, an enclosing container, or a security module); the checks above tell them \
         apart."
            .to_owned(),
    );
    let mut text = out.join("\n");
    text.push('\n');
    text
}
