//! The advisory: what the status means, the three measured producers with the
//! check that separates them, the two-step check, the ranked remedy, what will
//! not work, and where the knowledge stops.
//!
//! Two pieces of evidence are quoted, each on its own `> ` lines
//! ([`Untrusted::quote_block`](advisor_core::Untrusted::quote_block)): the
//! shell's exit record, `[exit code: N]`, with the number exactly as the value
//! carried it (signed or unsigned), so a reader can audit the claim against
//! the record; and the command that did not start, the one piece of text the
//! advisor did not write. A newline in the command starts another `> ` line,
//! and backticks, escapes and invisible characters are shown as visible
//! `\u{…}` escapes, so nothing in it can end the quote or read as the
//! advisor's own words. It is never put on a command line.

use std::fmt::Write as _;

use advisor_core::{Advisory, Environment, HostBinary, Locale, Platform, SandboxMode, Untrusted};

use crate::gate::{ModeSource, RanUnder, ran_under};
use crate::producers;
use crate::recognize::{Finding, STATUS_DLL_INIT_FAILED};

/// Builds the advisory. Called only after the gate spoke; should the mode be
/// unknowable anyway, the text says so instead of naming one.
pub fn advise(finding: &Finding, env: &Environment) -> Advisory {
    let ran = ran_under(finding, env).ok();
    let summary = summary(ran.map(|r| r.mode), env.locale);
    let brief = crate::brief::brief(finding, ran, env);
    Advisory::new(crate::ID, &summary, brief).with_detail(detail(finding, ran, env))
}

/// The one-line summary, in the environment's locale.
fn summary(mode: Option<SandboxMode>, locale: Locale) -> String {
    match (locale, mode) {
        (Locale::En, Some(m)) => format!(
            "Sandboxed command never started: 0xC0000142 STATUS_DLL_INIT_FAILED under {m}; \
             do not retry"
        ),
        (Locale::En, None) => {
            "Sandboxed command never started: 0xC0000142 STATUS_DLL_INIT_FAILED; do not retry"
                .to_owned()
        }
        (Locale::ZhCn, Some(m)) => {
            format!("沙箱命令未能启动：0xC0000142 STATUS_DLL_INIT_FAILED（{m}）；不要重试")
        }
        (Locale::ZhCn, None) => {
            "沙箱命令未能启动：0xC0000142 STATUS_DLL_INIT_FAILED；不要重试".to_owned()
        }
    }
}

/// The full account (the advisory's `detail`): the text the family gave
/// before it had a brief, kept whole.
fn detail(finding: &Finding, ran: Option<RanUnder>, env: &Environment) -> String {
    let mode = ran.map(|r| r.mode);
    let mut out = String::with_capacity(8 * 1024);
    lead(&mut out, finding, ran, env);
    let _ = writeln!(
        out,
        "\nThree producers of this status have been measured under a confining mode. Each has \
         its own check; go through them in order:\n"
    );
    producers::msys2(&mut out, finding, env);
    producers::console_less_runner(&mut out, env);
    producers::token_input(&mut out, mode, env);
    two_steps(&mut out, mode, env);
    remedy(&mut out, env);
    will_not_work(&mut out, mode, env);
    boundary(&mut out, env);
    out.trim_end().to_owned()
}

