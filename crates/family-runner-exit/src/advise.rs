//! The advisory: the brief ([`crate::brief`]) as its text, and below it the
//! full account, always in English: the mechanism, the reports behind each
//! known cause, the version branch, and where the account stops.

use advisor_core::{Advisory, Environment, HostBinary, Locale, VersionFact};

use crate::ID;
use crate::brief::{cause_line, meaning, words};
use crate::facts::{Cause, FIXED_IN, cause};
use crate::recognize::{Carrier, Finding, Report, Status};

pub use crate::facts::TOOL_MAX_CHARS;

/// Builds the advisory for a recognized runner report on a Windows host.
pub fn advise(finding: &Finding, env: &Environment) -> Advisory {
    let cause = cause(finding, env);
    let summary = summary(cause, env.locale);
    Advisory::new(ID, &summary, crate::brief::brief(finding, env))
        .with_detail(detail(finding, env, cause))
}

/// The bounded one-line summary, in the locale.
fn summary(cause: Cause, locale: Locale) -> String {
    let update = matches!(
        cause,
        Cause::DesktopLaunch(VersionFact::Before(_) | VersionFact::Unknown)
    );
    match (locale, update) {
        (Locale::En, false) => {
            "Windows Job runner exited before reporting: not the sandbox; a mode change will not help".into()
        }
        (Locale::En, true) => "Windows Job runner exited before reporting: not the sandbox; \
                               Desktop before 2.0.9 needs an update"
            .into(),
        (Locale::ZhCn, false) => "Windows Job runner 未报告就退出：不是沙箱问题，更改模式无济于事".into(),
        (Locale::ZhCn, true) => {
            "Windows Job runner 未报告就退出：不是沙箱问题；2.0.9 之前的 Desktop 需要更新".into()
        }
    }
}

/// The full account, in English.
fn detail(finding: &Finding, env: &Environment, cause: Cause) -> String {
    let en = words(Locale::En);
    let tool = finding.tool.inline();
    let mut out: Vec<String> = Vec::with_capacity(24);
    out.push(match finding.report {
        Report::ForcedTermination => format!(
            "The tool {tool} failed while the harness was stopping a call: its private Job \
             runner did not confirm, within a second of a forced termination, that everything \
             it started had ended."
        ),
        Report::Exited { .. } => format!(
            "The tool {tool} failed before its command ran. Every tool that starts a process on \
         Windows goes through the harness's private Job runner, which owns the process range \
         and must report back before the call can settle. Here the runner ended without that \
         report, so the harness threw instead of returning a result."
        ),
    });
    out.push(String::new());
    out.push(match finding.carrier {
        Carrier::Own => "What was reported, the failure's whole message:".to_owned(),
        Carrier::GlobWrapper => "What was reported, on the line below the search tool's \
                                 wrapper sentence (the wrapper alone names no cause):"
            .to_owned(),
    });
    out.push(finding.line.quote_block().to_string());
    out.push(String::new());
    out.push(
        "This is not the sandbox. The runner fails this way in every sandbox mode, \
         `danger-full-access` included, and the failure carries no denial marker and no \
         exit code of the command. Changing or relaxing the mode gives up confinement and \
         leaves this failure as it is."
            .to_owned(),
    );
    out.push(String::new());
    out.push("What is known about this status:".to_owned());
    out.push(format!("- {}", status_fact(finding)));
    out.push(format!("- {}", cause_line(en, cause)));
    if let Some(reason) = cause_detail(cause, env) {
        out.push(format!("- {reason}"));
    }
    if let Report::Exited {
        bootstrap: Some(code),
        ..
    } = finding.report
    {
        out.push(format!(
            "- The producer appended its own hint: the helper's stderr named `{}` while it \
             started; {}. That is what the code means in Node, not a cause measured on this host.",
            code.as_str(),
            en.meanings[meaning(code)]
        ));
    }
    out.push(String::new());
    out.push(
        "For the model: stop calling tools that start processes (shell, glob, grep); they all \
         go through the same runner. Continue with file read and write tools where the task \
         allows, leave the sandbox mode alone, and tell the user what is above."
            .to_owned(),
    );
    out.push(String::new());
    out.push(boundary(cause));
    let mut text = out.join("\n");
    text.push('\n');
    text
}

/// The status in words.
fn status_fact(finding: &Finding) -> String {
    match &finding.report {
        Report::ForcedTermination => "The runner was being stopped by force (a cancelled or \
                                      timed-out call) and did not confirm that its range was \
                                      empty; ownership of what it started is unknown."
            .to_owned(),
        Report::Exited { status, .. } => match status {
            Status::ExitCode(code) => format!("The runner exited with code {code}."),
            Status::Signal(name) => {
                format!("The runner was ended by the signal {}.", name.inline())
            }
            Status::NoStatus => "The runner ended without an exit status.".to_owned(),
        },
    }
}

/// The mechanism behind a known cause, when there is more to say than the brief.
fn cause_detail(cause: Cause, env: &Environment) -> Option<String> {
    match cause {
        Cause::DesktopLaunch(fact) => Some(format!(
            "Why: the runner is started as the host's own executable plus the runner script. In \
             the packaged app that executable is the Electron app itself, and without \
             `ELECTRON_RUN_AS_NODE=1` it starts a second GUI instance, which exits 0 without \
             ever reporting. Pull requests 927 and 931 of anywhere-labs/dsh-desktop and that \
             app's patch to the subprocess package set that variable for the Windows runner \
             when the host is Electron; the fix shipped in Desktop {FIXED_IN}. {}",
            match fact {
                VersionFact::Before(v) => format!(
                    "The configured version is {v}: updating to {FIXED_IN} or later \
                     is the fix, and no mode or profile change is."
                ),
                VersionFact::AtOrAfter(v) => format!(
                    "The configured version is {v}, which carries the fix, so this \
                     cause does not explain the failure; report it with the version."
                ),
                VersionFact::Unknown => "Nobody told the advisor which Desktop version runs \
                                         here (`hostVersion`), so both branches stand."
                    .to_owned(),
            }
        )),
        Cause::HostDegraded => Some(
            "The same status (0xC0000142, STATUS_DLL_INIT_FAILED) came back from every process \
             the host started, after a long run of GUI processes; the report does not say what \
             restored it."
                .to_owned(),
        ),
        Cause::Unknown if env.host.binary != HostBinary::Electron => Some(
            "This host is not the Electron desktop app, so the desktop launch bug (exit code 0 \
             before Desktop 2.0.9) does not apply."
                .to_owned(),
        ),
        _ => None,
    }
}

/// Where the account stops.
fn boundary(cause: Cause) -> String {
    match cause {
        Cause::Unknown | Cause::Unconfirmed => "Where this stops: the runner's report names no \
            cause, and no report collected so far names one for this status, so the advisor \
            says no more."
            .to_owned(),
        _ => "Where this stops: the runner's report names no cause. The cause above comes from \
              user reports against DSH Desktop and the harness, not from a test of this \
              machine."
            .to_owned(),
    }
}
