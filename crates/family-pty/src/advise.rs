//! The advisory, addressed to two readers: the model (stop, use file tools,
//! hand the choice over) and the user (the ranked remedies).
//!
//! Every variable part comes from the finding or the environment: the failing
//! tool, the resolved mode, this host's binary and platform. The fixed parts
//! are written once, below, in the order the reader needs them.
//!
//! Two pieces of text are not the advisor's. The producer's sentence is the
//! evidence, quoted on its own `> ` line
//! ([`Untrusted::quote_block`](advisor_core::Untrusted::quote_block)) exactly
//! as the failure carried it; a stack trace below it is counted, not repeated.
//! The tool's name is only ever mentioned as an
//! [`Untrusted::inline`](advisor_core::Untrusted::inline) code span, in the
//! text and in the summary alike: a backtick, a newline, an escape or an
//! invisible character in the name is shown as a visible `\u{…}` escape, so
//! the name can neither close its span nor pass for the advisor's own words.

use advisor_core::{Advisory, Environment, HostBinary, HostRemedy, Locale, Platform, SandboxMode};

use crate::ID;
use crate::recognize::Finding;

/// Remedy 4, last: named for what it costs.
const REMEDY_UNCONFINED: &str = "4. Last, switch the session to `danger-full-access`. It works \
     only because it drops the confinement the sandbox exists to provide: every command then \
     runs with your full rights. This is your decision to make, never the model's.";

pub use crate::facts::SUMMARY_TOOL_MAX_CHARS;

/// Builds the advisory for a recognized startup exit under a confining mode:
/// the brief ([`crate::brief`]) as its text, the full account below as its detail.
pub fn advise(finding: &Finding, env: &Environment) -> Advisory {
    let tool = finding.tool.inline();
    let mode = env.mode().ok();
    let mode_name = mode.map_or("unresolved", SandboxMode::as_str);
    let electron = env.host.binary == HostBinary::Electron;
    let cite = |d: &str| env.cite(&[d]);

    let mut lines: Vec<String> = Vec::with_capacity(32);
    let mut line = |s: &str| lines.push(s.to_owned());

    line(&format!(
        "The persistent shell behind {tool} exited before it reached its first prompt, so \
         this session has no working shell. Retrying cannot help: the outcome is fixed by the \
         session's sandbox mode and the program that hosts the sandbox runner, and neither \
         changes from one call to the next."
    ));
    line("");
    line(if finding.frames == 0 {
        "What was reported, the failure's whole message:"
    } else {
        "What was reported, the first line of the failure's message:"
    });
    line(&finding.sentence.quote_block().to_string());
    if finding.frames > 0 {
        let plural = if finding.frames == 1 { "" } else { "s" };
        line(&format!(
            "Every line below it is a stack frame ({} frame{plural}, not repeated here): they \
             show where the startup was abandoned, not why.",
            finding.frames
        ));
    }
    line("");

    let cause = crate::cause::cause(finding, env);
    if let Some(middle) = crate::branches::detail_middle(cause, env) {
        lines.extend(middle);
        lines.push(String::new());
        lines.push("What will not help:".to_owned());
        lines.push(
            "- Retrying, or searching for a command that fixes it: nothing changes between \
             calls, and there is no shell to run it in."
                .to_owned(),
        );
        lines.push(
            "- Switching the session to `read-only`: the shell still starts through the same \
             restricted runner."
                .to_owned(),
        );
        lines.push(
            "- Restarting the app with another mode in its environment: this session keeps \
             the mode it recorded."
                .to_owned(),
        );
        if let Some(boundary) = crate::branches::detail_boundary(cause) {
            lines.push(String::new());
            lines.push(boundary.to_owned());
        }
        return finish(lines, finding, env, tool, mode_name);
    }

    line("What is known about it:");
    line(&format!(
        "- The sandbox mode this session recorded is `{mode_name}`, which confines. Under a \
         confining mode the terminal backend starts the shell through the sandbox's restricted \
         runner, where the pseudo-console cannot be created, so the shell is gone before it \
         prints a prompt ({}).",
        cite("#7638")
    ));
    line(&format!(
        "- The outcome is deterministic per (session mode × host binary), not intermittent. \
         Holding the runner and the ConPTY fixed in every arm ({}): a runner hosted by a \
         console-subsystem `node.exe` starts the confined shell; a runner hosted by the packaged \
         desktop app's GUI-subsystem Electron executable does not, and the child dies with \
         nothing on stdout or stderr. Under the restricted token a console can be inherited, \
         never created.",
        cite("#8322")
    ));
    line(if electron {
        "- This host, as the harness measured it, is a GUI-subsystem Electron executable (the \
         packaged desktop app): the arm that fails in that measurement."
    } else {
        "- This host, as the harness measured it, is not an Electron executable: the arm that \
         started the shell in that measurement. See the last paragraph for what that leaves open."
    });
    line(
        "- The mode that counts is the one the session recorded, not the one the app's \
         environment holds now: restarting the app with another mode leaves this session \
         failing, while a mode change made inside the session applies at once.",
    );
    line("");

    line(&format!(
        "How to confirm it: in the original report's control ({}) the minimal preset failed \
         under a confining mode and started under `danger-full-access`, while the `standard` \
         preset, whose shell is a one-shot subprocess, worked under the same confining mode. \
         Remedy 1 below is also the check: if the one-shot shell runs commands in this mode, \
         the persistent pseudo-console was the cause.",
        cite("#7638")
    ));
    line("");

    line(&format!(
        "For the model: stop. Do not call {tool} again and do not look for a command that \
         would repair this; there is no shell in this session to run one in, and every attempt \
         ends the same way. Continue with your file read and write tools where the task allows, \
         leave the sandbox mode as it is, and hand the choice below to the user."
    ));
    line("");

    line("For the user, what unblocks the session, best first:");
    // Remedies 1 and 2 name the harness's presets and patch layer: its host table words them.
    for (n, remedy) in [
        (1, HostRemedy::ShellWithoutPseudoConsole),
        (2, HostRemedy::ReplacePersistentShell),
    ] {
        if let Some(text) = env.host.kind.remedy_detail(remedy) {
            line(&format!("{n}. {text}"));
        }
    }
    line(&remedy_console_host(electron, &cite("#8313")));
    line(REMEDY_UNCONFINED);
    line("");

    line("What will not help:");
    line(
        "- Retrying, or searching for a command that fixes it: nothing changes between calls, \
         and there is no shell to run it in.",
    );
    line(&format!(
        "- Switching the session to `read-only`: worth one try, not a way out ({}). It goes \
         through the same restricted runner started by the same host binary, so it changes what \
         is granted, not who spawns the shell; the one report where `read-only` worked while \
         `workspace-write` failed drove the sandbox API from a real node host, not from the \
         packaged desktop app.",
        cite("#9170")
    ));
    if mode == Some(SandboxMode::ReadOnly) {
        line("  This session already runs under `read-only`, so that try has been made.");
    }
    line(
        "- Restarting the app with another mode in its environment: this session keeps the \
         mode it recorded.",
    );
    line("");
    line(&boundary(electron, env.host.platform));
    finish(lines, finding, env, tool, mode_name)
}

