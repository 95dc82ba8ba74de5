//! The advisory: the brief ([`crate::brief`]) as its text, and below it the
//! full account, always in English: how the sandbox's network filter works,
//! the block's lines as evidence, why it is (or may not be) the sandbox's,
//! why neither a retry nor leaving the sandbox is the model's move, the
//! remedies in the host's own words (a host to allow only on proof), what
//! was measured, and where the account stops. The advisor's sentences name
//! no host; hosts stand in the quoted lines and on the value line only.

use advisor_core::{Advisory, Environment, HostRemedy, Locale};

use crate::ID;
use crate::facts::{evidence, remedies, values};
use crate::provenance::proven;
use crate::recognize::{Carrier, Finding, MAX_HOSTS};

/// Builds the advisory for a recognized block.
pub fn advise(finding: &Finding, env: &Environment) -> Advisory {
    let proven = proven(finding, env);
    Advisory::new(
        ID,
        &summary(finding, proven, env.locale),
        crate::brief::brief(finding, env),
    )
    .with_detail(detail(finding, env, proven))
}

/// The bounded one-line summary, in the locale.
fn summary(finding: &Finding, proven: bool, locale: Locale) -> String {
    let n = finding.denials.len();
    let count = if finding.more_hosts {
        format!("{n}+")
    } else {
        n.to_string()
    };
    match (locale, proven) {
        (Locale::En, true) => format!(
            "Claude Code's sandbox refused network access to {count} host(s): ask the user; \
             retrying or leaving the sandbox will not help"
        ),
        (Locale::En, false) => format!(
            "The output ends with a sandbox network block ({count} host(s)), which a program \
             can print too: ask the user"
        ),
        (Locale::ZhCn, true) => format!(
            "Claude Code 的沙箱拒绝了对 {count} 个主机的网络访问：请询问用户；重试或离开沙箱都无济于事"
        ),
        (Locale::ZhCn, false) => {
            format!("输出以沙箱网络块结尾（{count} 个主机），程序也能打印同样的块：请询问用户")
        }
    }
}

/// Why a forgeable block is not taken for the sandbox's, in English.
const HEDGED: &str = "Why this is not certain: a command can print this block byte for byte, \
    and the hook receives it exactly as it would the sandbox's. Recorded with Claude Code \
    2.1.332 (`control-prints-violations-exit1` and `-exit0`): a script that prints it and exits \
    1 gives `Exit code 1`, its output, the block; one that exits 0 gives it in the success's \
    output. Claude Code's report tells the two apart only for a call that exited 0: it sends \
    the command's stdout and stderr together in `stdout`, and its own `stderr` field holds \
    only what Claude Code wrote, the real block (`sandbox-curl-exit0`). A failure's `error` is \
    one string, so nothing in it does.";

/// What the hook's reading of Claude Code's settings said, in English.
fn settings(env: &Environment) -> Option<&'static str> {
    let settings = env.checks.claude_sandbox.as_ref()?;
    Some(match settings.enabled {
        Some(true) => {
            "Claude Code's settings, as the hook read them (user, project, local, managed), \
             turn the sandbox on and do not allow the refused host(s): consistent with a real \
             refusal, not a proof of one."
        }
        None => {
            "Claude Code's settings could not all be read, so they neither prove nor refute it."
        }
        // Refuted before any advisory is built.
        Some(false) => return None,
    })
}

