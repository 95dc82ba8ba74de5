//! The advisory: the brief ([`crate::brief`]) as its text, and below it the
//! full account, always in English: how the sandbox's network filter works,
//! every refused host with its reason, why neither a retry nor leaving the
//! sandbox is the model's move, the remedies in the host's own words, what
//! was measured, and where the account stops.

use advisor_core::{Advisory, Environment, HostRemedy, Locale};

use crate::ID;
use crate::facts::{REMEDIES, evidence, values};
use crate::recognize::{Carrier, Finding, MAX_HOSTS};

/// Builds the advisory for a recognized block.
pub fn advise(finding: &Finding, env: &Environment) -> Advisory {
    Advisory::new(
        ID,
        &summary(finding, env.locale),
        crate::brief::brief(finding, env),
    )
    .with_detail(detail(finding, env))
}

/// The bounded one-line summary, in the locale.
fn summary(finding: &Finding, locale: Locale) -> String {
    let n = finding.denials.len();
    let count = if finding.more_hosts {
        format!("{n}+")
    } else {
        n.to_string()
    };
    match locale {
        Locale::En => format!(
            "Claude Code's sandbox refused network access to {count} host(s): ask the user; \
             retrying or leaving the sandbox will not help"
        ),
        Locale::ZhCn => format!(
            "Claude Code 的沙箱拒绝了对 {count} 个主机的网络访问：请询问用户；重试或离开沙箱都无济于事"
        ),
    }
}

/// The full account, in English.
fn detail(finding: &Finding, env: &Environment) -> String {
    let host = env.host.kind;
    let mut out: Vec<String> = Vec::with_capacity(40);
    out.push(
        "Claude Code runs each Bash command in its sandbox. A sandboxed command has no \
         network of its own: it reaches the network only through a proxy that Claude Code \
         runs outside the sandbox, which lets a connection through only to a host the user \
         has allowed (or approves when asked) and refuses every other host. For each refusal the \
         sandbox writes a line into a block it appends to the command's output. This \
         command's block refused:"
            .to_owned(),
    );
    for d in &finding.denials {
        out.push(format!(
            "- {}: reason as reported {}",
            d.target.inline(),
            d.reason.inline()
        ));
    }
    if finding.more_hosts {
        out.push(format!(
            "- and more: the block named more than {MAX_HOSTS} distinct hosts; the rest are \
             not listed here."
        ));
    }
    out.push(format!(
        "The block held {} refusal line(s) for {} distinct host(s): a tool that retries \
         writes one line per attempt (npm did, in the measurement below), so a host can \
         repeat; each is named once here.",
        finding.attempts,
        finding.denials.len()
    ));
    if finding.other_lines > 0 {
        out.push(format!(
            "{} other line(s) of the block report a refusal that is not about the network \
             (a file access, for example); this advisory leaves them aside.",
            finding.other_lines
        ));
    }
    out.push(String::new());
    out.push("The block's lines, one per refused host, as reported:".to_owned());
    out.push(evidence(finding).quote_block().to_string());
    out.push(String::new());
    out.push(
        "Why this proves the cause: the block is written by the sandbox itself, at the very \
         end of the output. The command's own error is only a symptom (curl reports a failed \
         CONNECT tunnel with status 403, npm a 403); the same symptom without the block is a \
         proxy or server elsewhere refusing, which this advisory does not claim."
            .to_owned(),
    );
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
         filesystem limits included). The model should stop and ask the user, naming the \
         host and why the task needs it."
            .to_owned(),
    );
    let remedies: Vec<(HostRemedy, &str)> = REMEDIES
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
                out.push(format!("  The name(s) to add: {}", names.join(", ")));
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
