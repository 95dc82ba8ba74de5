//! Facts checked outside the client's sandbox, for one recognized failure.
//!
//! A hook runs on the same host as the client, but outside its sandbox: it
//! can look at what a sandboxed command could only print. core does no I/O,
//! so a family names the facts it needs for a finding
//! ([`Family::checks`](crate::Family::checks)), and the [`HostProbe`] the
//! deployment installed ([`Advisor::set_probe`](crate::Advisor::set_probe);
//! the `hook` command installs its own) answers them into the
//! [`Environment`](crate::Environment)'s `checks`. Without a probe (`serve`,
//! `replay`, `explain`, a harness) every fact is unknown.
//!
//! A probe is asked only after a family recognized the result, and only for
//! the facts that family named: a result that matches nothing never reaches
//! it. Each check is bounded in time and bytes and follows no link (the
//! probe's own documentation says how); a check that cannot tell answers
//! `None`, never a guess.

mod gemini;
mod write;

pub use gemini::{
    GeminiApproval, GeminiCliSandbox, GeminiRun, GeminiSession, GeminiSettings, GeminiToolSandbox,
    GeminiYolo,
};

pub use write::{
    CODEX_UNREADABLE, CodexConfig, CodexSandbox, Judged, MOUNT_UNKNOWN, MountFact, ROOTS_MAX,
};

use crate::environment::HostFacts;
use crate::paths::HostPath;
use crate::quote::Untrusted;

/// One fact a family can ask the probe for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Check {
    /// Whether this host lets the client's user create a user namespace, and
    /// the switches that refuse one ([`UserNamespaces`]).
    UserNamespaces,
    /// Where Codex keeps its home, against the system temp directory
    /// ([`HomePlace`]).
    CodexHome,
    /// Claude Code's own sandbox settings: user, project, local and managed
    /// ([`ClaudeSandbox`]).
    ClaudeSandbox,
    /// How much of the call's text the client wrote in a field of its own,
    /// apart from the command's output (`HostChecks::client_tail`).
    ClientChannel,
    /// Whether the program the client's sandbox runs (`bwrap`) lies on the
    /// `PATH` the client hands its hooks ([`ProgramOnPath`]).
    SandboxProgram,
    /// The host's own mount at the path the finding names
    /// ([`Family::check_path`](crate::Family::check_path); [`MountFact`]).
    MountAt,
    /// Codex's own configuration files ([`CodexConfig`]).
    CodexConfig,
    /// Whether this host lets this user create an inet socket (created and
    /// closed, never connected).
    InetSocket,
    /// Gemini CLI's approval mode and run, from the command line of the
    /// `gemini` process above the hook ([`GeminiSession`]).
    GeminiMode,
}

impl Check {
    /// Every check.
    pub const ALL: [Check; 9] = [
        Check::UserNamespaces,
        Check::CodexHome,
        Check::ClaudeSandbox,
        Check::ClientChannel,
        Check::SandboxProgram,
        Check::MountAt,
        Check::CodexConfig,
        Check::InetSocket,
        Check::GeminiMode,
    ];

    const fn bit(self) -> u16 {
        1 << self as u16
    }
}

/// A set of [`Check`]s.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Checks(u16);

impl Checks {
    /// No check: the finding speaks (or not) without host facts.
    pub const NONE: Checks = Checks(0);

    /// The set of `checks`.
    pub const fn of(checks: &[Check]) -> Self {
        let mut bits = 0;
        let mut i = 0;
        while i < checks.len() {
            bits |= checks[i].bit();
            i += 1;
        }
        Checks(bits)
    }

    /// True when `check` is in the set.
    pub fn contains(self, check: Check) -> bool {
        self.0 & check.bit() != 0
    }

    /// True when the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

/// What a child process creating a user namespace found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NamespaceProbe {
    /// It created a user namespace and mapped its ids: this host can.
    Created,
    /// It was refused with a namespace or id-map error: this host cannot.
    Refused,
    /// It could not be run, failed for another reason, or ran out of time.
    NotRun,
}

