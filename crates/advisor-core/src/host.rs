//! Which agent host the advisor runs in: a fact beside platform and mode.
//!
//! A family knows the failures of some hosts and not others
//! ([`Family::hosts`](crate::Family::hosts)): the DeepSeek harness's families
//! say nothing inside Claude Code, whose commands never pass through the
//! harness's sandbox, and the other way round. The registry asks only the
//! families of the host an observation came from, so a host's failure line
//! quoted in another host's output is never taken for its own.
//!
//! A remedy that names a host's own configuration (its presets and patch
//! files, its settings keys, its panels and approval flows) is not written in
//! a family's prose: the family names the remedy ([`HostRemedy`]) and the
//! host's one table renders it ([`Host::remedy`]), so every family says the
//! same thing about one host, and a host without that knob says nothing.

mod claude_code;
mod codex;
mod dsh;
mod gemini_cli;

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::Locale;

/// The agent host whose tool pipeline the advisor is mounted on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Host {
    /// The DeepSeek harness: the TypeScript harness, the Rust one, the
    /// desktop app, or a Claude-Code- or Codex-style hook config run on the
    /// harness's own tool seams by its hook bridges.
    #[default]
    Dsh,
    /// Anthropic's Claude Code CLI.
    ClaudeCode,
    /// OpenAI's Codex CLI.
    Codex,
    /// Google's Gemini CLI.
    GeminiCli,
}

impl Host {
    /// Every host, in a stable order.
    pub const ALL: [Host; 4] = [Host::Dsh, Host::ClaudeCode, Host::Codex, Host::GeminiCli];

    /// The id used in configuration, on the command line and in the protocol.
    pub fn as_str(self) -> &'static str {
        match self {
            Host::Dsh => "dsh",
            Host::ClaudeCode => "claude-code",
            Host::Codex => "codex",
            Host::GeminiCli => "gemini-cli",
        }
    }

    /// The host's name in prose.
    pub fn name(self) -> &'static str {
        match self {
            Host::Dsh => "the DeepSeek harness",
            Host::ClaudeCode => "Claude Code",
            Host::Codex => "Codex",
            Host::GeminiCli => "Gemini CLI",
        }
    }

    /// Its bit in a set of hosts ([`Host::set`]).
    pub const fn bit(self) -> u8 {
        1 << self as u8
    }

    /// The set of `hosts` as bits (see [`Host::bit`]).
    pub fn set(hosts: &[Host]) -> u8 {
        hosts.iter().fold(0, |acc, h| acc | h.bit())
    }

    /// The host's own rendering of `remedy` in `locale`, or `None` when the
    /// host has no such knob; a family then leaves the remedy out.
    pub fn remedy(self, remedy: HostRemedy, locale: Locale) -> Option<&'static str> {
        self.row(remedy).map(|row| locale.pick(row.en, row.zh_cn))
    }

    /// The longer English account of `remedy` for an advisory's `detail`
    /// (what it changes, where, and when it applies), or `None` as above.
    pub fn remedy_detail(self, remedy: HostRemedy) -> Option<&'static str> {
        self.row(remedy).map(|row| row.detail)
    }

    fn row(self, remedy: HostRemedy) -> Option<&'static Row> {
        match self {
            Host::Dsh => dsh::row(remedy),
            Host::ClaudeCode => claude_code::row(remedy),
            Host::Codex => codex::row(remedy),
            Host::GeminiCli => gemini_cli::row(remedy),
        }
    }
}

impl fmt::Display for Host {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A host id outside the closed vocabulary.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown host {0:?} (expected dsh, claude-code, codex or gemini-cli)")]
pub struct UnknownHost(pub String);

impl FromStr for Host {
    type Err = UnknownHost;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Host::ALL
            .into_iter()
            .find(|h| h.as_str() == s)
            .ok_or_else(|| UnknownHost(s.to_owned()))
    }
}

/// A remedy that names a host's configuration, rendered by the host's table.
///
/// Each is one sentence (or one list item) the model can act on or pass to
/// the user; a family places it, the host words it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum HostRemedy {
    /// Start the next session with a shell that needs no pseudo-console
    /// (the harness: the `standard` preset, whose shell is one-shot).
    ShellWithoutPseudoConsole,
    /// Keep the minimal setup but replace its persistent shell in the user's
    /// own configuration layer (the harness: the `preset-minimal` row of a
    /// profile patch).
    ReplacePersistentShell,
    /// Install a community busybox shell set up to run inside the sandbox, and
    /// switch to it (the harness: dsh-win32's sandboxed busybox preset, for
    /// Git Bash's MSYS runtime, which the sandbox's token refuses).
    SandboxedBusyboxShell,
    /// Let the sandbox reach a network host the user trusts.
    AllowNetworkHost,
    /// Where the user reviews and changes the sandbox's settings.
    SandboxSettings,
    /// Run the sandbox where a nested user namespace cannot be made.
    WeakerNestedSandbox,
    /// Make one more directory writable from inside the sandbox.
    ExtraWritableRoot,
    /// Run one command outside the sandbox, through the host's approval.
    EscalateOneCommand,
    /// Keep the client's home outside the system temp directory, where its
    /// sandbox helper may be created.
    HomeOutsideTemp,
    /// Install the program the client's sandbox runs (bubblewrap), or turn
    /// the client's sandbox off knowingly.
    InstallSandboxTool,
    /// A rule of the client's policy engine, which decides which commands
    /// run without asking.
    CommandPolicy,
    /// Confine the whole client in a sandbox of another kind (a container)
    /// in place of its per-command one.
    WholeClientSandbox,
    /// Let commands write the workspace at all (a mode that refuses every
    /// write, workspace included, is in force).
    WorkspaceWriteMode,
    /// Where temporary files may be written from inside the sandbox.
    WritableTempDir,
    /// How a sandboxed command reaches the network (through the sandbox's
    /// own proxy, not directly).
    ThroughSandboxProxy,
}

