//! Configuration, with the original plugin's camelCase keys, validated in one place.

use serde::Deserialize;

pub mod docs;
pub mod keys;

pub use keys::{DefaultValue, KEYS, KeyKind, KeySpec, Surface};

/// The default `ledgerCapacity`: an agent is forgotten only after this many other
/// agents were touched since it was last touched.
pub const DEFAULT_LEDGER_CAPACITY: usize = 100_000;

/// The default `sessionCapacity`: a session's remembered facts (its pre-flight
/// verdict here; its header and mode in host-adapter's `SessionPolicy`) are
/// forgotten only after this many other sessions were touched since it was.
pub const DEFAULT_SESSION_CAPACITY: usize = 100_000;

/// What went wrong with a configuration, naming the key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// The document did not parse, or a key had the wrong type or was unknown.
    #[error("config key `{}`: {reason}", crate::quote::escaped(key))]
    Invalid {
        /// The offending key path as written (`.` when the document itself is
        /// wrong); escaped when shown.
        key: String,
        /// What is wrong with it, any text from the document already escaped.
        reason: String,
    },
}

impl ConfigError {
    pub(crate) fn at(key: &str, reason: impl Into<String>) -> Self {
        ConfigError::Invalid {
            key: key.to_owned(),
            reason: reason.into(),
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RawConfig {
    #[serde(default)]
    enforce_after: u32,
    #[serde(default = "default_max_denials")]
    max_denials: u32,
    #[serde(default)]
    include: Vec<String>,
    #[serde(default)]
    exclude: Vec<String>,
    #[serde(default)]
    href: Option<String>,
    #[serde(default = "default_capacity")]
    ledger_capacity: usize,
    #[serde(default = "default_session_capacity")]
    session_capacity: usize,
    #[serde(default)]
    locale: crate::Locale,
    #[serde(default)]
    advisory_text: crate::AdvisoryText,
    #[serde(default)]
    host_version: Option<String>,
}

fn default_max_denials() -> u32 {
    2
}

fn default_capacity() -> usize {
    DEFAULT_LEDGER_CAPACITY
}

fn default_session_capacity() -> usize {
    DEFAULT_SESSION_CAPACITY
}

/// A tool-name pattern, as the original plugin reads one: `*` stands for any
/// run of characters (the empty run included) and every other character,
/// `?`, `[` and `]` among them, stands for itself. Matching is whole-name and
/// case-sensitive, so a configuration written for the original watches
/// exactly the same tools here.
#[derive(Debug, Clone)]
pub struct ToolPattern {
    raw: String,
}

impl ToolPattern {
    /// Parses a pattern; empty patterns and whitespace are refused.
    pub fn new(raw: &str) -> Result<Self, String> {
        if raw.is_empty() {
            return Err("a pattern must not be empty".into());
        }
        if raw.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(format!(
                "pattern \"{}\" holds whitespace or a control character",
                crate::quote::escaped(raw)
            ));
        }
        Ok(Self {
            raw: raw.to_owned(),
        })
    }

    /// True when the whole tool name matches.
    pub fn matches(&self, tool: &str) -> bool {
        let mut parts = self.raw.split('*');
        // `split` always yields a first part: the literal before any `*`.
        let first = parts.next().unwrap_or_default();
        let Some(mut rest) = tool.strip_prefix(first) else {
            return false;
        };
        let Some(last) = parts.next_back() else {
            return rest.is_empty(); // no `*` at all: the name is the pattern
        };
        for middle in parts {
            match rest.find(middle) {
                Some(at) => rest = &rest[at + middle.len()..],
                None => return false,
            }
        }
        rest.len() >= last.len() && rest.ends_with(last)
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.raw
    }
}

impl PartialEq for ToolPattern {
    fn eq(&self, other: &Self) -> bool {
        self.raw == other.raw
    }
}

/// The validated configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// Provisioning failures in one agent after which an identical watched call
    /// is refused before dispatch; 0 turns the fail-fast half off.
    pub enforce_after: u32,
    /// Refusals one agent may spend per episode of brokenness.
    pub max_denials: u32,
    /// Tool-name patterns to watch; empty means every tool.
    pub include: Vec<ToolPattern>,
    /// Tool-name patterns never watched; exclude wins over include.
    pub exclude: Vec<ToolPattern>,
    /// Cited in advisories instead of discussion numbers.
    pub href: Option<String>,
    /// An agent is forgotten (and would hear its advisories again) only after
    /// this many other agents were touched since its own last touch; at most
    /// `ledger_capacity + ledger_capacity / 8` agents are held.
    pub ledger_capacity: usize,
    /// A session's remembered facts are forgotten only after this many other
    /// sessions were touched since its own last touch; at most
    /// `session_capacity + session_capacity / 8` sessions are held per map.
    pub session_capacity: usize,
    /// The language of summaries and briefs (`en`, `zh-CN`).
    pub locale: crate::Locale,
    /// What the model-facing `text` holds: the brief (default) or the full account.
    pub advisory_text: crate::AdvisoryText,
    /// The desktop app's version (`hostVersion`), when the deployment knows it;
    /// a family then gives only the version branch that applies.
    pub host_version: Option<crate::HostVersion>,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            enforce_after: 0,
            max_denials: default_max_denials(),
            include: Vec::new(),
            exclude: Vec::new(),
            href: None,
            ledger_capacity: DEFAULT_LEDGER_CAPACITY,
            session_capacity: DEFAULT_SESSION_CAPACITY,
            locale: crate::Locale::En,
            advisory_text: crate::AdvisoryText::Brief,
            host_version: None,
        }
    }
}

