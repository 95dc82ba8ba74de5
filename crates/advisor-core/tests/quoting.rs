//! The quote module against models of what reads its output.
//!
//! Command renderings are read back by a model of PowerShell's tokenizer (and
//! of how Windows PowerShell passes a native program its arguments) and by a
//! model of cmd.exe followed by the Windows argument rules: a rendered
//! argument must come back as exactly the text, with nothing expanded and no
//! second command. Prose and log renderings must keep their frame: a quote
//! block stays one block, a mention stays one code span, a log field stays
//! one visible line. The strings are hostile (see `quoting/strategy.rs`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "quoting/argv.rs"]
mod argv;
#[path = "quoting/cases.rs"]
mod cases;
#[path = "quoting/cmd.rs"]
mod cmd;
#[path = "support/logfmt.rs"]
mod logfmt;
#[path = "quoting/powershell.rs"]
mod powershell;
#[path = "quoting/strategy.rs"]
mod strategy;

use advisor_core::Untrusted;
use advisor_core::quote::{
    INLINE_MAX_CHARS, LOG_FIELD_MAX_CHARS, PathSlot, QUOTE_MAX_CHARS, QUOTE_MAX_LINES, escaped,
    log_field,
};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use strategy::invisible;

/// The longest escape one character becomes: `\u{10FFFF}`.
const ESCAPE_MAX_CHARS: usize = 10;

/// The placeholder the path slot is given.
const PLACEHOLDER: &str = "<dir>";

fn icacls(s: &str) -> Vec<String> {
    vec!["icacls".to_owned(), s.to_owned(), "/T".to_owned()]
}

/// `icacls <lit> /T` in PowerShell gives PowerShell, and then icacls, exactly
/// `["icacls", s, "/T"]`, with nothing expanded and one statement; and no
/// invisible character is on the line.
fn powershell_carries(lit: &str, s: &str) -> Result<(), TestCaseError> {
    let line = format!("icacls {lit} /T");
    let read = powershell::read(&line);
    prop_assert_eq!(&read.words, &icacls(s), "PowerShell's words for {:?}", line);
    prop_assert!(!read.expansion, "PowerShell expands in {:?}", line);
    prop_assert!(
        !read.separator,
        "PowerShell sees a second statement in {:?}",
        line
    );
    prop_assert!(!read.comment && !read.unterminated, "{:?}", read);
    prop_assert_eq!(
        powershell::native_argv(&read),
        icacls(s),
        "icacls's argv for {:?}",
        line
    );
    prop_assert!(
        !line.chars().any(invisible),
        "an invisible character in {:?}",
        line
    );
    Ok(())
}

/// `icacls <arg> /T` in cmd.exe, with delayed expansion on or off, gives
/// icacls exactly `["icacls", s, "/T"]`, with nothing expanded and one
/// command; and no invisible character is on the line.
fn cmd_carries(arg: &str, s: &str) -> Result<(), TestCaseError> {
    let line = format!("icacls {arg} /T");
    for delayed in [false, true] {
        let read = cmd::read(&line, delayed);
        prop_assert_eq!(
            &read.argv,
            &icacls(s),
            "argv for {:?} (delayed {})",
            line,
            delayed
        );
        prop_assert!(
            !read.expansion,
            "cmd expands in {:?} (delayed {})",
            line,
            delayed
        );
        prop_assert!(!read.separator, "cmd sees a second command in {:?}", line);
    }
    prop_assert!(
        !line.chars().any(invisible),
        "an invisible character in {:?}",
        line
    );
    Ok(())
}

/// The test's own normalization: `/` read as `\`, `X:\` first, empty
/// components dropped. None when `s` is not drive-absolute.
fn normalized(s: &str) -> Option<String> {
    let s = s.replace('/', "\\");
    let drive = s.chars().next().filter(char::is_ascii_alphabetic)?;
    let rest = s[1..].strip_prefix(":\\")?;
    let parts: Vec<&str> = rest.split('\\').filter(|p| !p.is_empty()).collect();
    Some(format!("{drive}:\\{}", parts.join("\\")))
}

