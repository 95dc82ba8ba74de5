//! The one fixture format every family's tests read (TOML, one file per case).
//!
//! A fixture holds one observation (or a pre-flight), the host and policy
//! facts it is decided under, and the decision expected of the registry.
//! Its file name says which arm it is: `pos-<case>.toml` speaks,
//! `ctl-<case>.toml` does not (not recognized, withheld or declined).
//!
//! ```toml
//! about = "positive: the runner's grant refused with Win32 5"
//!
//! [host]                        # optional; default: win32, not Electron, no temp dir
//! platform = "win32"            # win32 | linux | macos
//! electron = false
//! temp_dir = 'C:\Users\u\AppData\Local\Temp'
//! version = "2.0.10"          # the configured desktop version (`hostVersion`); absent: unknown
//!
//! [policy]                      # optional; default: workspace-write, root D:\ws (win32) or /ws
//! mode = "workspace-write"
//! root = 'D:\ws'                # `root = ""` means the policy reports no root
//! # unresolved = "no-policy-service" | "no-session" | "resolver-error"
//!
//! [call]                        # optional; default: agent a1, session s1, tool bash, {"command":"echo hi"}
//! tool = "pwsh"
//! arguments = '{"command": "Get-CimInstance Win32_OperatingSystem"}'   # JSON text
//!
//! [failure]                     # exactly one of [failure], [foreground], [success]
//! message = '''SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)'''
//! # content = "..."             # default: "Error: " + message
//! # members = ["..."]
//! # code = "EACCES"
//!
//! # [foreground]                # the shell tools' finished foreground projection
//! # exit_code = 1               # absent: not reported (null)
//! # stdout = ""
//! # stderr = '''...'''
//! # sandbox = '{"mode": "workspace-write", "denied": true, "enforcement": "partial"}'
//! # content = "[stderr]\n..."   # the rendered content
//!
//! # [success]                   # any other value, as JSON text
//! # value = '{"kind": "background", "jobId": "j1"}'
//! # content = "..."
//!
//! # preflight = true            # instead of an observation: the session's pre-flight
//! # [checks]                    # what the host probe answers (absent: no probe)
//! # userns_probe = "refused"    # created | refused | not-run
//! # max_user_namespaces = 0     # also unprivileged_userns_clone, apparmor_restrict_unprivileged_userns
//! # codex_home = "under-temp"   # under-temp | outside-temp
//! # claude_sandbox = "on"       # on | off | unknown, with allowed_domains / denied_domains = [...]
//! # client_tail = 120           # bytes at the end the client wrote in a field of its own
//! # mount = "writable"          # writable | read-only | an unknown code (`MOUNT_UNKNOWN`)
//! # mount_judged = "path"       # path | ancestor (default)
//! # mount_user_may_write = false  # default true
//! # mount_cwd = "/ws"           # the call's working directory the mount check had (the payload's `cwd`)
//! # allow_write = ["/srv/x"]    # Claude Code's sandbox.filesystem.allowWrite (needs claude_sandbox)
//! # claude_tmpdir = "/tmp/claude-0"   # its $CLAUDE_TMPDIR (needs claude_sandbox)
//! # codex_config = "read"       # read | an unreadable code (`CODEX_UNREADABLE`)
//! # codex_mode = "read-only"    # the mode its files give; writable_roots = [...], network_access,
//! #                             # exclude_slash_tmp, exclude_tmpdir_env_var, codex_tmpdir (need "read")
//! # inet_socket = true          # the host let this user create an inet socket
//! # gemini_approval = "default" # Gemini CLI's command line: from-settings | default | auto_edit | plan | yolo | unknown
//! # gemini_run = "headless"     # headless | interactive (needs gemini_approval)
//! # gemini_sandbox_policy = false  # ~/.gemini/policies/sandbox.toml exists (needs gemini_approval; absent: unknown)
//! # gemini_tool_sandbox = "on" # Gemini's settings: security.toolSandboxing, on | off (needs gemini_approval; absent: unknown)
//! # gemini_cli_sandbox = "off" # the whole-CLI sandbox (tools.sandbox, GEMINI_SANDBOX, -s): off (absent: on or unknown)
//! # gemini_yolo = "disabled"    # security.disableYoloMode / admin.secureModeEnabled: disabled | allowed (absent: unknown)
//! # working_directory = "/ws"   # the client's working directory as the hook knows it
//!
//! # href = "https://…"          # the configured `href`
//! # locale = "zh-CN"            # the configured `locale` (default `en`)
//!
//! [expect]                      # absent, or with no keys: no family recognizes it
//! family = "acl-provisioning"
//! decision = "speak"            # speak | withhold | decline (with a family)
//! # reason = "unconfined-mode"  # the withhold or decline code
//! ```

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// Why a fixture file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum FixtureError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Read {
        /// The fixture file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is not a fixture.
    #[error("{path}: {message}")]
    Invalid {
        /// The fixture file.
        path: PathBuf,
        /// What is wrong, naming the key.
        message: String,
    },
}

