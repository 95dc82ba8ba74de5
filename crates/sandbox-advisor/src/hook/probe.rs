//! The hook's probe: facts checked on this host, outside the client's
//! sandbox, for a failure a family recognized (`advisor_core::HostProbe`).
//!
//! The hook runs as the client's child, as the same user, in the same
//! namespaces, but outside the sandbox the client starts for each command.
//! So it can look at what a sandboxed command could only print. It is asked
//! only after a family recognized the result, and only for the checks that
//! family named: a result that matches nothing never reaches it, so it never
//! touches the disk or starts a process then.
//!
//! | check | what it reads or runs | bound |
//! |---|---|---|
//! | user namespaces | `/proc/sys/user/max_user_namespaces`, `/proc/sys/kernel/unprivileged_userns_clone`, `/proc/sys/kernel/apparmor_restrict_unprivileged_userns`; then the advisory's own check in a child: `/usr/bin/bwrap --unshare-user --ro-bind / / /bin/true`, else `/usr/bin/unshare --user --map-root-user /bin/true` | 64 bytes a file; the child [`CHILD_DEADLINE`], then killed; its stderr [`CHILD_STDERR_MAX_BYTES`] |
//! | Codex's home | `CODEX_HOME`, else `$HOME/.codex`, against the system temp directory (both from this process's environment, which the client hands its hooks), compared lexically | none needed |
//! | Claude Code's settings | `$CLAUDE_CONFIG_DIR/settings.json` (else `~/.claude/settings.json`), `<project>/.claude/settings.json` and `settings.local.json` (the project: `CLAUDE_PROJECT_DIR`, which Claude Code sets for its hooks, else the payload's `cwd`), `/etc/claude-code/managed-settings.json` | [`SETTINGS_MAX_BYTES`] a file; [`DOMAINS_MAX`](advisor_core::DOMAINS_MAX) entries a list |
//! | the client's own field | nothing: how long Claude Code's own `stderr` of a Bash success was, from the payload | none needed |
//! | the sandbox's program | `bwrap` on this process's `PATH` (the client's), each absolute directory `stat`ed ([`path`]) | [`path::PATH_MAX_DIRS`] directories, [`path::PATH_MAX_BYTES`] of `PATH` |
//! | the mount at a path | the path the finding names (a relative one against the payload's `cwd`), walked from `/` without following a link, `statvfs` at it or its nearest existing ancestor, and the user's own access check ([`super::mount`]) | its own deadline, [`super::mount::DEADLINE`] |
//! | Codex's configuration | `/etc/codex/config.toml`, `$CODEX_HOME/config.toml` (else `~/.codex/config.toml`), and in a project the user's file trusts, `.codex/config.toml` of each directory from the project's root down to `cwd` ([`codex`]); the command line of the `codex` process above the hook, `/proc/<pid>/cmdline` ([`codex_cli`]); `$TMPDIR` | [`codex::CONFIG_MAX_BYTES`] a file, [`codex::PROJECT_DEPTH_MAX`] directories, [`codex_cli::ANCESTORS_MAX`] processes and [`codex_cli::CMDLINE_MAX_BYTES`], [`advisor_core::ROOTS_MAX`] roots |
//! | inet sockets | one `socket(AF_INET, SOCK_STREAM)`, closed at once, never connected | none needed |
//! | Gemini CLI's mode | the command line of the Gemini CLI process above the hook, `/proc/<pid>/cmdline` ([`gemini_cli`]); whether `~/.gemini/policies/sandbox.toml` exists (`lstat`) | [`codex_cli::ANCESTORS_MAX`] processes and [`codex_cli::CMDLINE_MAX_BYTES`] |
//!
//! Every file is opened component by component from `/` without following a
//! link (`O_NOFOLLOW` at each step), and must be a regular file; a settings
//! file must also belong to this user or root and be writable by no one
//! else. A program is run only from an absolute path whose file belongs to
//! root and is writable by no one else, with an empty environment but `PATH`.
//! All checks together run on a thread with a deadline ([`DEADLINE`]): what
//! is not known by then is unknown (`None`), never guessed. A check that
//! cannot tell says so the same way.