/// Whether this host lets the client's user create a user namespace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct UserNamespaces {
    /// `/proc/sys/user/max_user_namespaces` (0: none may be made); `None`
    /// when absent or unreadable.
    pub max_user_namespaces: Option<u64>,
    /// Debian's `/proc/sys/kernel/unprivileged_userns_clone` (0: refused to
    /// unprivileged users); `None` when absent or unreadable.
    pub unprivileged_userns_clone: Option<u64>,
    /// Ubuntu's `/proc/sys/kernel/apparmor_restrict_unprivileged_userns`
    /// (1: restricted); `None` when absent or unreadable.
    pub apparmor_restrict_unprivileged_userns: Option<u64>,
    /// A bounded child process that tried what bubblewrap does.
    pub probe: NamespaceProbe,
}

/// Where a client keeps its home, against the system temp directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HomePlace {
    /// Inside the temp directory.
    UnderTemp,
    /// Outside it.
    OutsideTemp,
}

/// Whether an executable program lies on a `PATH`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProgramOnPath {
    /// A directory of the `PATH` holds an executable regular file of that name.
    Found,
    /// None does (every directory looked at; none holds it).
    Missing,
}

/// The most domains kept from each of Claude Code's lists.
pub const DOMAINS_MAX: usize = 512;

/// Claude Code's sandbox settings, as the layers the hook could read say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaudeSandbox {
    /// `sandbox.enabled` after every layer (the last that sets it wins; off
    /// when none does); `None` when a layer that exists could not be read.
    pub enabled: Option<bool>,
    /// `sandbox.network.allowedDomains` of every layer read, at most
    /// [`DOMAINS_MAX`]; the user's text, compared only, never rendered.
    pub allowed_domains: Vec<Untrusted>,
    /// `sandbox.network.deniedDomains` of every layer read, at most [`DOMAINS_MAX`].
    pub denied_domains: Vec<Untrusted>,
    /// `sandbox.filesystem.allowWrite` of every layer read, absolute (a
    /// `~/` entry in the user's home), at most [`ROOTS_MAX`].
    pub allow_write: Vec<HostPath>,
    /// The temporary directory Claude Code sets for its commands and keeps
    /// writable (`$CLAUDE_TMPDIR` of the hook's environment), when absolute.
    pub tmpdir: Option<HostPath>,
    /// The project directory its sandbox lets commands write
    /// (`$CLAUDE_PROJECT_DIR`, which it sets for its hooks, else the
    /// payload's `cwd`), when absolute.
    pub project_dir: Option<HostPath>,
}

/// The facts a probe answered; each `None` when it was not asked or the
/// host could not tell.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HostChecks {
    /// [`Check::UserNamespaces`].
    pub user_namespaces: Option<UserNamespaces>,
    /// [`Check::CodexHome`].
    pub codex_home: Option<HomePlace>,
    /// [`Check::ClaudeSandbox`].
    pub claude_sandbox: Option<ClaudeSandbox>,
    /// [`Check::ClientChannel`]: how many bytes at the end of the call's
    /// text the client wrote in a field of its own that a command's output
    /// cannot reach (Claude Code: a Bash success's `stderr`, whose text ends
    /// the success's content); `Some(0)` when that field was empty.
    pub client_tail: Option<usize>,
    /// [`Check::SandboxProgram`].
    pub sandbox_program: Option<ProgramOnPath>,
    /// [`Check::MountAt`].
    pub mount: Option<MountFact>,
    /// [`Check::MountAt`]: the call's working directory as the client gave
    /// it (the hook payload's `cwd`), absolute, against which a relative
    /// path was resolved for the mount check.
    pub working_directory: Option<HostPath>,
    /// [`Check::CodexConfig`].
    pub codex_config: Option<CodexConfig>,
    /// [`Check::InetSocket`]: `Some(true)` when the socket was created.
    pub inet_socket: Option<bool>,
    /// [`Check::GeminiMode`]: `None` when no `gemini` process was found above the hook.
    pub gemini_session: Option<GeminiSession>,
}