/// Which arm a fixture is, from its file name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arm {
    /// `pos-*.toml`: the registry speaks.
    Positive,
    /// `ctl-*.toml`: the registry does not speak.
    Control,
}

impl Arm {
    /// The arm a file name declares, if it follows the naming rule.
    pub fn of(file_name: &str) -> Option<Self> {
        let stem = file_name.strip_suffix(".toml")?;
        if stem.strip_prefix("pos-").is_some_and(|s| !s.is_empty()) {
            Some(Arm::Positive)
        } else if stem.strip_prefix("ctl-").is_some_and(|s| !s.is_empty()) {
            Some(Arm::Control)
        } else {
            None
        }
    }
}

/// The expected decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decision {
    /// The family delivers its advisory.
    Speak,
    /// The family withholds (disclosed on the host log).
    Withhold,
    /// The family declines: not its story.
    Decline,
}

/// One fixture file, as written.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fixture {
    /// What the case shows, for the reader and the snapshot.
    pub about: String,
    /// The host facts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<HostSpec>,
    /// The session's policy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<PolicySpec>,
    /// The call's identities and arguments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call: Option<CallSpec>,
    /// A thrown failure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<FailureSpec>,
    /// A finished foreground shell run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub foreground: Option<ForegroundSpec>,
    /// Any other successful value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub success: Option<SuccessSpec>,
    /// The session's pre-flight instead of an observation.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub preflight: bool,
    /// The configured `href`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub href: Option<String>,
    /// The configured `locale` (`en` by default, or `zh-CN`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locale: Option<String>,
    /// What the host probe answers (absent: no probe, every fact unknown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checks: Option<ChecksSpec>,
    /// The expected decision (absent: no family recognizes it).
    #[serde(default)]
    pub expect: Expect,
}

/// `[host]`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HostSpec {
    /// The agent host: `dsh` (default), `claude-code` or `codex`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// `win32` (default), `linux` or `macos`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform: Option<String>,
    /// The host is the packaged Electron app.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub electron: bool,
    /// The host's temp directory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temp_dir: Option<String>,
    /// The configured desktop version (`hostVersion`), `MAJOR.MINOR.PATCH`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
}

/// `[policy]`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolicySpec {
    /// The resolved mode (default `workspace-write`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// The workspace root; `""` for none (default `D:\ws` or `/ws`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub root: Option<String>,
    /// The resolver could not answer: `no-policy-service`, `no-session` or `resolver-error`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unresolved: Option<String>,
}

