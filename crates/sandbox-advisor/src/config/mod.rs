//! The configuration file: advisor-core's keys plus the deployment's policy defaults.
//!
//! A file is TOML when its name ends in `.toml` and JSON when it ends in
//! `.json`; any other name is read as JSON when its text starts with `{` and as
//! TOML otherwise, and the header and every error say which was assumed. A
//! UTF-8 byte-order mark at the start is ignored, and a file larger than
//! [`CONFIG_MAX_BYTES`] is refused unread. Its keys are
//! [`Config::from_json`]'s ([`LIBRARY_KEYS`]) plus `defaultMode` (the deployment
//! default sandbox mode, `read-only` unless set) and `fallbackRoot` (the
//! workspace root of a session whose header has no `cwd`). Unknown keys and bad
//! values are errors that name the key and say, in the file's own terms, what
//! the key takes.

use std::fmt;
use std::path::{Path, PathBuf};

use advisor_core::quote::escaped as log_field; // text and errors, not log fields
use advisor_core::{Config, ConfigError, SandboxMode};

use crate::ledger::LedgerSpec;
use serde_json::{Map, Value};

/// The keys [`Config::from_json`] takes, in the order the documentation lists them.
pub const LIBRARY_KEYS: [&str; 10] = [
    "enforceAfter",
    "maxDenials",
    "include",
    "exclude",
    "href",
    "ledgerCapacity",
    "sessionCapacity",
    "locale",
    "advisoryText",
    "hostVersion",
];

/// The keys only the CLI takes: the deployment's policy defaults.
pub const POLICY_KEYS: [&str; 2] = ["defaultMode", "fallbackRoot"];

/// The keys that choose where the once-per-agent facts live (`crate::ledger`).
pub const LEDGER_KEYS: [&str; 2] = ["ledger", "stateDir"];

/// The mode the DeepSeek harness resolves for a session that states none
/// (seed 002). Only a stream from the harness is given it; a hook is not,
/// since what it reads never says which mode the client runs.
pub const HARNESS_DEFAULT_MODE: SandboxMode = SandboxMode::ReadOnly;

/// The validated file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FileConfig {
    /// The library configuration.
    pub core: Config,
    /// The deployment default mode, when the file states one (`defaultMode`).
    /// Absent: `serve` and `replay` use the harness's own default,
    /// `read-only`, for a DeepSeek-harness stream; `hook` and any other
    /// host use none, and a family that needs the mode withholds.
    pub default_mode: Option<SandboxMode>,
    /// The root of a session without a `cwd`.
    pub fallback_root: Option<String>,
    /// The `ledger` key, when set (`--ledger` overrides it).
    pub ledger: Option<LedgerSpec>,
    /// The `stateDir` key, when set (`--state-dir` overrides it).
    pub state_dir: Option<PathBuf>,
}

/// The two syntaxes a configuration file may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// JSON: one object.
    Json,
    /// TOML: a table of keys.
    Toml,
}

/// The syntax a file was read with, and whether its name or its text decided it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Format {
    /// The syntax.
    pub syntax: Syntax,
    /// True when the name ends in neither `.toml` nor `.json` and the text decided.
    pub detected: bool,
}

impl Format {
    /// A file named `.toml` is TOML and one named `.json` is JSON; any other
    /// name is JSON when its text (without a byte-order mark) starts with `{`,
    /// since a TOML document cannot, and TOML otherwise.
    pub fn of(path: &Path, text: &str) -> Self {
        let extension = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match extension.as_deref() {
            Some("toml") => Self {
                syntax: Syntax::Toml,
                detected: false,
            },
            Some("json") => Self {
                syntax: Syntax::Json,
                detected: false,
            },
            _ => Self {
                syntax: if text.trim_start().starts_with('{') {
                    Syntax::Json
                } else {
                    Syntax::Toml
                },
                detected: true,
            },
        }
    }
}

impl fmt::Display for Format {
    /// `JSON`, `TOML`, or `TOML, detected from its content` when the name did not say.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.syntax {
            Syntax::Json => "JSON",
            Syntax::Toml => "TOML",
        })?;
        if self.detected {
            f.write_str(", detected from its content")?;
        }
        Ok(())
    }
}

/// A path as the CLI prints it: escaped like any text it did not write.
pub fn shown(path: &Path) -> String {
    log_field(&path.to_string_lossy()).to_string()
}

/// Why a configuration file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigFileError {
    /// The file could not be read.
    #[error("cannot read config {}: {source}", shown(path))]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is larger than [`CONFIG_MAX_BYTES`]; the rest was not read.
    #[error(
        "config {} is larger than 1 MiB (the most a configuration file may hold); \
         is it the right file?",
        shown(path)
    )]
    TooLarge {
        /// The file.
        path: PathBuf,
    },
    /// The file is not valid JSON or TOML.
    #[error(
        "parse error in {} at line {line} column {column}: {message} (read as {format})",
        shown(path)
    )]
    Syntax {
        /// The file.
        path: PathBuf,
        /// The syntax it was read with.
        format: Format,
        /// The 1-based line of the error.
        line: usize,
        /// The 1-based column (in characters) of the error.
        column: usize,
        /// What the parser expected, escaped for a terminal.
        message: String,
    },
    /// The file parsed but is not a valid configuration.
    #[error("config {}: {source}", shown(path))]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong, naming the key.
        source: KeyError,
    },
}