/// The summary and the advisory, around a finished full account.
fn finish(
    lines: Vec<String>,
    finding: &Finding,
    env: &Environment,
    tool: impl std::fmt::Display,
    mode_name: &str,
) -> Advisory {
    // The summary names the tool only through the same rendering, and only when
    // that fits: cutting a rendered span short could leave it open.
    let mention = tool.to_string();
    let shell = if mention.chars().count() <= SUMMARY_TOOL_MAX_CHARS {
        format!("Persistent shell {mention}")
    } else {
        "Persistent shell".to_owned()
    };
    let summary = match env.locale {
        Locale::En => format!(
            "{shell} cannot start under {mode_name}; retrying will not help, the remedy is the \
             user's choice"
        ),
        Locale::ZhCn => {
            let shell = shell.replacen("Persistent shell", "持久 shell", 1);
            format!("{shell} 在 {mode_name} 下无法启动；重试无济于事，解决办法由用户选择")
        }
    };
    let mut detail = lines.join("\n");
    detail.push('\n');
    Advisory::new(ID, &summary, crate::brief::brief(finding, env)).with_detail(detail)
}

/// Remedy 3: a host that owns a console — available only where this host does not.
fn remedy_console_host(electron: bool, cite: &str) -> String {
    if electron {
        format!(
            "3. Run the session from a host that owns a console instead of the packaged desktop \
             app: the Web UI started from a terminal, whose runner host is a real `node.exe`, was \
             reported working under the same confining mode and version ({cite})."
        )
    } else {
        format!(
            "3. Run the session from a host that owns a console instead of the packaged desktop \
             app, such as the Web UI started from a terminal ({cite}). This host already reports \
             that it is not Electron, so this change is not available here."
        )
    }
}

/// Where the account stops, for this host.
fn boundary(electron: bool, platform: Platform) -> String {
    let mut out = String::from(
        "Where this stops: the error names no cause. The account above is the mechanism the \
         cited reports measured on Windows hosts, not a test of this machine.",
    );
    if platform != Platform::Win32 {
        out.push_str(" This host reports its platform as ");
        out.push_str(platform.as_str());
        out.push_str(", where none of those measurements was made.");
    }
    if !electron {
        out.push_str(
            " On a host that is not Electron the measured shell started, so this failure lies \
             outside that measurement and the host binary may not be its reason; remedies 1 and \
             2 avoid the pseudo-console whatever the reason is.",
        );
    }
    out
}