/// A component Windows opens as a device in any directory.
fn is_device(part: &str) -> bool {
    let stem = part.split('.').next().unwrap_or(part).trim_end_matches(' ');
    let stem = stem.to_ascii_uppercase();
    let numbered = ["COM", "LPT"].iter().any(|p| {
        stem.strip_prefix(p).is_some_and(|n| {
            let mut n = n.chars();
            matches!(
                (n.next(), n.next()),
                (Some('0'..='9' | '¹' | '²' | '³'), None)
            )
        })
    });
    numbered
        || matches!(
            stem.as_str(),
            "CON" | "PRN" | "AUX" | "NUL" | "CONIN$" | "CONOUT$"
        )
}

/// Checks one path through `command_path` and `PathSlot`.
fn path_is_checked(s: &str) -> Result<(), TestCaseError> {
    let u = Untrusted::new(s);
    let slot = PathSlot::new(&u, PLACEHOLDER);
    let Ok(p) = u.command_path() else {
        let why = u
            .command_path()
            .err()
            .map(|w| w.to_string())
            .unwrap_or_default();
        prop_assert_eq!(slot.powershell(), PLACEHOLDER);
        prop_assert_eq!(slot.cmd(), PLACEHOLDER);
        prop_assert!(slot.path().is_none());
        let note = slot.note().unwrap_or_default();
        prop_assert!(
            note.contains(PLACEHOLDER) && note.contains(&why),
            "{:?}",
            note
        );
        return Ok(());
    };
    let path = p.as_str();
    let model = normalized(s);
    prop_assert_eq!(
        Some(path),
        model.as_deref(),
        "not drive-absolute or not normalized"
    );
    let sep = |c: char| c == '\\' || c == '/';
    prop_assert!(
        !(s.starts_with(sep) && s[1..].starts_with(sep)),
        "a UNC or device prefix"
    );
    for part in path[3..].split('\\').filter(|p| !p.is_empty()) {
        prop_assert!(part != "." && part != "..", "a dot component in {:?}", path);
        prop_assert!(
            !part.ends_with(['.', ' ']),
            "a trailing dot or space in {:?}",
            path
        );
        prop_assert!(!is_device(part), "a device name in {:?}", path);
    }
    powershell_carries(p.powershell().as_str(), path)?;
    cmd_carries(p.cmd().as_str(), path)?;
    prop_assert_eq!(slot.powershell(), p.powershell().to_string());
    prop_assert_eq!(slot.cmd(), p.cmd().to_string());
    prop_assert_eq!(slot.path(), Some(&p));
    prop_assert_eq!(slot.note(), None);
    Ok(())
}

/// A quote block: every line starts `>` (then a space, or nothing), no
/// backtick, nothing invisible but the line breaks, capped.
fn quote_block_is_framed(s: &str) -> Result<(), TestCaseError> {
    let block = Untrusted::new(s).quote_block().to_string();
    for line in block.split('\n') {
        prop_assert!(
            line == ">" || line.starts_with("> "),
            "unframed line {:?}",
            line
        );
    }
    prop_assert!(!block.contains('`'), "a backtick in {:?}", block);
    prop_assert!(
        !block.chars().any(|c| c != '\n' && invisible(c)),
        "{:?}",
        block
    );
    prop_assert!(block.split('\n').count() <= QUOTE_MAX_LINES);
    let cap = QUOTE_MAX_CHARS * ESCAPE_MAX_CHARS + QUOTE_MAX_LINES * 3 + 1;
    prop_assert!(
        block.chars().count() <= cap,
        "{} chars",
        block.chars().count()
    );
    Ok(())
}

/// An inline mention: one code span, `` ` `` only at both ends, capped.
fn inline_is_one_span(s: &str) -> Result<(), TestCaseError> {
    let shown = Untrusted::new(s).inline().to_string();
    if s.is_empty() {
        prop_assert_eq!(shown, "(empty)");
        return Ok(());
    }
    prop_assert!(shown.len() >= 2 && shown.starts_with('`') && shown.ends_with('`'));
    prop_assert_eq!(shown.matches('`').count(), 2, "{:?}", shown);
    prop_assert!(!shown.chars().any(invisible), "{:?}", shown);
    prop_assert!(shown.chars().count() <= INLINE_MAX_CHARS * ESCAPE_MAX_CHARS + 3);
    Ok(())
}

