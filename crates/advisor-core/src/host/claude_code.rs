//! Claude Code's table: the `sandbox` block of its settings files, the
//! `/sandbox` panel, and the per-call way out through its permission gate.

use super::{HostRemedy, Row};

/// Claude Code's wording of `remedy`, or `None` where it has no such knob.
pub(super) fn row(remedy: HostRemedy) -> Option<&'static Row> {
    Some(match remedy {
        HostRemedy::AllowNetworkHost => &Row {
            en: "If the user trusts the host, they add it to `sandbox.network.allowedDomains` \
                 in `.claude/settings.json` (or approve it when Claude Code asks), then the \
                 command is run again.",
            zh_cn: "若用户信任该主机，可将其加入 `.claude/settings.json` 的 \
                    `sandbox.network.allowedDomains`（或在 Claude Code 询问时批准），然后再运行该命令。",
            detail: "The sandbox's proxy lets a command reach only the domains listed in \
                     `sandbox.network.allowedDomains` (project `.claude/settings.json`, or the \
                     user's settings); a domain the user approves at Claude Code's network \
                     prompt is let through as well. Adding a domain is the user's decision: it \
                     widens what every sandboxed command may reach.",
        },
        HostRemedy::SandboxSettings => &Row {
            en: "The user can review the sandbox's settings in Claude Code's `/sandbox` panel.",
            zh_cn: "用户可在 Claude Code 的 `/sandbox` 面板中查看和修改沙箱设置。",
            detail: "Claude Code's `/sandbox` panel shows whether the sandbox is on and what it \
                     allows; the same settings live under the `sandbox` key of \
                     `.claude/settings.json`.",
        },
        HostRemedy::WeakerNestedSandbox => &Row {
            en: "Inside a container that cannot give bubblewrap a namespace of its own, the \
                 user can set `sandbox.enableWeakerNestedSandbox: true` in \
                 `.claude/settings.json`; it confines less.",
            zh_cn: "若在无法为 bubblewrap 提供独立命名空间的容器中运行，用户可在 \
                    `.claude/settings.json` 中设置 `sandbox.enableWeakerNestedSandbox: true`；\
                    其隔离较弱。",
            detail: "`sandbox.enableWeakerNestedSandbox: true` in `.claude/settings.json` lets \
                     Claude Code's sandbox run where a nested user namespace or a fresh /proc \
                     cannot be made, typically inside an unprivileged container. It confines \
                     less than the normal sandbox, so it is for a container that is itself the \
                     boundary.",
        },
        HostRemedy::ExtraWritableRoot => &Row {
            en: "To let sandboxed commands write another path, the user adds it to \
                 `sandbox.filesystem.allowWrite` in `.claude/settings.json`.",
            zh_cn: "若要让沙箱内的命令写入其他路径，用户可将其加入 `.claude/settings.json` 的 \
                    `sandbox.filesystem.allowWrite`。",
            detail: "`sandbox.filesystem.allowWrite` in `.claude/settings.json` lists paths \
                     outside the working directory that sandboxed commands may write; \
                     `sandbox.excludedCommands` runs named commands outside the sandbox \
                     altogether.",
        },
        HostRemedy::EscalateOneCommand => &Row {
            en: "Running one command unsandboxed goes through the user's permission prompt; \
                 where `sandbox.allowUnsandboxedCommands` is false it is refused.",
            zh_cn: "单条命令不经沙箱运行需经用户的权限确认；若 \
                    `sandbox.allowUnsandboxedCommands` 为 false，则会被拒绝。",
            detail: "A Bash call with `dangerouslyDisableSandbox` runs outside the sandbox only \
                     after the user's permission prompt approves it, and never where \
                     `sandbox.allowUnsandboxedCommands` is false. It drops every protection the \
                     sandbox gives that command, so it is the user's decision, not the model's.",
        },
        HostRemedy::WritableTempDir => &Row {
            en: "Claude Code sets `$TMPDIR` to a directory its sandbox keeps writable; `/tmp` \
                 itself is not.",
            zh_cn: "Claude Code 会把 `$TMPDIR` 设为其沙箱保持可写的目录；`/tmp` 本身不可写。",
            detail: "For every sandboxed command Claude Code sets `$TMPDIR` (and \
                     `CLAUDE_TMPDIR`) to a directory of its own under the system temp \
                     directory, which its sandbox keeps writable; `/tmp` itself is read-only \
                     there. A cache or a build output pointed at `$TMPDIR` (or into the \
                     working directory) is written without any change to the sandbox.",
        },
        HostRemedy::ThroughSandboxProxy => &Row {
            en: "Claude Code's sandbox lets a connection out only through its own proxy, \
                 which it names in `HTTPS_PROXY` and `HTTP_PROXY` for every command; a \
                 program that connects directly is refused whatever the allow list says.",
            zh_cn: "Claude Code 的沙箱只允许经由它自己的代理向外连接（它在每条命令的 \
                    `HTTPS_PROXY` 与 `HTTP_PROXY` 中给出该代理）；直接连接的程序无论允许列表如何都会被拒绝。",
            detail: "With its network restricted, Claude Code's sandbox allows outbound \
                     connections only to the local ports of its own HTTP and SOCKS proxies \
                     and sets `HTTPS_PROXY`, `HTTP_PROXY` and `ALL_PROXY` for the command; \
                     the proxy then applies `sandbox.network.allowedDomains`. A program that \
                     ignores those variables connects directly and is refused by the \
                     sandbox itself (on macOS, Seatbelt's `network-outbound` rule), whatever \
                     the allow list holds. Source: anthropics/sandbox-runtime, \
                     src/sandbox/macos-sandbox-utils.ts (read in source only).",
        },
        HostRemedy::ShellWithoutPseudoConsole
        | HostRemedy::ReplacePersistentShell
        | HostRemedy::SandboxedBusyboxShell
        | HostRemedy::HomeOutsideTemp
        | HostRemedy::InstallSandboxTool
        | HostRemedy::CommandPolicy
        | HostRemedy::WholeClientSandbox
        | HostRemedy::WorkspaceWriteMode => return None,
    })
}
