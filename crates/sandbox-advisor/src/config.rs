//! The configuration file: advisor-core's keys plus the deployment's policy defaults.
//!
//! A file is TOML when its name ends in `.toml`, JSON otherwise. Its keys are
//! [`Config::from_json`]'s (`enforceAfter`, `maxDenials`, `include`, `exclude`,
//! `href`, `ledgerCapacity`, `sessionCapacity`) plus `defaultMode` (the
//! deployment default sandbox mode, `read-only` unless set) and `fallbackRoot`
//! (the workspace root of a session whose header has no `cwd`). Unknown keys and bad values are errors
//! that name the key.

use std::path::{Path, PathBuf};

use advisor_core::{Config, ConfigError, SandboxMode};
use serde_json::Value;

/// The validated file.
#[derive(Debug, Clone, PartialEq)]
pub struct FileConfig {
    /// The library configuration.
    pub core: Config,
    /// The deployment default mode.
    pub default_mode: SandboxMode,
    /// The root of a session without a `cwd`.
    pub fallback_root: Option<String>,
}

impl Default for FileConfig {
    fn default() -> Self {
        Self {
            core: Config::default(),
            default_mode: SandboxMode::ReadOnly,
            fallback_root: None,
        }
    }
}

/// Why a configuration file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigFileError {
    /// The file could not be read.
    #[error("config {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file was read but is not a valid configuration.
    #[error("config {path}: {source}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong, naming the key.
        source: ConfigError,
    },
}

impl FileConfig {
    /// Reads and validates a file.
    pub fn load(path: &Path) -> Result<Self, ConfigFileError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigFileError::Read {
            path: path.to_owned(),
            source,
        })?;
        let toml = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("toml"));
        Self::parse(&text, toml).map_err(|source| ConfigFileError::Invalid {
            path: path.to_owned(),
            source,
        })
    }

    /// Parses a document (TOML or JSON) and validates it.
    pub fn parse(text: &str, toml: bool) -> Result<Self, ConfigError> {
        let value = if toml {
            let table: toml::Table = toml::from_str(text).map_err(|e| invalid(".", e.message()))?;
            serde_json::to_value(table).map_err(|e| invalid(".", &e.to_string()))?
        } else {
            serde_json::from_str(text).map_err(|e| invalid(".", &e.to_string()))?
        };
        Self::from_value(value)
    }

    /// Validates a parsed document.
    pub fn from_value(mut value: Value) -> Result<Self, ConfigError> {
        let Value::Object(map) = &mut value else {
            return Err(invalid(".", "the document must be a table of keys"));
        };
        let default_mode = match map.remove("defaultMode") {
            None => SandboxMode::ReadOnly,
            Some(Value::String(raw)) => raw
                .parse()
                .map_err(|e: advisor_core::UnknownMode| invalid("defaultMode", &e.to_string()))?,
            Some(_) => return Err(invalid("defaultMode", "must be a string")),
        };
        let fallback_root = match map.remove("fallbackRoot") {
            None => None,
            Some(Value::String(raw)) if !raw.is_empty() => Some(raw),
            Some(_) => return Err(invalid("fallbackRoot", "must be a non-empty string")),
        };
        Ok(Self {
            core: Config::from_json(value)?,
            default_mode,
            fallback_root,
        })
    }

    /// A short account of the settings that change decisions, for the text header.
    pub fn describe(&self) -> String {
        let mut parts = vec![format!("defaultMode {}", self.default_mode)];
        if self.core.enforce_after > 0 {
            parts.push(format!(
                "enforceAfter {}, maxDenials {}",
                self.core.enforce_after, self.core.max_denials
            ));
        } else {
            parts.push("fail-fast off".into());
        }
        if let Some(root) = &self.fallback_root {
            parts.push(format!("fallbackRoot {root}"));
        }
        parts.join(", ")
    }
}

fn invalid(key: &str, reason: &str) -> ConfigError {
    ConfigError::Invalid {
        key: key.to_owned(),
        reason: reason.to_owned(),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_and_json_carry_the_same_keys() {
        let toml = FileConfig::parse(
            "enforceAfter = 2\ndefaultMode = \"workspace-write\"\nfallbackRoot = 'D:\\ws'\n",
            true,
        )
        .unwrap();
        let json = FileConfig::parse(
            r#"{"enforceAfter":2,"defaultMode":"workspace-write","fallbackRoot":"D:\\ws"}"#,
            false,
        )
        .unwrap();
        assert_eq!(toml, json);
        assert_eq!(json.core.enforce_after, 2);
        assert_eq!(json.fallback_root.as_deref(), Some(r"D:\ws"));
    }

    #[test]
    fn errors_name_the_key() {
        let e = |t: &str| FileConfig::parse(t, false).unwrap_err().to_string();
        assert!(e(r#"{"enforceAftr":1}"#).starts_with("config key `enforceAftr`: unknown key"));
        assert!(e(r#"{"defaultMode":"full"}"#).starts_with("config key `defaultMode`:"));
        assert!(e(r#"{"fallbackRoot":3}"#).starts_with("config key `fallbackRoot`:"));
        assert!(e("[]").starts_with("config key `.`:"));
        let t = FileConfig::parse("maxDenials = 'x'", true).unwrap_err();
        assert!(t.to_string().starts_with("config key `maxDenials`:"));
    }
}
