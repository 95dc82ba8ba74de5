//! The DeepSeek harness's table: its agent presets (stock and community) and the
//! user's profile patch.

use super::{HostRemedy, Row};

/// The harness's wording of `remedy`, or `None` where it has no such knob.
pub(super) fn row(remedy: HostRemedy) -> Option<&'static Row> {
    Some(match remedy {
        HostRemedy::ShellWithoutPseudoConsole => &Row {
            en: "Switch the agent preset to `standard` for the next session (a one-shot \
                 shell, still sandboxed).",
            zh_cn: "下次会话把 agent 预设切换为 `standard`（一次性 shell，仍在沙箱内）。",
            detail: "Switch the agent preset to `standard` for the next session. Its shell is \
                     a one-shot subprocess with no pseudo-console, and it runs under the sandbox.",
        },
        HostRemedy::ReplacePersistentShell => &Row {
            en: "Or, in the profile patch (`$DSH_HOME/profiles/<profile>/cordis.patch.yml`, \
                 or `$DSH_HOME/cordis.patch.yml` for all), override the `preset-minimal` row: \
                 replace its `persistent-shell` group with `@deepseek-ai/dsh-tool-pwsh`.",
            zh_cn: "或在 profile patch（单个 profile 用 \
                    `$DSH_HOME/profiles/<profile>/cordis.patch.yml`，全部用 \
                    `$DSH_HOME/cordis.patch.yml`）中覆盖 `preset-minimal` 行，把其 \
                    `persistent-shell` 组换成 `@deepseek-ai/dsh-tool-pwsh`；下次会话生效。",
            detail: "Keep the minimal preset but override its row, `preset-minimal`, in your \
                     profile patch (`$DSH_HOME/profiles/<profile>/cordis.patch.yml` for one \
                     profile, `$DSH_HOME/cordis.patch.yml` for all of them), replacing the \
                     row's `persistent-shell` group with `@deepseek-ai/dsh-tool-pwsh`, a \
                     one-shot shell with no pseudo-console. Presets are rows patched by their \
                     id, not folders on disk, and the patch layer is yours, so an upgrade leaves \
                     it in place. It applies from the next session.",
        },
        HostRemedy::SandboxedBusyboxShell => &Row {
            en: "Install the sandboxed busybox preset (`npx dsh-win32 setup --sandboxed`) and \
                 switch to `Minimal (Windows, sandboxed)`.",
            zh_cn: "安装沙箱化的 busybox 预设（`npx dsh-win32 setup --sandboxed`），\
                    并切换到 `Minimal (Windows, sandboxed)`。",
            detail: "Install the community dsh-win32 package's sandboxed busybox preset \
                     (`npx dsh-win32 setup --sandboxed`) and switch the agent preset to \
                     `Minimal (Windows, sandboxed)`. Its shell is busybox, not Git Bash's MSYS \
                     runtime.",
        },
        HostRemedy::AllowNetworkHost
        | HostRemedy::SandboxSettings
        | HostRemedy::WeakerNestedSandbox
        | HostRemedy::ExtraWritableRoot
        | HostRemedy::EscalateOneCommand
        | HostRemedy::HomeOutsideTemp
        | HostRemedy::InstallSandboxTool
        | HostRemedy::CommandPolicy
        | HostRemedy::WholeClientSandbox
        | HostRemedy::WorkspaceWriteMode
        | HostRemedy::WritableTempDir
        | HostRemedy::ThroughSandboxProxy => return None,
    })
}
