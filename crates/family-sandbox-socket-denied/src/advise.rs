//! The advisory: the brief ([`crate::brief`]) as its text, and the full
//! account, always in English: the mechanism and its source, what the words
//! prove and what the advisor checked, the ways through with the host's own
//! words, what will not work, and where the account stops.

use advisor_core::{Advisory, Environment, HostRemedy, Locale};

use crate::ID;
use crate::facts::{Network, Off, network};
use crate::recognize::{Finding, Refusal, Runtime};

/// Builds the advisory for a refused socket or a network kept off.
pub fn advise(finding: &Finding, env: &Environment) -> Advisory {
    let gemini = env.host.kind == advisor_core::Host::GeminiCli;
    let summary = match (env.locale, finding.refusal) {
        (Locale::En, _) if gemini => "Gemini CLI's tool sandbox keeps the network off in this \
            run's approval mode: retrying cannot help; the user decides whether to grant it"
            .to_owned(),
        (Locale::ZhCn, _) if gemini => {
            "Gemini CLI 的工具沙箱在本次运行的审批模式下关闭了网络：重试无济于事；是否授予由用户决定"
                .to_owned()
        }
        (Locale::En, Refusal::Seatbelt) => "Claude Code's sandbox refused a direct network \
            connection: only its proxy is let out; the user decides what to allow"
            .to_owned(),
        (Locale::En, _) => "Codex's sandbox keeps the network off in this session: retrying \
            cannot help; the user decides whether to turn it on"
            .to_owned(),
        (Locale::ZhCn, Refusal::Seatbelt) => {
            "Claude Code 的沙箱拒绝了直接网络连接：只放行其代理；允许什么由用户决定".to_owned()
        }
        (Locale::ZhCn, _) => {
            "Codex 的沙箱在本会话中关闭了网络：重试无济于事；是否开启由用户决定".to_owned()
        }
    };
    Advisory::new(ID, &summary, crate::brief::brief(finding, env)).with_detail(detail(finding, env))
}

fn runtime(runtime: Runtime) -> &'static str {
    match runtime {
        Runtime::Python => "Python",
        Runtime::Ssh => "ssh",
        Runtime::Node => "Node",
        Runtime::Wget => "wget",
        Runtime::Curl => "curl",
        Runtime::Git => "git",
        Runtime::Npm => "npm",
        Runtime::Seatbelt => "macOS's sandbox (Seatbelt)",
    }
}

/// What the advisor read of Gemini CLI's session, for the detail.
fn gemini_checked(finding: &Finding, env: &Environment) -> Vec<String> {
    let headless = env
        .checks
        .gemini_session
        .is_some_and(|s| s.run == advisor_core::GeminiRun::Headless);
    let mut out = Vec::with_capacity(3);
    out.push(match headless {
        true => format!(
            "- Gemini CLI's command line (read from /proc by the hook) starts a headless run \
             (-p) {}; yolo, the one mode whose sandbox gives the network, is set only on the \
             command line, and a headless run cannot change mode.",
            crate::gemini::mode(env)
        ),
        false => "- Gemini CLI's command line (read from /proc by the hook) sets no yolo mode, \
             and its settings forbid yolo mode (security.disableYoloMode or \
             admin.secureModeEnabled, read from the settings files as Gemini merges them), so \
             no mode this interactive session switches to gives the network."
            .to_owned(),
    });
    if !finding.marked {
        out.push(
            "- Gemini CLI's settings (system defaults, ~/.gemini/settings.json, the trusted \
             workspace's .gemini/settings.json, /etc/gemini-cli/settings.json, merged as \
             Gemini merges them) turn security.toolSandboxing on, and neither they \
             (tools.sandbox), the environment (GEMINI_SANDBOX, SANDBOX) nor the command line \
             (-s) put the whole CLI in a sandbox of its own: the command ran in the tool \
             sandbox, which Gemini does not mark for this failure."
                .to_owned(),
        );
    }
    out.push("- There is no ~/.gemini/policies/sandbox.toml to change the modes.".to_owned());
    out
}

