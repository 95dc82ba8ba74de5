//! The brief the model receives: that the sandbox keeps the network off (or,
//! on macOS, lets it out only through its proxy), what the words prove, the
//! producer's line quoted, the check, the ways through (each the user's
//! decision), what not to do, and where the full account is.
//!
//! One structure, one set of sentences per locale ([`Words`]). The line is
//! the program's text and appears only in a `> ` quote block; sentences
//! that name a client's configuration come from its host table.

use advisor_core::brief::{ExplainInput, fill, full_account};
use advisor_core::{Environment, HostRemedy, Locale};

use crate::facts::{Network, Off, network};
use crate::recognize::{Finding, Refusal};

/// The sentences of the brief in one locale.
pub(crate) struct Words {
    pub lead_read_only: &'static str,
    pub lead_workspace_write: &'static str,
    pub lead_seatbelt: &'static str,
    pub socket: &'static str,
    pub connect: &'static str,
    pub unreachable: &'static str,
    pub evidence: &'static str,
    pub check_socket: &'static str,
    pub check_config: &'static str,
    pub check_read_only: &'static str,
    pub check_seatbelt: &'static str,
    pub through_proxy: &'static str,
    pub ways: &'static str,
    pub ask: &'static str,
    pub model: &'static str,
    pub model_seatbelt: &'static str,
}

const EN: Words = Words {
    lead_read_only: "Codex runs this session under `read-only`, where its sandbox gives \
                     commands no network at all.",
    lead_workspace_write: "Codex runs this session under `workspace-write` without network \
                           access: its sandbox's seccomp filter refuses every network socket.",
    lead_seatbelt: "Claude Code's sandbox refused this command's direct network connection \
                    (macOS, Seatbelt). {row}",
    socket: "The program's socket was refused as it was created, which only a sandbox filter \
             does. Retrying cannot help, and waiting will not change it.",
    connect: "The program's connection was refused with EPERM. Retrying cannot help.",
    unreachable: "The program could not resolve a name or connect: with the network off, that \
                  is all a command sees. Retrying cannot help.",
    evidence: "What was reported:",
    check_socket: "Check: outside the sandbox, this host lets this user create the same socket \
                   (the advisor tried one, without connecting).",
    check_config: "Check: the mode is `workspace-write`{mode_source}, and Codex's configuration \
                   files leave `sandbox_workspace_write.network_access` unset or false.",
    check_read_only: "Check: the mode is `read-only`{mode_source}.",
    check_seatbelt: "Check: Claude Code's settings turn its sandbox on, and the line is the \
                     sandbox's own, in the block Claude Code appends.",
    through_proxy: "- Through the proxy (drop an option that bypasses it, or use a program that \
                    honours `HTTPS_PROXY`) the allow list applies. {row}",
    ways: "Ways through, each the user's decision:",
    ask: "- Or the user runs the command themselves.",
    model: "For you: do not retry, and do not look for another way to the network (another \
            tool, a proxy of your own); tell the user the command needs the network and why, \
            and go on with work that does not.",
    model_seatbelt: "For you: do not retry the direct connection or look for a way around the \
                     sandbox; go through its proxy, or tell the user the command needs this host \
                     and why.",
};

const ZH_CN: Words = Words {
    lead_read_only: "Codex 在 `read-only` 下运行本会话，此时其沙箱完全不给命令网络。",
    lead_workspace_write: "Codex 在未开启网络访问的 `workspace-write` 下运行本会话：\
                           其沙箱的 seccomp 过滤器拒绝一切网络套接字。",
    lead_seatbelt: "Claude Code 的沙箱拒绝了该命令的直接网络连接（macOS，Seatbelt）。{row}",
    socket: "该程序的套接字在创建时即被拒绝，只有沙箱过滤器会这样做。重试无济于事，等待也不会改变。",
    connect: "该程序的连接以 EPERM 被拒绝。重试无济于事。",
    unreachable: "该程序无法解析域名或建立连接：网络关闭时命令只能看到这些。重试无济于事。",
    evidence: "报告内容：",
    check_socket: "核对：在沙箱之外，本机允许该用户创建同样的套接字（顾问试建了一个，未连接）。",
    check_config: "核对：模式为 `workspace-write`{mode_source}，且 Codex 的配置文件未开启 \
                   `sandbox_workspace_write.network_access`。",
    check_read_only: "核对：模式为 `read-only`{mode_source}。",
    check_seatbelt: "核对：Claude Code 的设置开启了其沙箱，且该行是沙箱自己的记录，位于 Claude Code 附加的区块中。",
    through_proxy: "- 经由代理（去掉绕过代理的选项，或改用遵循 `HTTPS_PROXY` 的程序）时，允许列表才会生效。{row}",
    ways: "可行的办法（均由用户决定）：",
    ask: "- 或由用户自己运行该命令。",
    model: "对你而言：不要重试，也不要另找途径联网（换工具、自建代理）；\
            告诉用户该命令需要网络以及原因，并继续不需要网络的工作。",
    model_seatbelt: "对你而言：不要重试这次直接连接，也不要设法绕过沙箱；改经由其代理，\
                     或告诉用户该命令需要访问这个主机以及原因。",
};

pub(crate) fn words(locale: Locale) -> &'static Words {
    match locale {
        Locale::En => &EN,
        Locale::ZhCn => &ZH_CN,
    }
}

