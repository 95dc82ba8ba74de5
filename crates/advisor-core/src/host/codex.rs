//! Codex's table: its `--sandbox` modes, `config.toml` keys, extra writable
//! directories, and the per-command escalation its approval policy allows.

use super::{HostRemedy, Row};

/// Codex's wording of `remedy`, or `None` where it has no such knob.
pub(super) fn row(remedy: HostRemedy) -> Option<&'static Row> {
    Some(match remedy {
        HostRemedy::AllowNetworkHost => &Row {
            en: "Under `workspace-write`, network access is off unless the user starts Codex \
                 with `-c sandbox_workspace_write.network_access=true` (or sets it in \
                 `config.toml`).",
            zh_cn: "在 `workspace-write` 下网络默认关闭，除非用户以 \
                    `-c sandbox_workspace_write.network_access=true` 启动 Codex（或在 \
                    `config.toml` 中设置）。",
            detail: "Codex's `workspace-write` sandbox blocks network sockets unless \
                     `sandbox_workspace_write.network_access` is true, given with `-c` for one \
                     run or in `config.toml` under `[sandbox_workspace_write]`. It opens the \
                     network to every sandboxed command, not to one host.",
        },
        HostRemedy::SandboxSettings => &Row {
            en: "The user chooses the sandbox with `--sandbox read-only|workspace-write|\
                 danger-full-access` (or `sandbox_mode` in `config.toml`).",
            zh_cn: "用户可用 `--sandbox read-only|workspace-write|danger-full-access`（或 \
                    `config.toml` 的 `sandbox_mode`）选择沙箱模式。",
            detail: "Codex's sandbox mode is set per run with `--sandbox` or for every run with \
                     `sandbox_mode` in `config.toml`. `danger-full-access` and \
                     `--dangerously-bypass-approvals-and-sandbox` remove the confinement \
                     entirely, which only the user may choose.",
        },
        HostRemedy::ExtraWritableRoot => &Row {
            en: "To make another directory writable, the user starts Codex with `--add-dir \
                 <dir>` (or lists it in `sandbox_workspace_write.writable_roots`).",
            zh_cn: "若要让其他目录可写，用户可以 `--add-dir <dir>` 启动 Codex（或在 \
                    `sandbox_workspace_write.writable_roots` 中列出）。",
            detail: "`--add-dir <dir>` (or `writable_roots` under \
                     `[sandbox_workspace_write]` in `config.toml`) adds a writable root beside \
                     the workspace; the protected paths inside each writable root stay \
                     read-only.",
        },
        HostRemedy::EscalateOneCommand => &Row {
            en: "One command can ask to run outside the sandbox with `sandbox_permissions: \
                 \"require_escalated\"` and a justification; the user approves it, and under \
                 the approval policy `never` (as in `codex exec`) it cannot be asked.",
            zh_cn: "单条命令可带 `sandbox_permissions: \"require_escalated\"` 和理由申请在沙箱外运行，\
                    由用户批准；审批策略为 `never` 时（如 `codex exec`）无法申请。",
            detail: "An `exec_command` call may set `sandbox_permissions` to \
                     `require_escalated` with a `justification`; Codex then asks the user \
                     before running it unconfined. Under the approval policy `never`, which \
                     `codex exec` uses, there is nobody to ask and the request cannot succeed.",
        },
        HostRemedy::HomeOutsideTemp => &Row {
            en: "Keep `CODEX_HOME` (and `HOME`) outside the system temp directory: Codex does \
                 not create its sandbox helper there.",
            zh_cn: "请将 `CODEX_HOME`（以及 `HOME`）放在系统临时目录之外：Codex 不会在那里创建沙箱辅助程序。",
            detail: "Codex refuses to create its helper executables under the system temp \
                     directory; with `CODEX_HOME` there, bubblewrap finds no \
                     `codex-linux-sandbox` to start and every sandboxed command fails the same \
                     way. Moving `CODEX_HOME` (and `HOME`) elsewhere lets the helper be made.",
        },
        HostRemedy::WorkspaceWriteMode => &Row {
            en: "Under `read-only` no command may write, not even in the workspace; to let \
                 commands write the workspace, the user starts Codex with `--sandbox \
                 workspace-write` (or sets `sandbox_mode = \"workspace-write\"` in `config.toml`).",
            zh_cn: "在 `read-only` 下任何命令都不能写入，工作区也不例外；若要让命令写入工作区，\
                    用户可以 `--sandbox workspace-write` 启动 Codex（或在 `config.toml` 中设置 \
                    `sandbox_mode = \"workspace-write\"`）。",
            detail: "`read-only` mounts the whole filesystem read-only for sandboxed commands, \
                     the workspace included, and turns the network off. `--sandbox \
                     workspace-write` (or `sandbox_mode = \"workspace-write\"` in \
                     `config.toml`) makes the workspace, `/tmp` and `$TMPDIR` writable and \
                     keeps the rest read-only; the network stays off unless \
                     `sandbox_workspace_write.network_access` is true.",
        },
        HostRemedy::WritableTempDir => &Row {
            en: "Under `workspace-write`, `/tmp` and `$TMPDIR` stay writable (unless \
                 `exclude_slash_tmp` or `exclude_tmpdir_env_var` is set in \
                 `[sandbox_workspace_write]`).",
            zh_cn: "在 `workspace-write` 下，`/tmp` 和 `$TMPDIR` 仍然可写（除非在 \
                    `[sandbox_workspace_write]` 中设置了 `exclude_slash_tmp` 或 \
                    `exclude_tmpdir_env_var`）。",
            detail: "Codex's `workspace-write` adds `/tmp` and the directory in `$TMPDIR` to the \
                     writable roots, unless `[sandbox_workspace_write]` in `config.toml` sets \
                     `exclude_slash_tmp` or `exclude_tmpdir_env_var` to true. A cache or a \
                     build output pointed there (or into the workspace) is written without \
                     any change to the sandbox.",
        },
        HostRemedy::ShellWithoutPseudoConsole
        | HostRemedy::ReplacePersistentShell
        | HostRemedy::SandboxedBusyboxShell
        | HostRemedy::WeakerNestedSandbox
        | HostRemedy::InstallSandboxTool
        | HostRemedy::CommandPolicy
        | HostRemedy::WholeClientSandbox
        | HostRemedy::ThroughSandboxProxy => return None,
    })
}
