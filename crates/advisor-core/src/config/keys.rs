//! The one declaration of every configuration key: its name, what it takes,
//! its default, what it means and which surfaces accept it. The validator's
//! wording, the `--config` help, the TypeScript `Config` type and the key
//! tables in the documentation all come from [`KEYS`].

use serde_json::Value;

use super::ConfigError;
use crate::quote::escaped;

/// Which surfaces accept a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Surface {
    /// Every surface: [`Config::from_json`](super::Config::from_json), the Node
    /// plugin and the CLI's `--config` file.
    Core,
    /// Only the CLI's `--config` file (the deployment's own settings).
    CliFile,
}

/// What a key takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyKind {
    /// A whole number from `min` to `max`; `max == u64::MAX` says no bound.
    Whole {
        /// The least value accepted.
        min: u64,
        /// The greatest value accepted.
        max: u64,
    },
    /// A list of tool-name patterns (strings; only `*` is a wildcard).
    Patterns,
    /// An http or https URL.
    Url,
    /// One of these words.
    Choice(&'static [&'static str]),
    /// A version `MAJOR.MINOR.PATCH`.
    Version,
    /// A non-empty string.
    Text,
    /// A non-empty string naming a directory.
    Directory,
    /// `memory`, `file` or `redis://host:port/db`.
    Ledger,
}

/// A key's default, as the documentation shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DefaultValue {
    /// This number.
    Number(u64),
    /// The empty list.
    EmptyList,
    /// This word.
    Word(&'static str),
    /// No value: the key's meaning says what happens.
    Unset,
}

/// One configuration key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeySpec {
    /// The key as written (camelCase).
    pub name: &'static str,
    /// What it takes.
    pub kind: KeyKind,
    /// Its default.
    pub default: DefaultValue,
    /// One line: what it means.
    pub meaning: &'static str,
    /// Which surfaces accept it.
    pub surface: Surface,
    /// The command-line flag that overrides it, when there is one.
    pub flag: Option<&'static str>,
}

/// The longest `href` accepted, in bytes.
pub const HREF_MAX_BYTES: usize = 2048;

/// Every configuration key, the core's first, in the order the documentation lists them.
pub const KEYS: &[KeySpec] = &[
    KeySpec {
        name: "enforceAfter",
        kind: KeyKind::Whole {
            min: 0,
            max: u32::MAX as u64,
        },
        default: DefaultValue::Number(0),
        meaning: "provisioning failures in one agent after which an identical watched call \
                  is refused before dispatch; 0 turns the fail-fast half off",
        surface: Surface::Core,
        flag: None,
    },
    KeySpec {
        name: "maxDenials",
        kind: KeyKind::Whole {
            min: 1,
            max: u32::MAX as u64,
        },
        default: DefaultValue::Number(2),
        meaning: "refusals one agent may spend per episode of brokenness",
        surface: Surface::Core,
        flag: None,
    },
    KeySpec {
        name: "include",
        kind: KeyKind::Patterns,
        default: DefaultValue::EmptyList,
        meaning: "tool-name patterns to watch (only `*` is a wildcard); empty means every tool",
        surface: Surface::Core,
        flag: None,
    },
    KeySpec {
        name: "exclude",
        kind: KeyKind::Patterns,
        default: DefaultValue::EmptyList,
        meaning: "tool-name patterns never watched; exclude wins over include",
        surface: Surface::Core,
        flag: None,
    },
    KeySpec {
        name: "href",
        kind: KeyKind::Url,
        default: DefaultValue::Unset,
        meaning: "cited in advisories instead of the discussion numbers; unset, an advisory \
                  that cites any names their repository",
        surface: Surface::Core,
        flag: None,
    },
    KeySpec {
        name: "ledgerCapacity",
        kind: KeyKind::Whole {
            min: 1,
            max: usize::MAX as u64,
        },
        default: DefaultValue::Number(super::DEFAULT_LEDGER_CAPACITY as u64),
        meaning: "an agent is forgotten (and would hear its advisories again) only after this \
                  many other agents were touched since its own last touch",
        surface: Surface::Core,
        flag: None,
    },
    KeySpec {
        name: "sessionCapacity",
        kind: KeyKind::Whole {
            min: 1,
            max: usize::MAX as u64,
        },
        default: DefaultValue::Number(super::DEFAULT_SESSION_CAPACITY as u64),
        meaning: "a session's remembered facts are forgotten only after this many other \
                  sessions were touched since its own last touch",
        surface: Surface::Core,
        flag: None,
    },
    KeySpec {
        name: "locale",
        kind: KeyKind::Choice(&["en", "zh-CN"]),
        default: DefaultValue::Word("en"),
        meaning: "the language of summaries and briefs",
        surface: Surface::Core,
        flag: Some("--locale"),
    },
    KeySpec {
        name: "advisoryText",
        kind: KeyKind::Choice(&["brief", "full"]),
        default: DefaultValue::Word("brief"),
        meaning: "what the model-facing `text` holds: the brief, or the full account (in English)",
        surface: Surface::Core,
        flag: None,
    },
    KeySpec {
        name: "hostVersion",
        kind: KeyKind::Version,
        default: DefaultValue::Unset,
        meaning: "the DSH Desktop version hosting the harness; unset, an advisory whose remedy \
                  depends on it gives each version branch",
        surface: Surface::Core,
        flag: Some("--host-version"),
    },
    KeySpec {
        name: "defaultMode",
        kind: KeyKind::Choice(&["read-only", "workspace-write", "danger-full-access"]),
        default: DefaultValue::Unset,
        meaning: "the deployment's default sandbox mode; unset, `serve` and `replay` give a \
                  DeepSeek-harness stream `read-only`, and `hook` assumes none",
        surface: Surface::CliFile,
        flag: None,
    },
    KeySpec {
        name: "fallbackRoot",
        kind: KeyKind::Text,
        default: DefaultValue::Unset,
        meaning: "the workspace root of a session whose header has no `cwd`",
        surface: Surface::CliFile,
        flag: None,
    },
    KeySpec {
        name: "ledger",
        kind: KeyKind::Ledger,
        default: DefaultValue::Unset,
        meaning: "where the once-per-agent facts and the fail-fast budget live; unset, \
                  `serve` uses `memory` and `hook` uses `file`",
        surface: Surface::CliFile,
        flag: Some("--ledger"),
    },
    KeySpec {
        name: "stateDir",
        kind: KeyKind::Directory,
        default: DefaultValue::Unset,
        meaning: "the on-disk store's directory; unset, the per-user state directory",
        surface: Surface::CliFile,
        flag: Some("--state-dir"),
    },
];