/// `[checks]`: what the host probe answers for the facts the family asks
/// for (a family sees only those, as through the advisor).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChecksSpec {
    /// The user-namespace probe: `created`, `refused` or `not-run` (the
    /// default once any user-namespace key is given).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub userns_probe: Option<String>,
    /// `/proc/sys/user/max_user_namespaces`; absent: not read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_user_namespaces: Option<u64>,
    /// `/proc/sys/kernel/unprivileged_userns_clone`; absent: not read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unprivileged_userns_clone: Option<u64>,
    /// `/proc/sys/kernel/apparmor_restrict_unprivileged_userns`; absent: not read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub apparmor_restrict_unprivileged_userns: Option<u64>,
    /// Codex's home: `under-temp` or `outside-temp`; absent: unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub codex_home: Option<String>,
    /// Claude Code's `sandbox.enabled`: `on`, `off` or `unknown`; absent:
    /// its settings were not read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claude_sandbox: Option<String>,
    /// `sandbox.network.allowedDomains` (needs `claude_sandbox`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allowed_domains: Vec<String>,
    /// `sandbox.network.deniedDomains` (needs `claude_sandbox`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub denied_domains: Vec<String>,
    /// Bytes at the end of the text the client wrote in a field of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_tail: Option<usize>,
    /// The sandbox's program on the client's `PATH`: `found` or `missing`;
    /// absent: not looked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sandbox_program: Option<String>,
    /// The host's mount at the finding's path: `writable`, `read-only`, or
    /// the code of a check that could not tell; absent: not checked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mount: Option<String>,
    /// Where the mount was read: `path` or `ancestor` (the default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mount_judged: Option<String>,
    /// Whether this user may write there (default true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mount_user_may_write: Option<bool>,
    /// The call's working directory the mount check had (needs `mount`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mount_cwd: Option<String>,
    /// `sandbox.filesystem.allowWrite` (needs `claude_sandbox`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allow_write: Vec<String>,
    /// Claude Code's `$CLAUDE_TMPDIR` (needs `claude_sandbox`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claude_tmpdir: Option<String>,
    /// Codex's configuration: `read`, or the code of a file that could not be.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub codex_config: Option<String>,
    /// The mode Codex's files give (needs `codex_config = "read"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub codex_mode: Option<String>,
    /// `sandbox_workspace_write.writable_roots` (needs `codex_config = "read"`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub writable_roots: Vec<String>,
    /// `sandbox_workspace_write.network_access` (needs `codex_config = "read"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network_access: Option<bool>,
    /// `sandbox_workspace_write.exclude_slash_tmp`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub exclude_slash_tmp: bool,
    /// `sandbox_workspace_write.exclude_tmpdir_env_var`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub exclude_tmpdir_env_var: bool,
    /// Codex's `$TMPDIR` (needs `codex_config = "read"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub codex_tmpdir: Option<String>,
    /// Whether the host let this user create an inet socket.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inet_socket: Option<bool>,
    /// Gemini CLI's approval mode as its command line sets it, or `unknown`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gemini_approval: Option<String>,
    /// `headless` or `interactive` (needs `gemini_approval`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gemini_run: Option<String>,
    /// Whether `~/.gemini/policies/sandbox.toml` exists (needs `gemini_approval`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gemini_sandbox_policy: Option<bool>,
    /// Gemini's settings: `security.toolSandboxing`, `on` or `off` (absent: unknown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gemini_tool_sandbox: Option<String>,
    /// Gemini's whole-CLI sandbox: `off` (absent: on or unknown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gemini_cli_sandbox: Option<String>,
    /// Gemini's settings on yolo: `disabled` or `allowed` (absent: unknown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gemini_yolo: Option<String>,
    /// The client's working directory as the hook knows it (Claude Code's
    /// project directory, or Codex's `cwd`); needs `claude_sandbox` or
    /// `codex_config = "read"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub working_directory: Option<String>,
}

/// `[call]`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CallSpec {
    /// The tool name (default `bash`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// The arguments as JSON text (default `{"command": "echo hi"}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<String>,
}

/// `[failure]`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FailureSpec {
    /// The thrown message.
    pub message: String,
    /// The rendered content (default `Error: <message>`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// An aggregate's member messages.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<String>,
    /// The error's `code`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
}

/// `[foreground]`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForegroundSpec {
    /// The exit code; absent when not reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i64>,
    /// Captured stdout.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub stdout: String,
    /// Captured stderr.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub stderr: String,
    /// The executor's sandbox stamp, as JSON text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<String>,
    /// The rendered content.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub content: String,
}

/// `[success]`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SuccessSpec {
    /// The value as JSON text.
    pub value: String,
    /// The rendered content.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub content: String,
}

/// `[expect]`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// The family that owns the case; absent when none recognizes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub family: Option<String>,
    /// What the owner decides.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision: Option<Decision>,
    /// The withhold or decline code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}