/// The full account, in English.
fn detail(finding: &Finding, env: &Environment, proven: bool) -> String {
    let host = env.host.kind;
    let mut out: Vec<String> = Vec::with_capacity(40);
    out.push(
        "Claude Code runs each Bash command in its sandbox. A sandboxed command has no \
         network of its own: it reaches the network only through a proxy that Claude Code \
         runs outside the sandbox, which lets a connection through only to a host the user \
         has allowed (or approves when asked) and refuses every other host. For each refusal the \
         sandbox writes a line into a block it appends to the command's output."
            .to_owned(),
    );
    out.push(String::new());
    out.push(format!(
        "The block held {} refusal line(s) for {} distinct host(s){}, each quoted once below \
         as it was reported (a tool that retries writes one line per attempt, as npm did in \
         the measurement below):",
        finding.attempts,
        finding.denials.len(),
        if finding.more_hosts {
            format!(", more than the {MAX_HOSTS} kept")
        } else {
            String::new()
        }
    ));
    out.push(evidence(finding).quote_block().to_string());
    if finding.other_lines > 0 {
        out.push(format!(
            "{} other line(s) of the block report a refusal that is not about the network \
             (a file access, for example); this advisory leaves them aside.",
            finding.other_lines
        ));
    }
    out.push(String::new());
    if proven {
        out.push(
            "Why this proves the cause: Claude Code sent this block in its own `stderr` field \
             of a call that exited 0. A command's stdout and stderr both arrive in `stdout` \
             there, so no command can write into that field (recorded: `sandbox-curl-exit0` \
             against `control-prints-violations-exit0`). The command's own error is only a \
             symptom (curl reports a failed CONNECT tunnel with status 403, npm a 403)."
                .to_owned(),
        );
    } else {
        out.push(HEDGED.to_owned());
        if let Some(read) = settings(env) {
            out.push(read.to_owned());
        }
        out.push(
            "So this advisory offers no host for the allow list and no way out of the \
             sandbox: a name a program printed must never become the user's remedy, and the \
             user's own prompt (or `/sandbox`) is where a real refusal is settled."
                .to_owned(),
        );
    }
    if finding.carrier == Carrier::Success {
        out.push(
            "The command exited 0 anyway: it may have fallen back, skipped a step or \
             reported the refusal as a warning, so its result may be incomplete."
                .to_owned(),
        );
    }
    out.push(String::new());
    out.push(
        "Why neither a retry nor leaving the sandbox: the filter decides by host, so the \
         same host is refused on every retry, and another command or tool for that host \
         meets the same proxy. Claude Code's own system prompt tells the model to retry \
         outside the sandbox when it sees evidence of a sandbox restriction. For a refused \
         host that would take the decision about what commands may reach away from the user, \
         and it would drop every other protection the sandbox gives that command (its \
         filesystem limits included). The model should stop and ask the user."
            .to_owned(),
    );
    let remedies: Vec<(HostRemedy, &str)> = remedies(finding, env)
        .iter()
        .filter_map(|&r| host.remedy_detail(r).map(|text| (r, text)))
        .collect();
    if !remedies.is_empty() {
        out.push(String::new());
        out.push("What the user can do:".to_owned());
    }
    for (remedy, text) in remedies {
        match remedy {
            HostRemedy::AllowNetworkHost => {
                out.push(format!("- {text}"));
                let (names, refused) = values(finding, MAX_HOSTS);
                out.push("  The name(s) to add, if the user trusts them:".to_owned());
                out.extend(names.iter().map(|n| format!("    {n}")));
                if let Some(why) = refused {
                    out.push(format!(
                        "  `<host>` stands for a refused name that is not written out as a \
                         value ({why}); read it in the quoted lines, and check it before \
                         allowing it."
                    ));
                }
            }
            HostRemedy::EscalateOneCommand => {
                out.push(format!(
                    "- Leaving the sandbox is the user's decision only. {text}"
                ));
            }
            _ => out.push(format!("- {text}")),
        }
    }
    out.push(String::new());
    out.push(
        "Measured: Claude Code 2.1.332 on Debian 12 with its sandbox on. \
         `curl -sS https://example.com` failed with exit code 56, curl's CONNECT 403 line and \
         a block of one line for example.com:443 with the reason `user denied`; \
         `npm view is-number version` printed npm's 403 and one block line per attempt for \
         the registry's host. A write outside the project printed `Read-only file system` and \
         no block. (The curl and write cases are recorded as the hook payloads \
         `sandbox-curl-example` and `sandbox-write-outside`; the npm case was measured by hand.)"
            .to_owned(),
    );
    out.push(String::new());
    out.push(
        "Where this stops: the block says which hosts were refused and why. It does not say \
         whether the user wants them reachable, nor whether the task can do without them."
            .to_owned(),
    );
    let mut text = out.join("\n");
    text.push('\n');
    text
}