/// Escaped text: one line, nothing invisible (no `\n`, `\r`, ESC), capped.
fn escaped_is_one_visible_line(s: &str) -> Result<(), TestCaseError> {
    let shown = escaped(s).to_string();
    prop_assert_eq!(&shown, &Untrusted::new(s).escaped().to_string());
    prop_assert!(!shown.chars().any(invisible), "{:?}", shown);
    prop_assert!(shown.chars().count() <= LOG_FIELD_MAX_CHARS * ESCAPE_MAX_CHARS + 1);
    Ok(())
}

/// The longest escape one character becomes in a log field: a surrogate
/// pair, `\ud800\udc00`.
const LOG_ESCAPE_MAX_CHARS: usize = 12;

/// A log field is one logfmt value: `agent=<field> family=acl` reads back, by
/// the reference reader, as exactly those two pairs with the agent's value
/// the original (or its first [`LOG_FIELD_MAX_CHARS`] characters and `…`);
/// and the line is one line with nothing invisible on it.
fn log_field_is_one_logfmt_value(s: &str) -> Result<(), TestCaseError> {
    let shown = log_field(s).to_string();
    prop_assert_eq!(&shown, &Untrusted::new(s).log().to_string());
    prop_assert!(!shown.chars().any(invisible), "{:?}", shown);
    prop_assert!(shown.chars().count() <= LOG_FIELD_MAX_CHARS * LOG_ESCAPE_MAX_CHARS + 3);
    let line = format!("agent={shown} family=acl");
    let pairs = logfmt::parse(&line).map_err(TestCaseError::fail)?;
    let expected = if s.chars().count() > LOG_FIELD_MAX_CHARS {
        format!(
            "{}…",
            s.chars().take(LOG_FIELD_MAX_CHARS).collect::<String>()
        )
    } else {
        s.to_owned()
    };
    let want: Vec<logfmt::Pair> = vec![
        ("agent".into(), Some(expected)),
        ("family".into(), Some("acl".into())),
    ];
    prop_assert_eq!(pairs, want, "{:?}", line);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn powershell_literals_read_back_exactly(s in strategy::hostile()) {
        if let Ok(lit) = Untrusted::new(&s).powershell() {
            powershell_carries(lit.as_str(), &s)?;
        }
    }

    #[test]
    fn cmd_arguments_read_back_exactly(
        s in prop_oneof![strategy::hostile(), strategy::near_cmd()],
    ) {
        if let Ok(arg) = Untrusted::new(&s).cmd() {
            cmd_carries(arg.as_str(), &s)?;
        }
    }

    #[test]
    fn command_paths_are_drive_absolute_normalized_and_quoted(
        s in prop_oneof![strategy::hostile(), strategy::near_path()],
    ) {
        path_is_checked(&s)?;
    }

    #[test]
    fn quote_blocks_stay_one_block(s in strategy::hostile()) {
        quote_block_is_framed(&s)?;
    }

    #[test]
    fn inline_mentions_stay_one_code_span(s in strategy::hostile()) {
        inline_is_one_span(&s)?;
    }

    #[test]
    fn escaped_text_stays_one_visible_line(s in strategy::hostile()) {
        escaped_is_one_visible_line(&s)?;
    }

    #[test]
    fn log_fields_read_back_as_one_logfmt_value(s in strategy::hostile()) {
        log_field_is_one_logfmt_value(&s)?;
    }

    #[test]
    fn any_string_is_one_logfmt_value(s in any::<String>()) {
        log_field_is_one_logfmt_value(&s)?;
    }

    /// A log field is bare exactly when nothing in it can end a bare value.
    #[test]
    fn log_fields_are_bare_only_when_safe(s in strategy::visible()) {
        let shown = log_field(&s).to_string();
        let head: String = s.chars().take(LOG_FIELD_MAX_CHARS).collect();
        let quoted = head.is_empty() || head.contains([' ', '=', '"']);
        prop_assert_eq!(shown.starts_with('"'), quoted, "{:?}", shown);
        if !quoted && head == s {
            prop_assert_eq!(&shown, &s);
        }
    }

    /// The refusals are narrow: visible text is carried unless it holds a
    /// `"` or ends in a backslash after a space (which Windows PowerShell
    /// would pass on to a program unescaped).
    #[test]
    fn powershell_carries_visible_text(s in strategy::visible()) {
        let risky = s.contains('"') || (s.ends_with('\\') && s.contains(' '));
        let lit = Untrusted::new(&s).powershell();
        prop_assert_eq!(lit.is_err(), risky, "{:?}", lit);
        if let Ok(lit) = lit {
            powershell_carries(lit.as_str(), &s)?;
        }
    }

    #[test]
    fn cmd_carries_allow_listed_text(s in strategy::cmd_safe()) {
        let arg = Untrusted::new(&s).cmd();
        prop_assert!(arg.is_ok(), "{:?}", arg);
        if let Ok(arg) = arg {
            cmd_carries(arg.as_str(), &s)?;
        }
    }

    #[test]
    fn well_formed_paths_are_accepted(s in strategy::well_formed_path()) {
        let p = Untrusted::new(&s).command_path();
        let model = normalized(&s);
        prop_assert_eq!(p.as_ref().map(|p| p.as_str()).ok(), model.as_deref(), "{:?}", p);
        path_is_checked(&s)?;
    }

    /// Visible text without a backtick or a line break is shown as itself.
    #[test]
    fn plain_text_is_shown_verbatim(s in strategy::visible()) {
        let s: String = s.replace('`', "'").chars().take(INLINE_MAX_CHARS).collect();
        prop_assert_eq!(Untrusted::new(&s).quote_block().to_string(), format!("> {s}"));
        prop_assert_eq!(Untrusted::new(&s).inline().to_string(), format!("`{s}`"));
        prop_assert_eq!(escaped(&s).to_string(), s);
    }
}

