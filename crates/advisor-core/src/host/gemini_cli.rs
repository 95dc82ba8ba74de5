//! Gemini CLI's table: its per-command tool sandbox (`security.toolSandboxing`,
//! bubblewrap on Linux), the sandbox expansion it asks the user to approve, its
//! policy engine, extra directories, and the whole-CLI sandbox (`-s`,
//! `GEMINI_SANDBOX`). Facts from `@google/gemini-cli@0.61.0` as run here
//! (`docs/hooks/gemini-cli/`), or read in its shipped bundle where a row says so.

use super::{HostRemedy, Row};

/// Gemini CLI's wording of `remedy`, or `None` where it has no such knob.
pub(super) fn row(remedy: HostRemedy) -> Option<&'static Row> {
    Some(match remedy {
        HostRemedy::SandboxSettings => &Row {
            en: "Gemini CLI's per-command sandbox is `security.toolSandboxing` in \
                 `~/.gemini/settings.json` (or the project's `.gemini/settings.json`); a change \
                 needs a restart.",
            zh_cn: "Gemini CLI 的逐命令沙箱由 `~/.gemini/settings.json`（或项目的 \
                    `.gemini/settings.json`）中的 `security.toolSandboxing` 控制；修改后需重启。",
            detail: "`security.toolSandboxing: true` runs each shell command of Gemini CLI \
                     through bubblewrap on Linux: the root file system read-only, the \
                     workspace writable, `.git` writable only to commands whose root is `git`, \
                     a fresh `/tmp`, network off in the default approval mode, and a seccomp \
                     filter that refuses `ptrace`. It is read at startup, so a change needs a \
                     restart. Turning it off removes that confinement, which only the user may \
                     decide.",
        },
        HostRemedy::EscalateOneCommand => &Row {
            en: "Gemini CLI asks the user to approve a sandbox expansion for the command; the \
                 user should approve it only if it grants what was refused.",
            zh_cn: "Gemini CLI 会请用户批准该命令的沙箱扩展；仅当其授予的正是被拒绝的权限时才应批准。",
            detail: "When Gemini CLI marks a result `sandbox_expansion_required`, it proposes \
                     additional permissions (paths to read or write, network) and shows an \
                     approval dialog; \"Allow once\" runs the command again with them. It takes \
                     the paths from the output's text, the first absolute path it finds, so on \
                     Linux it often proposes the wrong ones (the wrapper's `/usr/bin` and temp \
                     directory) and asks again after each run. A headless run (`-p`) cannot \
                     show the dialog and waits for it without end.",
        },
        HostRemedy::ExtraWritableRoot => &Row {
            en: "To let sandboxed commands write another directory, the user lists it in \
                 `tools.sandboxAllowedPaths` in `~/.gemini/settings.json` and restarts Gemini \
                 CLI, or approves an expansion that names that path.",
            zh_cn: "若要让沙箱内的命令写入其他目录，用户可将其列入 `~/.gemini/settings.json` 的 \
                    `tools.sandboxAllowedPaths` 并重启 Gemini CLI，或批准一个正好指向该路径的沙箱扩展。",
            detail: "Gemini CLI 0.61.0 binds each path of `tools.sandboxAllowedPaths` writable \
                     into the tool sandbox (read in its bundle, `bwrapArgsBuilder`). A directory \
                     added with `--include-directories` (or `context.includeDirectories`) joins \
                     the workspace for Gemini's own tools but is bound read-only for shell \
                     commands (read in the bundle, not run here). An approved expansion grants \
                     its paths for that one run only.",
        },
        HostRemedy::AllowNetworkHost => &Row {
            en: "Network is off for sandboxed commands in Gemini CLI's default approval mode; \
                 where Gemini CLI proposes a network expansion for the command, the user may \
                 approve it. There is no list of allowed hosts.",
            zh_cn: "在 Gemini CLI 的默认审批模式下，沙箱内命令无法联网；若 Gemini CLI \
                    为该命令提出网络扩展，用户可以批准。它没有允许主机的列表。",
            detail: "Gemini CLI's sandbox modes (`sandbox-default.toml` among the policies in its \
                     bundle) give `default`, `plan` and `accepting_edits` no network, and yolo \
                     mode the network. An approved network expansion opens the whole network to \
                     that one run. Gemini proposes it only for the failures its keyword match \
                     recognizes (a refused connection, a failed name lookup); curl's exit 7 is \
                     not among them.",
        },
        HostRemedy::InstallSandboxTool => &Row {
            en: "Install bubblewrap (`bwrap`, Debian and Ubuntu package `bubblewrap`) where \
                 Gemini CLI runs, then restart it.",
            zh_cn: "请在运行 Gemini CLI 的主机上安装 bubblewrap（`bwrap`，Debian 与 Ubuntu 的软件包为 \
                    `bubblewrap`），然后重启 Gemini CLI。",
            detail: "With `security.toolSandboxing` on, Gemini CLI starts every shell command \
                     as `exec bwrap …` and never checks that `bwrap` exists: without it every \
                     command exits 127 and nothing else warns. Installing bubblewrap is the \
                     fix; turning `security.toolSandboxing` off instead runs every command \
                     unconfined, which only the user may choose.",
        },
        HostRemedy::CommandPolicy => &Row {
            en: "Which commands run without asking is set by Gemini CLI's policy rules \
                 (`~/.gemini/policies/*.toml`); a rule cannot widen the sandbox.",
            zh_cn: "哪些命令无需确认即可运行，由 Gemini CLI 的策略规则（`~/.gemini/policies/*.toml`）决定；\
                    规则不能放宽沙箱。",
            detail: "A policy rule (`toolName`, `commandPrefix` or `argsPattern`, `decision`, \
                     `priority`) decides whether a call runs, asks or is refused; headless runs \
                     refuse any call that would ask. It does not change what the sandbox lets \
                     a command do once it runs.",
        },
        HostRemedy::WholeClientSandbox => &Row {
            en: "Gemini CLI can instead run whole inside a container sandbox (`gemini -s`, or \
                 `GEMINI_SANDBOX=docker|podman`), with `security.toolSandboxing` off.",
            zh_cn: "Gemini CLI 也可以整体运行在容器沙箱中（`gemini -s`，或 \
                    `GEMINI_SANDBOX=docker|podman`），同时关闭 `security.toolSandboxing`。",
            detail: "The whole-CLI sandbox (`-s`, `GEMINI_SANDBOX`, `tools.sandbox`) runs \
                     Gemini CLI itself in a docker or podman container from its published image \
                     (or macOS Seatbelt), with the project mounted; the per-command bubblewrap \
                     sandbox and its seccomp filter are then not used. It needs a container \
                     runtime and the image; without them Gemini CLI stops at startup.",
        },
        HostRemedy::WeakerNestedSandbox => &Row {
            en: "Gemini CLI's tool sandbox has no weaker mode. Other ways: bubblewrap installed \
                 setuid root needs no user namespace (`sudo chmod u+s /usr/bin/bwrap`, for every \
                 user of the host); or Gemini CLI runs whole in a container sandbox (`gemini -s`, \
                 or `GEMINI_SANDBOX=docker|podman`) with `security.toolSandboxing` off.",
            zh_cn: "Gemini CLI 的工具沙箱没有较弱的模式。其他办法：以 setuid root 安装的 bubblewrap \
                    不需要用户命名空间（`sudo chmod u+s /usr/bin/bwrap`，对主机上所有用户生效）；\
                    或让 Gemini CLI 整体运行在容器沙箱中（`gemini -s`，或 \
                    `GEMINI_SANDBOX=docker|podman`），同时关闭 `security.toolSandboxing`。",
            detail: "Gemini CLI 0.61.0 starts each shell command as `exec bwrap --args 8 …` with \
                     `--unshare-all`, from `PATH`, as the user who runs it, and has no setting \
                     that makes bubblewrap skip the user namespace. As root, or installed setuid \
                     root, bubblewrap needs none: measured here with Debian's bwrap 0.8.0 and \
                     Gemini's own flags, as a user who could make no user namespace, a setuid \
                     copy ran the command where the packaged one printed the `ENOSPC` line (not \
                     run through Gemini CLI). A setuid bwrap is root's code run by every user, \
                     which is why Debian does not ship it so. The whole-CLI sandbox (`-s`, \
                     `GEMINI_SANDBOX`) needs a container runtime and Gemini's image, and confines \
                     Gemini CLI itself instead of each command.",
        },
        HostRemedy::ShellWithoutPseudoConsole
        | HostRemedy::ReplacePersistentShell
        | HostRemedy::SandboxedBusyboxShell
        | HostRemedy::HomeOutsideTemp
        | HostRemedy::WorkspaceWriteMode
        | HostRemedy::WritableTempDir
        | HostRemedy::ThroughSandboxProxy => return None,
    })
}