impl HostChecks {
    /// Only the facts in `wanted`: a family sees nothing it did not ask for.
    pub fn only(self, wanted: Checks) -> Self {
        Self {
            user_namespaces: self
                .user_namespaces
                .filter(|_| wanted.contains(Check::UserNamespaces)),
            codex_home: self
                .codex_home
                .filter(|_| wanted.contains(Check::CodexHome)),
            claude_sandbox: self
                .claude_sandbox
                .filter(|_| wanted.contains(Check::ClaudeSandbox)),
            client_tail: self
                .client_tail
                .filter(|_| wanted.contains(Check::ClientChannel)),
            sandbox_program: self
                .sandbox_program
                .filter(|_| wanted.contains(Check::SandboxProgram)),
            mount: self.mount.filter(|_| wanted.contains(Check::MountAt)),
            working_directory: self
                .working_directory
                .filter(|_| wanted.contains(Check::MountAt)),
            codex_config: self
                .codex_config
                .filter(|_| wanted.contains(Check::CodexConfig)),
            inet_socket: self
                .inet_socket
                .filter(|_| wanted.contains(Check::InetSocket)),
            gemini_session: self
                .gemini_session
                .filter(|_| wanted.contains(Check::GeminiMode)),
        }
    }
}

/// Answers [`Check`]s on the host, outside the client's sandbox.
pub trait HostProbe: Send + Sync {
    /// The facts in `wanted`, for a failure recognized on `host`. Called
    /// only after a family recognized the result. Must be bounded in time
    /// and bytes; a fact it cannot establish is `None`.
    fn check(&self, wanted: Checks, host: &HostFacts) -> HostChecks;

    /// As [`HostProbe::check`], with the path a [`Check::MountAt`] is about,
    /// as the finding printed it (absolute, or relative to the call's
    /// working directory). The default ignores the path.
    fn check_at(&self, wanted: Checks, path: Option<&str>, host: &HostFacts) -> HostChecks {
        let _ = path;
        self.check(wanted, host)
    }
}

/// No probe mounted: every fact is unknown.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoProbe;

impl HostProbe for NoProbe {
    fn check(&self, _wanted: Checks, _host: &HostFacts) -> HostChecks {
        HostChecks::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_hold_what_they_were_built_of() {
        let set = Checks::of(&[Check::CodexHome, Check::ClientChannel]);
        assert!(set.contains(Check::CodexHome) && set.contains(Check::ClientChannel));
        assert!(!set.contains(Check::UserNamespaces) && !set.contains(Check::ClaudeSandbox));
        assert!(Checks::NONE.is_empty() && !set.is_empty());
        assert_eq!(Checks::of(&Check::ALL).0.count_ones(), 9);
    }

    #[test]
    fn a_family_sees_only_what_it_asked_for() {
        let all = HostChecks {
            user_namespaces: Some(UserNamespaces {
                max_user_namespaces: Some(0),
                unprivileged_userns_clone: None,
                apparmor_restrict_unprivileged_userns: None,
                probe: NamespaceProbe::Refused,
            }),
            codex_home: Some(HomePlace::UnderTemp),
            claude_sandbox: Some(ClaudeSandbox {
                enabled: Some(true),
                allowed_domains: Vec::new(),
                denied_domains: Vec::new(),
                allow_write: Vec::new(),
                tmpdir: None,
                project_dir: None,
            }),
            client_tail: Some(3),
            sandbox_program: Some(ProgramOnPath::Missing),
            mount: Some(MountFact::Unknown("x")),
            working_directory: Some(HostPath::lexical(crate::PathStyle::Posix, "/w")),
            codex_config: Some(CodexConfig::Unreadable("y")),
            inet_socket: Some(true),
            gemini_session: Some(GeminiSession {
                approval: Some(GeminiApproval::Yolo),
                run: GeminiRun::Headless,
                sandbox_policy: None,
                settings: GeminiSettings::UNKNOWN,
            }),
        };
        let some = all.clone().only(Checks::of(&[Check::CodexHome]));
        assert_eq!(some.working_directory, None);
        let mount = all.clone().only(Checks::of(&[Check::MountAt]));
        assert_eq!(mount.working_directory, all.working_directory);
        assert_eq!(some.codex_home, Some(HomePlace::UnderTemp));
        assert_eq!(
            (some.user_namespaces, some.claude_sandbox, some.client_tail),
            (None, None, None)
        );
        assert_eq!(some.sandbox_program, None);
        assert_eq!(
            (
                some.mount,
                some.codex_config,
                some.inet_socket,
                some.gemini_session
            ),
            (None, None, None, None)
        );
        assert_eq!(all.clone().only(Checks::of(&Check::ALL)), all);
    }
}