/// Why a document could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The text is not valid JSON or TOML.
    #[error("parse error at line {line} column {column}: {message}")]
    Syntax {
        /// The 1-based line.
        line: usize,
        /// The 1-based column, in characters.
        column: usize,
        /// What the parser expected, escaped for a terminal.
        message: String,
    },
    /// The document parsed but a key is wrong.
    #[error(transparent)]
    Key(#[from] KeyError),
}

/// A configuration that parsed but cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyError {
    /// The document is not a table of keys.
    #[error("the document must be a table of keys, not {0}")]
    NotATable(String),
    /// A key is unknown or its value is wrong.
    #[error("config key `{}`: {reason}", log_field(key))]
    Key {
        /// The key as written (escaped when shown).
        key: String,
        /// What is wrong with it, and what it takes.
        reason: String,
    },
}

impl From<ConfigError> for KeyError {
    fn from(e: ConfigError) -> Self {
        match e {
            ConfigError::Invalid { key, reason } => KeyError::Key {
                key,
                reason: log_field(&reason).to_string(),
            },
        }
    }
}

fn key_error(key: &str, reason: impl Into<String>) -> KeyError {
    KeyError::Key {
        key: key.to_owned(),
        reason: reason.into(),
    }
}

/// What a value is, in the file's terms (the value itself escaped).
fn got(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("`{b}`"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string \"{}\"", log_field(s)),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "a table".into(),
    }
}

/// Checks one library key's value in the file's terms, so that an error says
/// what the key takes instead of naming a Rust type.
fn check_library_key(key: &str, value: &Value) -> Result<(), KeyError> {
    let whole = |min: u64, max: u64| value.as_u64().is_some_and(|n| (min..=max).contains(&n));
    let expected = match key {
        "enforceAfter" if !whole(0, u64::from(u32::MAX)) => "a whole number from 0 to 4294967295",
        "maxDenials" if !whole(1, u64::from(u32::MAX)) => "a whole number from 1 to 4294967295",
        "ledgerCapacity" | "sessionCapacity" if !whole(1, u64::MAX) => {
            "a whole number of at least 1"
        }
        "href" if !(value.is_string() || value.is_null()) => "a string (an http or https URL)",
        "locale" if !matches!(value.as_str(), Some("en" | "zh-CN")) => "`en` or `zh-CN`",
        "advisoryText" if !matches!(value.as_str(), Some("brief" | "full")) => "`brief` or `full`",
        "hostVersion" if !value.is_string() => {
            "a version string MAJOR.MINOR.PATCH such as \"2.0.11\""
        }
        "include" | "exclude" => match value {
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    if !item.is_string() {
                        return Err(key_error(
                            &format!("{key}[{i}]"),
                            format!("must be a string (a tool-name pattern), not {}", got(item)),
                        ));
                    }
                }
                return Ok(());
            }
            _ => "a list of tool-name patterns (strings)",
        },
        _ => return Ok(()),
    };
    Err(key_error(
        key,
        format!("must be {expected}, not {}", got(value)),
    ))
}

fn unknown_key(key: &str) -> KeyError {
    let known: Vec<String> = LIBRARY_KEYS
        .iter()
        .chain(&POLICY_KEYS)
        .chain(&LEDGER_KEYS)
        .map(|k| format!("`{k}`"))
        .collect();
    key_error(
        key,
        format!("unknown key; expected one of {}", known.join(", ")),
    )
}

/// The 1-based line and column (in characters) of byte `offset` in `text`.
fn position(text: &str, offset: usize) -> (usize, usize) {
    let mut end = offset.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let before = &text[..end];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
}

/// serde_json's syntax message without its position, in plain words.
pub fn json_syntax_message(e: &serde_json::Error) -> String {
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    let bare = full.strip_suffix(&suffix).unwrap_or(&full);
    let plain = match bare {
        // serde_json's names for "the rest of `true`, `false` or `null`" and "any value".
        "expected ident" | "expected value" => "expected a JSON value".to_owned(),
        other => match other.strip_prefix("EOF while parsing ") {
            Some(what) => format!("the text ends inside {what}"),
            None => other.to_owned(),
        },
    };
    log_field(&plain).to_string()
}

impl FileConfig {
    /// Reads and validates a file, choosing its syntax with [`Format::of`].
    pub fn load(path: &Path) -> Result<(Self, Format), ConfigFileError> {
        let raw = read_capped(path)?;
        let text = without_bom(&raw);
        let format = Format::of(path, text);
        match Self::parse(text, format.syntax) {
            Ok(config) => Ok((config, format)),
            Err(ParseError::Syntax {
                line,
                column,
                message,
            }) => Err(ConfigFileError::Syntax {
                path: path.to_owned(),
                format,
                line,
                column,
                message,
            }),
            Err(ParseError::Key(source)) => Err(ConfigFileError::Invalid {
                path: path.to_owned(),
                source,
            }),
        }
    }