/// The brief, in the environment's locale.
pub fn brief(finding: &Finding, env: &Environment) -> String {
    let w = words(env.locale);
    let host = env.host.kind;
    if host == advisor_core::Host::GeminiCli {
        return gemini(finding, env);
    }
    let row = |remedy| host.remedy(remedy, env.locale);
    let mut lines: Vec<String> = Vec::with_capacity(20);
    let off = match network(env) {
        Ok(Network::Off(off)) => Some(off),
        _ => None,
    };
    if finding.refusal == Refusal::Seatbelt {
        let proxy = row(HostRemedy::ThroughSandboxProxy).unwrap_or_default();
        lines.push(
            fill(w.lead_seatbelt, &[("row", proxy)])
                .trim_end()
                .to_owned(),
        );
    } else {
        lines.push(
            match off {
                Some(Off::ReadOnlyMode) => w.lead_read_only,
                _ => w.lead_workspace_write,
            }
            .to_owned(),
        );
        lines.push(
            match finding.refusal {
                Refusal::SocketCreation => w.socket,
                Refusal::ConnectEperm => w.connect,
                Refusal::Unreachable | Refusal::Seatbelt | Refusal::ConnectRefused => w.unreachable,
            }
            .to_owned(),
        );
    }
    lines.push(String::new());
    lines.push(w.evidence.to_owned());
    lines.push(finding.line.quote_block().to_string());
    lines.push(String::new());
    let source = if env.mode().is_ok() {
        ""
    } else {
        " (`sandbox_mode`)"
    };
    lines.push(match (finding.refusal, env.checks.inet_socket, off) {
        (Refusal::Seatbelt, _, _) => w.check_seatbelt.to_owned(),
        (Refusal::SocketCreation, Some(true), _) => w.check_socket.to_owned(),
        (_, _, Some(Off::ReadOnlyMode)) => fill(w.check_read_only, &[("mode_source", source)]),
        _ => fill(w.check_config, &[("mode_source", source)]),
    });
    lines.push(String::new());
    lines.push(w.ways.to_owned());
    if finding.refusal == Refusal::Seatbelt {
        let allow = row(HostRemedy::AllowNetworkHost).unwrap_or_default();
        lines.push(fill(w.through_proxy, &[("row", allow)]));
    }
    let rows: &[HostRemedy] = match (finding.refusal, off) {
        (Refusal::Seatbelt, _) => &[HostRemedy::EscalateOneCommand],
        (_, Some(Off::ReadOnlyMode)) => &[
            HostRemedy::WorkspaceWriteMode,
            HostRemedy::AllowNetworkHost,
            HostRemedy::EscalateOneCommand,
        ],
        _ => &[HostRemedy::AllowNetworkHost, HostRemedy::EscalateOneCommand],
    };
    remedies(&mut lines, env, rows);
    lines.push(String::new());
    lines.push(
        if finding.refusal == Refusal::Seatbelt {
            w.model_seatbelt
        } else {
            w.model
        }
        .to_owned(),
    );
    lines.push(String::new());
    lines.push(full_account(env, ExplainInput::Message(&finding.line)));
    let mut text = lines.join("\n");
    text.push('\n');
    text
}

/// Gemini CLI's brief: its tool sandbox keeps the network off in this run's
/// mode, Gemini marked the failure, the line, the check, and what the user
/// may approve (from Gemini's remedy table).
/// The host's rows for `rows` as a list, then that the user may also run the
/// command.
fn remedies(lines: &mut Vec<String>, env: &Environment, rows: &[HostRemedy]) {
    lines.extend(
        rows.iter()
            .filter_map(|r| env.host.kind.remedy(*r, env.locale))
            .map(|r| format!("- {r}")),
    );
    lines.push(words(env.locale).ask.to_owned());
}

fn gemini(finding: &Finding, env: &Environment) -> String {
    let w = words(env.locale);
    let g = crate::gemini::words(env.locale);
    let mut lines: Vec<String> = Vec::with_capacity(16);
    let headless = env
        .checks
        .gemini_session
        .is_some_and(|s| s.run == advisor_core::GeminiRun::Headless);
    lines.push(match headless {
        true => fill(g.lead, &[("mode", crate::gemini::mode(env))]),
        false => g.lead_interactive.to_owned(),
    });
    lines.push(match finding.marked {
        true => g.marked.to_owned(),
        false => g.unmarked.to_owned(),
    });
    lines.push(String::new());
    lines.push(w.evidence.to_owned());
    lines.push(finding.line.quote_block().to_string());
    lines.push(String::new());
    lines.push(match (headless, finding.marked) {
        (true, true) => g.check.to_owned(),
        (false, _) => fill(g.check_settings, &[("facts", g.facts_interactive)]),
        (true, false) => fill(g.check_settings, &[("facts", g.facts_unmarked)]),
    });
    lines.push(String::new());
    lines.push(w.ways.to_owned());
    // Gemini proposes an expansion only for what it marked: to an unmarked
    // failure it shows no dialog, and the brief does not promise one.
    let rows: &[HostRemedy] = match finding.marked {
        true => &[HostRemedy::AllowNetworkHost, HostRemedy::EscalateOneCommand],
        false => &[HostRemedy::AllowNetworkHost],
    };
    remedies(&mut lines, env, rows);
    lines.push(String::new());
    lines.push(g.model.to_owned());
    lines.push(String::new());
    lines.push(full_account(env, ExplainInput::Message(&finding.line)));
    let mut text = lines.join("\n");
    text.push('\n');
    text
}