/// The six hostile cases of the issue, and the argument edges beside them,
/// through every rendering: exact output, the refusal's reason, and the
/// models' reading of every command rendering.
#[test]
fn hostile_cases_through_every_rendering() {
    for case in cases::all() {
        let name = case.name;
        let u = Untrusted::new(&case.input);
        let ps = u.powershell();
        assert_eq!(
            ps.as_ref().map(|l| l.as_str()).map_err(|e| *e),
            case.powershell,
            "{name}: powershell"
        );
        if let Ok(lit) = &ps {
            powershell_carries(lit.as_str(), &case.input).unwrap();
        }
        let arg = u.cmd();
        assert_eq!(
            arg.as_ref().map(|a| a.as_str()).map_err(|e| *e),
            case.cmd,
            "{name}: cmd"
        );
        if let Ok(arg) = &arg {
            cmd_carries(arg.as_str(), &case.input).unwrap();
        }
        let path = u.command_path();
        assert_eq!(
            path.as_ref().map(|p| p.as_str()).map_err(|e| *e),
            case.path,
            "{name}: command_path"
        );
        let slot = PathSlot::new(&u, PLACEHOLDER);
        assert_eq!(
            (&*slot.powershell(), &*slot.cmd()),
            case.slot,
            "{name}: slot"
        );
        path_is_checked(&case.input).unwrap();
        assert_eq!(
            u.quote_block().to_string(),
            case.quote,
            "{name}: quote_block"
        );
        quote_block_is_framed(&case.input).unwrap();
        assert_eq!(u.inline().to_string(), case.inline, "{name}: inline");
        inline_is_one_span(&case.input).unwrap();
        assert_eq!(
            escaped(&case.input).to_string(),
            case.log,
            "{name}: escaped"
        );
        escaped_is_one_visible_line(&case.input).unwrap();
        log_field_is_one_logfmt_value(&case.input).unwrap();
    }
}