    /// Parses a document and validates it.
    pub fn parse(text: &str, syntax: Syntax) -> Result<Self, ParseError> {
        let value = match syntax {
            Syntax::Toml => {
                let table: toml::Table = toml::from_str(text).map_err(|e| {
                    let (line, column) = position(text, e.span().map_or(0, |s| s.start));
                    ParseError::Syntax {
                        line,
                        column,
                        message: log_field(e.message().trim_end()).to_string(),
                    }
                })?;
                serde_json::to_value(table).map_err(|e| ParseError::Syntax {
                    line: 1,
                    column: 1,
                    message: log_field(&e.to_string()).to_string(),
                })?
            }
            Syntax::Json => serde_json::from_str(text).map_err(|e| ParseError::Syntax {
                line: e.line(),
                // serde_json says column 0 for the end of input after a newline.
                column: e.column().max(1),
                message: json_syntax_message(&e),
            })?,
        };
        Ok(Self::from_value(value)?)
    }

    /// Validates a parsed document.
    pub fn from_value(value: Value) -> Result<Self, KeyError> {
        let Value::Object(map) = value else {
            return Err(KeyError::NotATable(got(&value)));
        };
        let mut library = Map::new();
        let mut default_mode = None;
        let mut fallback_root = None;
        let (mut ledger, mut state_dir) = (None, None);
        for (key, value) in map {
            match key.as_str() {
                "defaultMode" => {
                    default_mode = Some(
                        value
                            .as_str()
                            .and_then(|raw| raw.parse::<SandboxMode>().ok())
                            .ok_or_else(|| {
                                key_error(
                                    "defaultMode",
                                    format!(
                                        "must be one of `read-only`, `workspace-write`, \
                                     `danger-full-access`, not {}",
                                        got(&value)
                                    ),
                                )
                            })?,
                    );
                }
                "fallbackRoot" => match value {
                    Value::String(raw) if !raw.is_empty() => fallback_root = Some(raw),
                    other => {
                        return Err(key_error(
                            "fallbackRoot",
                            format!("must be a non-empty string, not {}", got(&other)),
                        ));
                    }
                },
                "ledger" => {
                    let spec = match &value {
                        Value::String(raw) => raw.parse::<LedgerSpec>(),
                        other => Err(crate::ledger::UnknownLedger(got(other)).into()),
                    };
                    ledger = Some(spec.map_err(|e| key_error("ledger", e.to_string()))?);
                }
                "stateDir" => match value {
                    Value::String(raw) if !raw.is_empty() => state_dir = Some(PathBuf::from(raw)),
                    other => {
                        return Err(key_error(
                            "stateDir",
                            format!(
                                "must be a non-empty string (a directory), not {}",
                                got(&other)
                            ),
                        ));
                    }
                },
                k if LIBRARY_KEYS.contains(&k) => {
                    check_library_key(k, &value)?;
                    library.insert(key, value);
                }
                _ => return Err(unknown_key(&key)),
            }
        }
        Ok(Self {
            core: Config::from_json(Value::Object(library))?,
            default_mode,
            fallback_root,
            ledger,
            state_dir,
        })
    }

    /// The default mode of a DeepSeek-harness stream (`serve`, `replay`): the
    /// file's `defaultMode`, else the harness's own default, [`HARNESS_DEFAULT_MODE`].
    pub fn stream_default_mode(&self) -> SandboxMode {
        self.default_mode.unwrap_or(HARNESS_DEFAULT_MODE)
    }

    /// A short account of the settings that change decisions, for the text header.
    pub fn describe(&self) -> String {
        let mut parts = vec![format!("defaultMode {}", self.stream_default_mode())];
        if self.core.enforce_after > 0 {
            parts.push(format!(
                "enforceAfter {}, maxDenials {}",
                self.core.enforce_after, self.core.max_denials
            ));
        } else {
            parts.push("fail-fast off".into());
        }
        if let Some(root) = &self.fallback_root {
            parts.push(format!("fallbackRoot {}", log_field(root)));
        }
        parts.join(", ")
    }
}

/// The text without a leading UTF-8 byte-order mark (as Windows editors write one).
fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// The configuration a session file carries beside it: `<stem>.config.json` or
/// `<stem>.config.toml` (`examples/sessions/windows-acl.jsonl` →
/// `examples/sessions/windows-acl.config.json`), when one exists.
pub fn beside(session: &Path) -> Option<PathBuf> {
    let stem = session.file_stem()?.to_str()?;
    ["json", "toml"]
        .iter()
        .map(|ext| session.with_file_name(format!("{stem}.config.{ext}")))
        .find(|p| p.is_file())
}

mod read;

pub use read::CONFIG_MAX_BYTES;
use read::read_capped;

#[cfg(test)]
mod tests;