/// The declaration of `name`, when some surface accepts it.
pub fn key(name: &str) -> Option<&'static KeySpec> {
    KEYS.iter().find(|k| k.name == name)
}

/// The keys a surface accepts: the core's alone, or (for the CLI file) every key.
pub fn keys_of(surface: Surface) -> impl Iterator<Item = &'static KeySpec> {
    KEYS.iter()
        .filter(move |k| surface == Surface::CliFile || k.surface == Surface::Core)
}

/// The reason given for a key the surface does not know: the keys it does know.
pub fn unknown_key_reason(surface: Surface) -> String {
    let known: Vec<String> = keys_of(surface).map(|k| format!("`{}`", k.name)).collect();
    format!("unknown key; expected one of {}", known.join(", "))
}

/// What a value is, in the document's terms (a string's text escaped).
pub fn got(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("`{b}`"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string \"{}\"", escaped(s)),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "a table".into(),
    }
}

impl KeyKind {
    /// What the kind takes, worded for a person: the `…` in "must be …".
    pub fn takes(&self) -> String {
        match *self {
            KeyKind::Whole { min, max: u64::MAX } => format!("a whole number of at least {min}"),
            KeyKind::Whole { min, max } => format!("a whole number from {min} to {max}"),
            KeyKind::Patterns => "a list of tool-name patterns (strings)".into(),
            KeyKind::Url => format!(
                "an http or https URL (a string without whitespace, at most {HREF_MAX_BYTES} bytes)"
            ),
            KeyKind::Choice(words) => {
                let quoted: Vec<String> = words.iter().map(|w| format!("`{w}`")).collect();
                match quoted.as_slice() {
                    [one] => one.clone(),
                    [a, b] => format!("{a} or {b}"),
                    _ => format!("one of {}", quoted.join(", ")),
                }
            }
            KeyKind::Version => "a version string MAJOR.MINOR.PATCH such as \"2.0.11\"".into(),
            KeyKind::Text => "a non-empty string".into(),
            KeyKind::Directory => "a non-empty string (a directory)".into(),
            KeyKind::Ledger => "`memory`, `file` or `redis://host:port/db`".into(),
        }
    }

    /// True when `value` has the shape this kind takes. A list's items are
    /// checked one by one by [`KeySpec::check`].
    fn fits(&self, value: &Value) -> bool {
        match *self {
            KeyKind::Whole { min, max } => value.as_u64().is_some_and(|n| (min..=max).contains(&n)),
            KeyKind::Patterns => value.is_array(),
            KeyKind::Url => value.as_str().is_some_and(|s| {
                (s.starts_with("https://") || s.starts_with("http://"))
                    && !s.chars().any(|c| c.is_whitespace() || c.is_control())
                    && s.len() <= HREF_MAX_BYTES
            }),
            KeyKind::Choice(words) => value.as_str().is_some_and(|s| words.contains(&s)),
            KeyKind::Version | KeyKind::Ledger => value.is_string(),
            KeyKind::Text | KeyKind::Directory => value.as_str().is_some_and(|s| !s.is_empty()),
        }
    }
}

impl KeySpec {
    /// Checks a value's shape and range in the document's terms, so that an
    /// error says what the key takes and never names a Rust type. `null` is
    /// accepted for a key whose default is unset, and means unset. Finer rules
    /// (a pattern's characters, a version's parts, a ledger's URL) are the
    /// parser's.
    pub fn check(&self, value: &Value) -> Result<(), ConfigError> {
        if value.is_null() && self.default == DefaultValue::Unset {
            return Ok(());
        }
        if !self.kind.fits(value) {
            return Err(ConfigError::at(
                self.name,
                format!("must be {}, not {}", self.kind.takes(), got(value)),
            ));
        }
        if let (KeyKind::Patterns, Value::Array(items)) = (self.kind, value) {
            for (i, item) in items.iter().enumerate() {
                if !item.is_string() {
                    return Err(ConfigError::at(
                        &format!("{}[{i}]", self.name),
                        format!("must be a string (a tool-name pattern), not {}", got(item)),
                    ));
                }
            }
        }
        Ok(())
    }
}