mod claude;
mod codex;
mod codex_cli;
mod files;
mod gemini_cli;
mod gemini_settings;
mod mount_at;
pub mod path;

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use advisor_core::{
    Check, Checks, HomePlace, HostChecks, HostFacts, HostPath, HostProbe, NamespaceProbe,
    PathStyle, Platform, UserNamespaces,
};

use claude::claude_sandbox;
use files::{Owner, read_no_follow};
use mount_at::{inet_socket, mount_at, resolve};

/// All checks of one call together, then whatever is unknown stays unknown.
pub const DEADLINE: Duration = Duration::from_millis(1500);

/// The namespace child's deadline; it is killed after it.
pub const CHILD_DEADLINE: Duration = Duration::from_millis(1000);

/// The most of the child's stderr read.
pub const CHILD_STDERR_MAX_BYTES: usize = 4096;

pub use claude::SETTINGS_MAX_BYTES;

/// The program the sandbox check looks for on the client's `PATH`.
const BWRAP_NAME: &str = "bwrap";

/// The most of a `/proc/sys` file read.
const SYSCTL_MAX_BYTES: u64 = 64;

/// The probe of one hook invocation: what the payload said, and this
/// process's environment (read when a check runs).
#[derive(Debug, Clone)]
pub struct HookProbe {
    /// The payload's `cwd`.
    cwd: Option<String>,
    /// Bytes at the end of the call's text that the client wrote itself.
    client_tail: Option<usize>,
}

impl HookProbe {
    /// The probe for a payload with `cwd`, whose last `client_tail` bytes of
    /// text the client wrote in a field of its own (`payload::Payload`).
    pub fn new(cwd: Option<String>, client_tail: Option<usize>) -> Self {
        Self { cwd, client_tail }
    }
}

impl HostProbe for HookProbe {
    fn check(&self, wanted: Checks, host: &HostFacts) -> HostChecks {
        self.check_at(wanted, None, host)
    }

    fn check_at(&self, wanted: Checks, path: Option<&str>, host: &HostFacts) -> HostChecks {
        let mut out = HostChecks {
            client_tail: self
                .client_tail
                .filter(|_| wanted.contains(Check::ClientChannel)),
            ..HostChecks::default()
        };
        let on_host = [
            Check::UserNamespaces,
            Check::CodexHome,
            Check::ClaudeSandbox,
            Check::SandboxProgram,
            Check::MountAt,
            Check::CodexConfig,
            Check::InetSocket,
            Check::GeminiMode,
        ];
        // The host's facts are this machine's only when the platform stated is its own.
        if !on_host.iter().any(|c| wanted.contains(*c)) || host.platform != Platform::current() {
            return out;
        }
        let env = Inputs::of_this_process(self.cwd.as_deref());
        let path = path.map(str::to_owned);
        let (tx, rx) = mpsc::channel();
        let spawned = std::thread::Builder::new()
            .name("sandbox-advisor-probe".into())
            .spawn(move || {
                let _ = tx.send(gather(wanted, path.as_deref(), &env));
            });
        if spawned.is_err() {
            return out;
        }
        match rx.recv_timeout(DEADLINE) {
            Ok(found) => {
                out.user_namespaces = found.user_namespaces;
                out.codex_home = found.codex_home;
                out.claude_sandbox = found.claude_sandbox;
                out.sandbox_program = found.sandbox_program;
                out.mount = found.mount;
                out.working_directory = found.working_directory;
                out.codex_config = found.codex_config;
                out.inet_socket = found.inet_socket;
                out.gemini_session = found.gemini_session;
            }
            Err(_) => {
                tracing::info!(target: "sandbox_advisor::probe", "the host checks ran out of time; every fact stays unknown");
            }
        }
        out
    }
}

