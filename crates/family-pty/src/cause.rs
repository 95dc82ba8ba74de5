//! Which of the sentence's known causes this failure fits (issue 24).
//!
//! The sentence is the same whatever killed the shell, because the terminal
//! backend keeps only the confined argv and drops the runner's own rules and
//! signatures. Three setups are told apart by facts the advisor has, and only
//! by those:
//!
//! - a `bash` persistent tool on Windows: the stock Windows presets mount no
//!   `bash`, so it is a community Git Bash (MSYS) preset, whose runtime is
//!   refused a token call under the restricted token ([`Cause::MsysBash`]);
//! - the `pwsh` persistent tool on the Electron desktop app: the open desktop
//!   issue 1051, with no fixed release ([`Cause::DesktopPwsh`]);
//! - anything else (the harness's own minimal preset on a host that is not
//!   Electron, any other platform, a tool with another name): the advice the
//!   family gave before ([`Cause::Stock`]).

use advisor_core::{Environment, HostBinary, HostVersion, Platform, VersionFact};

use crate::recognize::Finding;

/// The tool name of a Git Bash persistent shell.
pub const BASH: &str = "bash";

/// The tool name both PowerShell tools register (one-shot and persistent).
pub const PWSH: &str = "pwsh";

/// From this desktop release the one-shot shell of the `standard` preset
/// starts under a confining mode (the console fix of desktop PR 990); before
/// it, that path dies with `0xC0000142` instead.
pub const STANDARD_WORKS_FROM: HostVersion = HostVersion::new(2, 0, 11);

/// The cause a startup exit fits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// The harness's own minimal preset (or an unknown setup): today's advice.
    Stock,
    /// The desktop app's persistent `pwsh` (desktop issue 1051, open), with how
    /// the configured version stands against [`STANDARD_WORKS_FROM`].
    DesktopPwsh(VersionFact),
    /// A community Git Bash (MSYS) preset on Windows.
    MsysBash,
}

/// The cause for this finding on this host.
pub fn cause(finding: &Finding, env: &Environment) -> Cause {
    if env.host.platform != Platform::Win32 {
        return Cause::Stock;
    }
    match finding.tool.inspect() {
        BASH => Cause::MsysBash,
        PWSH if env.host.binary == HostBinary::Electron => {
            Cause::DesktopPwsh(env.desktop_version(STANDARD_WORKS_FROM))
        }
        _ => Cause::Stock,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use advisor_core::testing::resolved;
    use advisor_core::{SandboxMode, Untrusted};

    fn on(platform: Platform, electron: bool, version: Option<HostVersion>, tool: &str) -> Cause {
        let mut env = resolved(platform, SandboxMode::WorkspaceWrite, None);
        if electron {
            env.host.binary = HostBinary::Electron;
        }
        env.host_version = version;
        let finding = Finding {
            tool: Untrusted::new(tool),
            carrier: crate::Carrier::Message,
            sentence: Untrusted::new(crate::SENTENCE),
            frames: 0,
        };
        cause(&finding, &env)
    }

    #[test]
    fn each_setup_has_its_cause() {
        let v10 = HostVersion::new(2, 0, 10);
        let v11 = HostVersion::new(2, 0, 11);
        for (platform, electron, version, tool, expected) in [
            (
                Platform::Win32,
                true,
                None,
                "pwsh",
                Cause::DesktopPwsh(VersionFact::Unknown),
            ),
            (
                Platform::Win32,
                true,
                Some(v10),
                "pwsh",
                Cause::DesktopPwsh(VersionFact::Before(v10)),
            ),
            (
                Platform::Win32,
                true,
                Some(v11),
                "pwsh",
                Cause::DesktopPwsh(VersionFact::AtOrAfter(v11)),
            ),
            (Platform::Win32, false, None, "pwsh", Cause::Stock),
            (Platform::Win32, false, None, "bash", Cause::MsysBash),
            (Platform::Win32, true, None, "bash", Cause::MsysBash),
            (Platform::Linux, false, None, "bash", Cause::Stock),
            (Platform::Macos, true, None, "pwsh", Cause::Stock),
            (Platform::Win32, true, None, "Pwsh", Cause::Stock),
            (Platform::Win32, false, None, "bash ", Cause::Stock),
            (Platform::Win32, true, None, "shell", Cause::Stock),
        ] {
            assert_eq!(
                on(platform, electron, version, tool),
                expected,
                "{platform:?} {electron} {tool:?}"
            );
        }
    }
}