fn lead(out: &mut String, finding: &Finding, ran: Option<RanUnder>, env: &Environment) {
    let _ = writeln!(
        out,
        "A sandboxed command never started: the Windows loader stopped the process before its \
         own code ran. Do not retry it; nothing about the environment has changed, and the \
         identical call ends with the identical status.\n"
    );
    // A finding's code is one of exactly two numbers (`is_dll_init_failed`):
    // the unsigned status itself, or its signed view.
    let spelling = if finding.reported == i64::from(STATUS_DLL_INIT_FAILED) {
        "the unsigned spelling the sandbox runner mirrors; PowerShell and cmd print the same \
         32-bit status signed, as -1073741502"
    } else {
        "the signed spelling PowerShell and cmd print; the sandbox runner mirrors the same \
         32-bit status unsigned, as 3221225794"
    };
    // The renderer's own record for this value, `[exit code: <exitCode>]`,
    // with the number exactly as the value carried it.
    let record = Untrusted::new(&format!("[exit code: {}]", finding.reported));
    let _ = writeln!(
        out,
        "What was reported, the shell's exit record for this call:\n{}\nThat is 0xC0000142 \
         (STATUS_DLL_INIT_FAILED) in {spelling}.",
        record.quote_block(),
    );
    if let Some(command) = &finding.command {
        let _ = writeln!(
            out,
            "The command that did not start, as the call passed it:\n{}",
            command.quote_block()
        );
    }
    let _ = writeln!(
        out,
        "\nWhat it means: the loader ends a process with this status while the process's DLLs \
         are still initializing, before the program's entry point. A program that had started \
         and then failed would have exited with its own status and printed its own output; this \
         one did neither (at most a runtime library that was itself loading wrote a line), so \
         what the command was asked to do played no part."
    );
    match ran {
        Some(ran) => {
            let source = match ran.source {
                ModeSource::Stamp => "as the sandbox executor recorded on this result",
                ModeSource::Policy => {
                    "as the session's sandbox policy resolves it; the result carries no executor \
                     stamp"
                }
            };
            let _ = writeln!(
                out,
                "The call ran under sandbox mode `{mode}` ({source}), so it was started through \
                 the harness's restricted-token runner. That makes the sandbox a candidate, not a \
                 proven cause: the status itself does not name the sandbox. A workspace grant \
                 that succeeded does not rule it out ({cite}).",
                mode = ran.mode,
                cite = env.cite(&["#8334"]),
            );
            if let Some(now) = ran.session_now {
                let _ = writeln!(
                    out,
                    "The session's policy now resolves to `{now}`; the stamp is the mode this \
                     call actually ran under, and it is the one that counts for this failure."
                );
            }
        }
        None => {
            let _ = writeln!(
                out,
                "The mode this call ran under could not be established, so nothing below \
                 assumes one."
            );
        }
    }
}

fn two_steps(out: &mut String, mode: Option<SandboxMode>, env: &Environment) {
    let _ = writeln!(
        out,
        "\nHow to tell them apart, in two steps; the first alone settles nothing:"
    );
    if mode == Some(SandboxMode::ReadOnly) {
        let _ = writeln!(
            out,
            "Step 1 (change only the mode) needs no run here: the call already ran under \
             read-only, the narrower confining mode, and still died, so producer 3's \
             workspace-write input was not the cause. Do not widen the mode to learn more; go to \
             step 2."
        );
    } else {
        let _ = writeln!(
            out,
            "Step 1: run the identical command in a read-only session of the same app on the \
             same machine, changing only the mode. If it starts there, the workspace-write input \
             of producer 3 is implicated. If it dies there too, the mode is not the variable, \
             and that still does not clear the sandbox: producer 2 fails under every confining \
             mode, and one report filed a combination that a bare mode switch mis-attributes \
             ({cite}).",
            cite = env.cite(&["#9336"]),
        );
    }
    let _ = writeln!(
        out,
        "Step 2: establish whether the runner owns a console. Run the same command with the \
         runner hosted by a process that has one, changing nothing else: the Web UI started \
         from a terminal, whose process.execPath is a real node.exe, ran confined commands under \
         the same mode and version where the desktop app failed ({host}), and varying \
         only the runner's console topology isolated this input ({topology}).",
        host = env.cite(&["#8313", "#9170"]),
        topology = env.cite(&["#9238"]),
    );
}