/// What the checks read from this process's environment.
#[derive(Clone)]
struct Inputs {
    home: Option<PathBuf>,
    codex_home: Option<PathBuf>,
    claude_config: Option<PathBuf>,
    project: Option<PathBuf>,
    temp: PathBuf,
    path: Option<std::ffi::OsString>,
    /// The payload's `cwd`, when absolute.
    cwd: Option<PathBuf>,
    /// `$TMPDIR`: the client's, which a hook inherits (Codex keeps it writable).
    tmpdir: Option<PathBuf>,
    /// `$CLAUDE_TMPDIR`: the directory Claude Code sets for its commands.
    claude_tmpdir: Option<PathBuf>,
    /// The arguments of the `codex` process above this hook, when there is
    /// one (read on the checking thread, only for a Codex check).
    codex_arguments: Option<Vec<String>>,
}

impl Inputs {
    fn of_this_process(cwd: Option<&str>) -> Self {
        let var = |name| {
            std::env::var_os(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        Self {
            home: var("HOME"),
            codex_home: var("CODEX_HOME"),
            claude_config: var("CLAUDE_CONFIG_DIR"),
            project: var("CLAUDE_PROJECT_DIR").or_else(|| cwd.map(PathBuf::from)),
            temp: std::env::temp_dir(),
            path: std::env::var_os("PATH"),
            cwd: cwd.map(PathBuf::from).filter(|c| c.is_absolute()),
            tmpdir: var("TMPDIR"),
            claude_tmpdir: var("CLAUDE_TMPDIR"),
            codex_arguments: None,
        }
    }
}

fn gather(wanted: Checks, path: Option<&str>, env: &Inputs) -> HostChecks {
    HostChecks {
        user_namespaces: wanted
            .contains(Check::UserNamespaces)
            .then(user_namespaces)
            .flatten(),
        codex_home: wanted
            .contains(Check::CodexHome)
            .then(|| codex_home(env))
            .flatten(),
        claude_sandbox: wanted
            .contains(Check::ClaudeSandbox)
            .then(|| claude_sandbox(env)),
        client_tail: None,
        sandbox_program: wanted
            .contains(Check::SandboxProgram)
            .then(|| path::on_path(BWRAP_NAME, env.path.as_deref()))
            .flatten(),
        mount: wanted
            .contains(Check::MountAt)
            .then(|| path.map(|p| mount_at(&resolve(p, env))))
            .flatten(),
        working_directory: wanted
            .contains(Check::MountAt)
            .then(|| env.cwd.as_deref().and_then(Path::to_str))
            .flatten()
            .map(|cwd| HostPath::lexical(PathStyle::Posix, cwd))
            .filter(HostPath::is_absolute),
        codex_config: wanted.contains(Check::CodexConfig).then(|| {
            let mut env = env.clone();
            env.codex_arguments = codex_cli::codex_arguments();
            codex::codex_config(&env)
        }),
        inet_socket: wanted
            .contains(Check::InetSocket)
            .then(inet_socket)
            .flatten(),
        gemini_session: wanted
            .contains(Check::GeminiMode)
            .then(|| gemini_cli::gemini_session(env.home.as_deref(), env.cwd.as_deref()))
            .flatten(),
    }
}

// ---- user namespaces ---------------------------------------------------------

fn user_namespaces() -> Option<UserNamespaces> {
    if Platform::current() != Platform::Linux {
        return None;
    }
    let sysctl = |path: &str| {
        let bytes = read_no_follow(Path::new(path), SYSCTL_MAX_BYTES, Owner::Kernel).ok()??;
        std::str::from_utf8(&bytes).ok()?.trim().parse::<u64>().ok()
    };
    Some(UserNamespaces {
        max_user_namespaces: sysctl("/proc/sys/user/max_user_namespaces"),
        unprivileged_userns_clone: sysctl("/proc/sys/kernel/unprivileged_userns_clone"),
        apparmor_restrict_unprivileged_userns: sysctl(
            "/proc/sys/kernel/apparmor_restrict_unprivileged_userns",
        ),
        probe: namespace_probe(),
    })
}

/// The advisory's own check, in a child: bubblewrap making a user namespace
/// (the program the clients run), else `unshare` doing the same with its ids
/// mapped.
fn namespace_probe() -> NamespaceProbe {
    const BWRAP: &str = "/usr/bin/bwrap";
    const UNSHARE: &str = "/usr/bin/unshare";
    let (program, args): (&str, &[&str]) = if trusted_program(BWRAP) {
        (
            BWRAP,
            &["--unshare-user", "--ro-bind", "/", "/", "/bin/true"],
        )
    } else if trusted_program(UNSHARE) {
        (UNSHARE, &["--user", "--map-root-user", "/bin/true"])
    } else {
        return NamespaceProbe::NotRun;
    };
    let child = std::process::Command::new(program)
        .args(args)
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .current_dir("/")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn();
    let Ok(mut child) = child else {
        return NamespaceProbe::NotRun;
    };
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() < CHILD_DEADLINE => {
                std::thread::sleep(Duration::from_millis(2));
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return NamespaceProbe::NotRun;
            }
        }
    };
    if status.success() {
        return NamespaceProbe::Created;
    }
    let mut said = Vec::new();
    if let Some(stderr) = child.stderr.take() {
        use std::io::Read;
        let _ = stderr
            .take(CHILD_STDERR_MAX_BYTES as u64)
            .read_to_end(&mut said);
    }
    classify(&String::from_utf8_lossy(&said))
}