/// The full account, in English.
fn detail(finding: &Finding, env: &Environment) -> String {
    let host = env.host.kind;
    let mut out: Vec<String> = Vec::with_capacity(32);
    let gemini = host == advisor_core::Host::GeminiCli;
    out.push(match finding.refusal {
        _ if gemini => "Gemini CLI's tool sandbox on Linux runs each shell command under \
            bubblewrap with every namespace unshared; outside yolo mode it does not share the \
            network (policies/sandbox-default.toml in its 0.61.0 bundle, read in source), so a \
            command reaches nothing but its own loopback: a connection is refused, and a name does \
            not resolve. Gemini marks the result sandbox_expansion_required and proposes a \
            network expansion. Recorded with Gemini CLI 0.61.0 in \
            docs/hooks/gemini-cli/python-connect and npm-view."
            .to_owned(),
        Refusal::Seatbelt => "Claude Code's sandbox on macOS is Seatbelt (sandbox-exec). With its \
            network restricted it allows outbound connections only to its own proxies' local \
            ports, and logs any other connection it refuses; Claude Code appends the log lines \
            to the output in a <sandbox_violations> block. Source: anthropics/sandbox-runtime, \
            src/sandbox/macos-sandbox-utils.ts and sandbox-manager.ts (read in source only; no \
            Mac ran this advisory)."
            .to_owned(),
        _ => "Codex's sandbox on Linux runs each command under bubblewrap with a seccomp \
            filter. Under `read-only`, and under `workspace-write` unless \
            `sandbox_workspace_write.network_access` is true, the filter refuses every socket \
            but a Unix one with EPERM: a program sees 'Operation not permitted' when it \
            creates a socket, or fails to resolve a name (the resolver's own socket is refused \
            the same way). Recorded with Codex 0.171.0 in docs/hooks/codex/network-*."
            .to_owned(),
    });
    out.push(String::new());
    out.push(format!("What {} reported:", runtime(finding.runtime)));
    out.push(finding.line.quote_block().to_string());
    out.push(String::new());
    out.push("What the words prove, and what the advisor checked:".to_owned());
    out.push(match finding.refusal {
        Refusal::SocketCreation => "- The socket was refused as it was created (EPERM from \
            socket()). Outside a sandbox only a seccomp filter or a security module does that; \
            a firewall refuses packets, not sockets."
            .to_owned(),
        Refusal::ConnectEperm => "- The connection was refused with EPERM. A seccomp filter \
            does that, and so does a host firewall that drops the packet, so the words alone \
            do not say which."
            .to_owned(),
        Refusal::Unreachable => "- A name did not resolve, or the connection was not made. An \
            offline machine prints the same, so the words alone prove nothing about the \
            sandbox."
            .to_owned(),
        Refusal::ConnectRefused => "- The connection was refused (ECONNREFUSED). Any closed \
            port says the same; Gemini CLI's own mark, in a field no command's output reaches, \
            says its sandbox refused the command."
            .to_owned(),
        Refusal::Seatbelt => "- The line is Seatbelt's own refusal of a network-outbound \
            operation, in the block Claude Code appends; a program can print such a block too."
            .to_owned(),
    });
    if gemini && finding.marked && finding.refusal != Refusal::ConnectRefused {
        out.push(
            "- Gemini CLI itself marked the result as its sandbox's refusal, in a field no \
             command's output reaches."
                .to_owned(),
        );
    }
    if env.checks.inet_socket == Some(true) {
        out.push(
            "- Outside the sandbox, the hook created an inet socket as this user and closed it \
             without connecting: the host itself does not refuse sockets."
                .to_owned(),
        );
    }
    if gemini {
        out.extend(gemini_checked(finding, env));
    }
    match network(env) {
        _ if gemini => {}
        Ok(Network::Off(Off::ReadOnlyMode)) => out.push(
            "- The session runs under `read-only` (the stated mode, else `sandbox_mode` of \
             Codex's configuration), which gives commands no network."
                .to_owned(),
        ),
        Ok(Network::Off(Off::NoNetworkAccess)) => out.push(
            "- The session runs under `workspace-write`, and Codex's configuration files \
             (user and trusted project) leave `sandbox_workspace_write.network_access` unset \
             or false."
                .to_owned(),
        ),
        _ => {}
    }
    out.push(String::new());
    out.push("Ways through, each the user's decision:".to_owned());
    let rows: &[HostRemedy] = match finding.refusal {
        // No expansion dialog follows a failure Gemini did not mark, and a
        // line any program can print names no setting that would loosen the
        // sandbox: only Gemini's mark is provenance.
        _ if gemini && !finding.marked => &[HostRemedy::AllowNetworkHost],
        _ if gemini => &[
            HostRemedy::AllowNetworkHost,
            HostRemedy::EscalateOneCommand,
            HostRemedy::SandboxSettings,
        ],
        Refusal::Seatbelt => &[
            HostRemedy::ThroughSandboxProxy,
            HostRemedy::AllowNetworkHost,
            HostRemedy::EscalateOneCommand,
        ],
        _ => &[
            HostRemedy::WorkspaceWriteMode,
            HostRemedy::AllowNetworkHost,
            HostRemedy::EscalateOneCommand,
        ],
    };
    out.extend(
        rows.iter()
            .filter_map(|r| host.remedy_detail(*r))
            .map(|t| format!("- {t}")),
    );
    out.push("- The user runs the command themselves, outside the client.".to_owned());
    out.push(String::new());
    out.push("What will not work:".to_owned());
    out.push(
        "- Retrying, waiting, another tool, or a proxy started inside the sandbox: every \
         process in it is under the same filter."
            .to_owned(),
    );
    out.push(String::new());
    if gemini {
        out.push(
            "Where this stops: the hook reads Gemini CLI's command line and its settings \
             files, not the permissions of the proposed expansion nor remote admin settings; \
             a file it cannot read, or a workspace file whose trust it cannot tell, leaves \
             the fact unknown, and then it speaks only on a result Gemini marked in a \
             headless run. An interactive session can change its mode at any time, so there \
             the advisor speaks only when the settings forbid yolo mode, and never on a \
             failure Gemini did not mark (the user may have granted a command the network \
             for the session)."
                .to_owned(),
        );
        return out.join("\n");
    }
    out.push(
        "Where this stops: a hook cannot see the client's command line (Codex's `-c \
         sandbox_workspace_write.network_access=true`, `--sandbox`); the stated mode \
         (`--mode`) and the configuration files stand for it. An offline machine and a \
         sandbox with the network off print the same resolver errors; for those the advisor \
         relies on the configuration alone."
            .to_owned(),
    );
    out.join("\n")
}