impl HostRemedy {
    /// Every remedy, for the tables' tests and the docs.
    pub const ALL: [HostRemedy; 15] = [
        HostRemedy::ShellWithoutPseudoConsole,
        HostRemedy::ReplacePersistentShell,
        HostRemedy::SandboxedBusyboxShell,
        HostRemedy::AllowNetworkHost,
        HostRemedy::SandboxSettings,
        HostRemedy::WeakerNestedSandbox,
        HostRemedy::ExtraWritableRoot,
        HostRemedy::EscalateOneCommand,
        HostRemedy::HomeOutsideTemp,
        HostRemedy::InstallSandboxTool,
        HostRemedy::CommandPolicy,
        HostRemedy::WholeClientSandbox,
        HostRemedy::WorkspaceWriteMode,
        HostRemedy::WritableTempDir,
        HostRemedy::ThroughSandboxProxy,
    ];
}

/// One table row: the brief's sentence in each locale, and the detail's account.
struct Row {
    en: &'static str,
    zh_cn: &'static str,
    detail: &'static str,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_and_unknown_ids_are_named() {
        for host in Host::ALL {
            assert_eq!(host.as_str().parse::<Host>(), Ok(host));
        }
        assert_eq!(
            "claude".parse::<Host>().unwrap_err().to_string(),
            "unknown host \"claude\" (expected dsh, claude-code, codex or gemini-cli)"
        );
    }

    #[test]
    fn host_bits_are_distinct() {
        assert_eq!(Host::set(&Host::ALL), 0b1111);
        assert_eq!(Host::set(&[Host::Codex]), 0b100);
    }

    #[test]
    fn each_remedy_is_worded_by_some_host_and_rows_are_whole() {
        for remedy in HostRemedy::ALL {
            let hosts: Vec<_> = Host::ALL
                .into_iter()
                .filter(|h| h.remedy(remedy, Locale::En).is_some())
                .collect();
            assert!(!hosts.is_empty(), "{remedy:?} has no host");
            for host in hosts {
                for locale in [Locale::En, Locale::ZhCn] {
                    let text = host.remedy(remedy, locale).unwrap();
                    assert!(!text.trim().is_empty(), "{host} {remedy:?} {locale:?}");
                }
                let detail = host.remedy_detail(remedy).unwrap();
                assert!(detail.len() > 40, "{host} {remedy:?} detail");
            }
        }
    }

    #[test]
    fn a_host_never_words_another_hosts_configuration() {
        // Claude Code and Gemini CLI both keep a `settings.json`: each owns
        // its own folder's.
        let words: [(Host, &[&str]); 4] = [
            (Host::Dsh, &["cordis.patch.yml", "preset"]),
            (
                Host::ClaudeCode,
                &[".claude/settings.json", "/sandbox", "`sandbox."],
            ),
            (Host::Codex, &["config.toml", "--sandbox", "--add-dir"]),
            (
                Host::GeminiCli,
                &[
                    ".gemini/",
                    "toolSandboxing",
                    "GEMINI_SANDBOX",
                    "--include-directories",
                    "run_shell_command",
                ],
            ),
        ];
        for (owner, owned) in words {
            for host in Host::ALL.into_iter().filter(|h| *h != owner) {
                for remedy in HostRemedy::ALL {
                    let texts = [
                        host.remedy(remedy, Locale::En),
                        host.remedy(remedy, Locale::ZhCn),
                        host.remedy_detail(remedy),
                    ];
                    for text in texts.into_iter().flatten() {
                        for word in owned {
                            assert!(!names(text, word), "{host} {remedy:?} names {word}");
                        }
                    }
                }
            }
        }
    }

    /// Whether `text` names `word`. A flag is a whole token, so dsh-win32's
    /// `--sandboxed` is not Codex's `--sandbox`; any other word also counts
    /// inside a longer one (`presets` names `preset`).
    fn names(text: &str, word: &str) -> bool {
        if !word.starts_with("--") {
            return text.contains(word);
        }
        text.match_indices(word).any(|(at, _)| {
            !text[at + word.len()..]
                .starts_with(|c: char| c.is_alphanumeric() || c == '-' || c == '_')
        })
    }

    #[test]
    fn a_flag_is_named_only_as_a_whole_token() {
        assert!(names("run `codex --sandbox workspace-write`", "--sandbox"));
        assert!(names("`--sandbox`", "--sandbox"));
        assert!(!names("`npx dsh-win32 setup --sandboxed`", "--sandbox"));
        assert!(!names("`--sandbox-mode`", "--sandbox"));
        assert!(names("its agent presets", "preset"));
    }
}