/// A failed probe counts as a refusal only when it said why in namespace
/// terms (bubblewrap's and `unshare`'s own words); any other failure tells
/// nothing about the host.
fn classify(stderr: &str) -> NamespaceProbe {
    const REFUSALS: [&str; 6] = [
        "namespace",
        "uid map",
        "gid map",
        "uid_map",
        "gid_map",
        "unshare failed",
    ];
    if REFUSALS.iter().any(|w| stderr.contains(w)) {
        NamespaceProbe::Refused
    } else {
        NamespaceProbe::NotRun
    }
}

/// A program the probe may run: a regular file (not a link) of root's that
/// no one else can write.
#[cfg(unix)]
fn trusted_program(path: &str) -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::symlink_metadata(path)
        .is_ok_and(|m| m.file_type().is_file() && m.uid() == 0 && m.mode() & 0o022 == 0)
}

/// Elsewhere no program is trusted: bwrap and unshare are Linux programs, and
/// a path such as `/usr/bin/unshare` names a file on the current drive.
#[cfg(not(unix))]
fn trusted_program(_path: &str) -> bool {
    false
}

// ---- Codex's home ------------------------------------------------------------

/// Where Codex's home lies against the temp directory (lexically; a
/// relative path tells nothing).
fn codex_home(env: &Inputs) -> Option<HomePlace> {
    let home = env
        .codex_home
        .clone()
        .or_else(|| env.home.as_ref().map(|h| h.join(".codex")))?;
    let posix = |p: &Path| HostPath::lexical(PathStyle::Posix, p.to_str()?).into();
    let (home, temp): (Option<HostPath>, Option<HostPath>) = (posix(&home), posix(&env.temp));
    let (home, temp) = (home?, temp?);
    if !home.is_absolute() || !temp.is_absolute() {
        return None;
    }
    Some(match home.relation_to(&temp) {
        advisor_core::Containment::Inside | advisor_core::Containment::Same => HomePlace::UnderTemp,
        advisor_core::Containment::Outside => HomePlace::OutsideTemp,
    })
}

#[cfg(test)]
mod tests;