fn remedy(out: &mut String, env: &Environment) {
    let desktop = env.host.platform == Platform::Win32 && env.host.binary == HostBinary::Electron;
    let owns_none = if desktop {
        "This host process is an Electron binary (the packaged desktop app), so its runner owns \
         no console (producer 2, shape (a))"
    } else {
        "If the runner owns no console (producer 2)"
    };
    let host_swap = format!(
        "{owns_none}: the user restarts the session from a host \
         that owns one, such as the Web UI launched from a terminal instead of the packaged \
         desktop app ({cite}), or, for shape (b), starts the runner without DETACHED_PROCESS. \
         That is a launch change on the user's side; hand it over rather than attempting it.",
        cite = env.cite(&["#8313", "#9170"]),
    );
    let rewrite = "If the program is an MSYS2 or Git-Bash binary (producer 1): write the same \
         work as a PowerShell or cmd command and run that instead. This is the only remedy you \
         can apply yourself.";
    let token = "If step 1 implicates the token input (producer 3): no setting repairs it; \
         report it upstream with the result of both steps.";
    let _ = writeln!(out, "\nWhat unblocks the work, in order:");
    if let Some(note) = crate::desktop::fix_present_note(env) {
        let _ = writeln!(out, "{note}");
    }
    if let Some(update) = crate::desktop::update_line(env) {
        // Issue 24: the desktop bug (desktop issue 971 and its duplicates) was
        // fixed in 2.0.11; on an older or unknown version the update comes first.
        let _ = writeln!(
            out,
            "0. {update} Electron is a GUI-subsystem program with no console, so Windows builds \
             the restricted child's console host with the restricted token, which fails with \
             0xC0000142; the trampoline allocates and hides a console before starting the runner."
        );
    }
    if desktop {
        let _ = writeln!(out, "1. {host_swap}");
        let _ = writeln!(
            out,
            "2. {rewrite} Under the packaged desktop host, though, every confined command dies \
             this way ({cite}), so a rewrite helps only once the runner owns a console; until \
             then, prefer tools that do not start a process for work they can do.",
            cite = env.cite(&["#8193"]),
        );
    } else {
        let _ = writeln!(out, "1. {rewrite}");
        let _ = writeln!(out, "2. {host_swap}");
    }
    let _ = writeln!(out, "3. {token}");
}

fn will_not_work(out: &mut String, mode: Option<SandboxMode>, env: &Environment) {
    let _ = writeln!(
        out,
        "\nWhat will not work:\n\
         - Retrying, or retrying the same program with different arguments: the status comes \
         from starting the program, not from what it was asked to do."
    );
    let same_runner = format!(
        "the command still goes through the same runner started by the same host binary: a \
         mode changes what is granted, not who spawns the child ({cite})",
        cite = env.cite(&["#9170"]),
    );
    if mode == Some(SandboxMode::ReadOnly) {
        let _ = writeln!(
            out,
            "- Treating this read-only session as a stand-in for a working workspace-write one. \
             Read-only is a diagnostic, not a substitute: nothing can be written, PowerShell \
             starts in ConstrainedLanguage mode here, so scripts that need the full language \
             fail in their own way, and {same_runner}."
        );
    } else {
        let _ = writeln!(
            out,
            "- Moving the session to read-only as the way out. The switch in step 1 is a \
             diagnostic, not a substitute: nothing can be written under read-only, PowerShell \
             starts in ConstrainedLanguage mode there, so scripts that need the full language \
             fail in their own way, and {same_runner}."
        );
    }
}

fn boundary(out: &mut String, env: &Environment) {
    let _ = writeln!(
        out,
        "\nWhere this stops:\n\
         - 0xC0000142 has producers outside this list. A program that cannot load or initialize \
         one of its own DLLs ends with it, and the sandbox backend's own documentation records \
         that a child created with CREATE_NO_WINDOW or CREATE_NEW_CONSOLE does too. This \
         advisory names the class (the process never reached its entry point) and the producers \
         measured under a confining mode; it does not claim that the sandbox caused this \
         failure.\n\
         - Two further reports ({builds}) saw the same status on other Windows builds, \
         independent of the PowerShell version and the install layout, with no way to tell \
         which producer it was.\n\
         - Not this status: the same backend stalling before any child is spawned ({stall}), \
         and a child that does start and then fails to load a library at runtime, with \
         E_ACCESSDENIED (0x80070005) and a message of its own ({runtime}).",
        builds = env.cite(&["#8990", "#8991"]),
        stall = env.cite(&["#9463"]),
        runtime = env.cite(&["#9471"]),
    );
}
