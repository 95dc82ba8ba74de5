//! `--log` and `--locale`: given before the subcommand or after it, but
//! offered (and described) per subcommand, so each help states its own
//! default and a subcommand that writes no advisory is not offered a language.

use clap::builder::EnumValueParser;
use clap::{Arg, ArgMatches, CommandFactory as _};

use super::args::{Cli, LogLevel, parse_locale};

/// Each subcommand's path and the host-log level it runs at without `--log`.
const LOG_DEFAULTS: [(&[&str], &str); 8] = [
    (&["replay"], "off"),
    (&["serve"], "warn"),
    (&["explain"], "off"),
    (&["families"], "off"),
    (&["hook"], "warn"),
    (&["hook", "install"], "off"),
    (&["scan"], "off"),
    (&["collect"], "off"),
];

/// The subcommands that write an advisory, a brief or a report of them: the
/// ones `--locale` means something to.
pub(super) const LOCALIZED: [&str; 5] = ["replay", "serve", "explain", "hook", "scan"];

/// The others: they take `--locale` unlisted, only to refuse it in words.
const NOT_LOCALIZED: [&[&str]; 3] = [&["families"], &["collect"], &["hook", "install"]];

/// The id of the unlisted `--locale` of [`NOT_LOCALIZED`].
const UNUSED_LOCALE: &str = "unused-locale";

/// The command line: the derived one, with `--log` and `--locale` on the top
/// level and on each subcommand that takes them.
pub(super) fn command() -> clap::Command {
    let mut cmd = Cli::command()
        .arg(log_arg("warn for `serve` and `hook`, off otherwise"))
        .arg(locale_arg());
    for (path, default) in LOG_DEFAULTS {
        cmd = on(cmd, path, &|sc| sc.arg(log_arg(default)));
    }
    for name in LOCALIZED {
        // `scan` takes no configuration: its help must not name one.
        let arg = if name == "scan" {
            locale_arg().help("The language of the summaries, `en` or `zh-CN` (default: `en`)")
        } else {
            locale_arg()
        };
        cmd = on(cmd, &[name], &|sc| sc.arg(arg.clone()));
    }
    for path in NOT_LOCALIZED {
        cmd = on(cmd, path, &|sc| {
            sc.arg(Arg::new(UNUSED_LOCALE).long("locale").hide(true))
        });
    }
    cmd
}

/// Applies `f` to the subcommand at `path`.
fn on(
    cmd: clap::Command,
    path: &[&str],
    f: &dyn Fn(clap::Command) -> clap::Command,
) -> clap::Command {
    match path {
        [] => f(cmd),
        [first, rest @ ..] => cmd.mut_subcommand(*first, |sc| on(sc, rest, f)),
    }
}

fn log_arg(default: &str) -> Arg {
    Arg::new("log")
        .long("log")
        .value_name("LOG")
        .value_parser(EnumValueParser::<LogLevel>::new())
        .help(format!("Host-log level on stderr (default: {default})"))
}

fn locale_arg() -> Arg {
    Arg::new("locale")
        .long("locale")
        .value_name("LOCALE")
        .value_parser(parse_locale)
        .help("The language of summaries and briefs, `en` or `zh-CN` (overrides the config's `locale`)")
}

/// `--log` and `--locale` as given, wherever on the command line: the value
/// nearest the subcommand that runs wins.
pub(super) struct Given {
    /// `--log`.
    pub log: Option<LogLevel>,
    /// `--locale`.
    pub locale: Option<advisor_core::Locale>,
    /// `--locale` was given to a subcommand that writes no advisory: that subcommand.
    pub locale_unused_by: Option<String>,
}

/// Reads [`Given`] from `matches`, the top level's and each subcommand's.
pub(super) fn given(matches: &ArgMatches) -> Given {
    let mut given = Given {
        log: matches.get_one::<LogLevel>("log").copied(),
        locale: matches.get_one::<advisor_core::Locale>("locale").copied(),
        locale_unused_by: None,
    };
    let mut path = Vec::new();
    let mut unused = false;
    let mut level = matches.subcommand();
    while let Some((name, m)) = level {
        path.push(name);
        if let Ok(Some(log)) = m.try_get_one::<LogLevel>("log") {
            given.log = Some(*log);
        }
        if let Ok(Some(locale)) = m.try_get_one::<advisor_core::Locale>("locale") {
            given.locale = Some(*locale);
        }
        unused |= m.try_contains_id(UNUSED_LOCALE).unwrap_or(false);
        level = m.subcommand();
    }
    // Given before a subcommand that does not take it.
    unused |= given.locale.is_some() && NOT_LOCALIZED.contains(&path.as_slice());
    if unused {
        given.locale_unused_by = Some(path.join(" "));
    }
    given
}