impl Config {
    /// Reads a configuration from a JSON value: an object of the keys [`KEYS`]
    /// declares for [`Surface::Core`]. Unknown keys and bad values are errors
    /// that name the key and say, in the document's terms, what it takes.
    pub fn from_json(value: serde_json::Value) -> Result<Self, ConfigError> {
        let serde_json::Value::Object(map) = &value else {
            return Err(ConfigError::at(
                ".",
                format!("must be a table of keys, not {}", keys::got(&value)),
            ));
        };
        for (name, value) in map {
            if let Some(spec) = keys::key(name).filter(|k| k.surface == Surface::Core) {
                spec.check(value)?;
            }
        }
        // What is left for serde is a key no surface declares for the core.
        let raw: RawConfig = serde_path_to_error::deserialize(value).map_err(|e| {
            let key = e.path().to_string();
            let inner = e.into_inner().to_string();
            match unknown_field(&inner) {
                Some(field) => ConfigError::at(field, keys::unknown_key_reason(Surface::Core)),
                None => ConfigError::at(&key, crate::quote::escaped(&inner).to_string()),
            }
        })?;
        Self::validate(raw)
    }

    /// Reads a configuration from JSON text.
    pub fn from_json_str(text: &str) -> Result<Self, ConfigError> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| ConfigError::at(".", e.to_string()))?;
        Self::from_json(value)
    }

    /// The rules past a value's shape and range ([`KeySpec::check`] did those).
    fn validate(raw: RawConfig) -> Result<Self, ConfigError> {
        let patterns = |key: &str, list: Vec<String>| {
            list.iter()
                .enumerate()
                .map(|(i, p)| {
                    ToolPattern::new(p).map_err(|r| ConfigError::at(&format!("{key}[{i}]"), r))
                })
                .collect::<Result<Vec<_>, _>>()
        };
        let host_version = raw
            .host_version
            .as_deref()
            .map(|v| {
                v.parse::<crate::HostVersion>()
                    .map_err(|e| ConfigError::at("hostVersion", e.to_string()))
            })
            .transpose()?;
        Ok(Self {
            host_version,
            enforce_after: raw.enforce_after,
            max_denials: raw.max_denials,
            include: patterns("include", raw.include)?,
            exclude: patterns("exclude", raw.exclude)?,
            href: raw.href,
            ledger_capacity: raw.ledger_capacity,
            session_capacity: raw.session_capacity,
            locale: raw.locale,
            advisory_text: raw.advisory_text,
        })
    }

    /// True when calls to `tool` are watched: included (or no include list) and not excluded.
    pub fn tracks(&self, tool: &str) -> bool {
        let included = self.include.is_empty() || self.include.iter().any(|p| p.matches(tool));
        included && !self.exclude.iter().any(|p| p.matches(tool))
    }
}

fn unknown_field(message: &str) -> Option<&str> {
    let rest = message.strip_prefix("unknown field `")?;
    rest.split('`').next()
}

#[cfg(test)]
mod tests;
