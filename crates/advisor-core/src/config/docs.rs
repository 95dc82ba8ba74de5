//! Every surface that lists the configuration keys, rendered from [`KEYS`]: the
//! TypeScript `Config` fields, the Node README's table, the full table of
//! `docs/configuration.md`, `docs/protocol.md`'s list and the CLI's `--config`
//! help. `crates/advisor-core/tests/config_docs.rs` checks the committed files
//! against these.

use std::fmt::Write as _;

use super::keys::{DefaultValue, KEYS, KeyKind, KeySpec, Surface, keys_of};

impl DefaultValue {
    /// The default as a table cell: `0`, `` `[]` ``, `` `en` ``, or `—` when unset.
    pub fn shown(&self) -> String {
        match self {
            DefaultValue::Number(n) => n.to_string(),
            DefaultValue::EmptyList => "`[]`".into(),
            DefaultValue::Word(w) => format!("`{w}`"),
            DefaultValue::Unset => "—".into(),
        }
    }
}

impl KeyKind {
    /// The TypeScript type of a value of this kind.
    pub fn typescript(&self) -> String {
        match self {
            KeyKind::Whole { .. } => "number".into(),
            KeyKind::Patterns => "string[]".into(),
            KeyKind::Choice(words) => {
                let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
                quoted.join(" | ")
            }
            KeyKind::Url
            | KeyKind::Version
            | KeyKind::Text
            | KeyKind::Directory
            | KeyKind::Ledger => "string".into(),
        }
    }
}

impl Surface {
    /// Who accepts a key of this surface, as a table cell.
    pub fn shown(&self) -> &'static str {
        match self {
            Surface::Core => "all",
            Surface::CliFile => "CLI file only",
        }
    }
}

impl KeySpec {
    /// What the key takes and, when it has one, its default: `a whole number
    /// from 1 to 4294967295; default 2`.
    fn takes_and_default(&self) -> String {
        match self.default {
            DefaultValue::Unset => self.kind.takes(),
            d => format!("{}; default {}", self.kind.takes(), d.shown()),
        }
    }

    /// The meaning followed by the flag that overrides it, for the CLI's surfaces.
    fn meaning_with_flag(&self) -> String {
        match self.flag {
            Some(flag) => format!("{} (`{flag}` overrides it)", self.meaning),
            None => self.meaning.to_owned(),
        }
    }
}

/// The meaning as a sentence: capitalized, ending in a full stop.
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    let first: String = chars
        .next()
        .map(|c| c.to_uppercase().collect())
        .unwrap_or_default();
    format!("{first}{}.", chars.as_str())
}

/// The fields of the TypeScript `Config` interface, two-space indented, one
/// doc comment each: the keys the core (and so the Node plugin) accepts.
pub fn typescript_fields() -> String {
    let mut out = String::new();
    for k in keys_of(Surface::Core) {
        let _ = writeln!(
            out,
            "  /** {} Takes {}. */",
            sentence(k.meaning),
            k.takes_and_default()
        );
        let _ = writeln!(out, "  {}?: {}", k.name, k.kind.typescript());
    }
    out
}

/// The Node README's table: the keys the plugin accepts.
pub fn node_table() -> String {
    let mut out = String::from("| key | takes | default | meaning |\n|---|---|---|---|\n");
    for k in keys_of(Surface::Core) {
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} |",
            k.name,
            k.kind.takes(),
            k.default.shown(),
            k.meaning
        );
    }
    out
}

/// `docs/configuration.md`'s table: every key, with who accepts it.
pub fn full_table() -> String {
    let mut out =
        String::from("| key | takes | default | accepted by | meaning |\n|---|---|---|---|---|\n");
    for k in KEYS {
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} | {} |",
            k.name,
            k.kind.takes(),
            k.default.shown(),
            k.surface.shown(),
            k.meaning_with_flag()
        );
    }
    out
}

/// `docs/protocol.md`'s list: every key the `--config` file takes, one bullet each.
pub fn protocol_list() -> String {
    let mut out = String::new();
    for k in KEYS {
        let only = match k.surface {
            Surface::Core => "",
            Surface::CliFile => ", CLI file only",
        };
        let _ = writeln!(
            out,
            "- `{}` ({}{only}): {}.",
            k.name,
            k.takes_and_default(),
            k.meaning_with_flag()
        );
    }
    out
}

/// The CLI's short `--config` help: the file's forms and every key it takes.
pub fn cli_help() -> String {
    let names: Vec<&str> = KEYS.iter().map(|k| k.name).collect();
    format!(
        "Configuration file, TOML or JSON, with the keys {} (--help says what each takes)",
        names.join(", ")
    )
}

/// The CLI's long `--config` help: every key, what it takes, its default and meaning.
pub fn cli_long_help() -> String {
    let width = KEYS.iter().map(|k| k.name.len()).max().unwrap_or(0);
    let mut out = String::from(
        "Configuration file, TOML (a name ending in .toml) or JSON (.json; any other name: \
         JSON when the text starts with `{`). Its keys (docs/configuration.md):\n",
    );
    for k in KEYS {
        let _ = write!(
            out,
            "\n  {:width$}  {}: {}",
            k.name,
            k.takes_and_default(),
            k.meaning_with_flag()
        );
    }
    out
}
