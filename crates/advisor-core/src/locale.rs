//! The language an advisory's summary and brief are written in, and which of
//! the advisory's texts the model receives.

use serde::Deserialize;

/// The language of the summary and the brief (`detail` stays English).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Deserialize)]
pub enum Locale {
    /// English (`en`).
    #[default]
    #[serde(rename = "en")]
    En,
    /// Simplified Chinese (`zh-CN`).
    #[serde(rename = "zh-CN")]
    ZhCn,
}

impl Locale {
    /// The tag used in configuration and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Locale::En => "en",
            Locale::ZhCn => "zh-CN",
        }
    }

    /// Picks the text for this locale.
    pub fn pick<'a>(self, en: &'a str, zh_cn: &'a str) -> &'a str {
        match self {
            Locale::En => en,
            Locale::ZhCn => zh_cn,
        }
    }
}

impl std::str::FromStr for Locale {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "en" => Ok(Locale::En),
            "zh-CN" => Ok(Locale::ZhCn),
            other => Err(format!(
                "unknown locale `{other}` (expected `en` or `zh-CN`)"
            )),
        }
    }
}

/// Which text goes into the advisory's model-facing `text`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AdvisoryText {
    /// The brief: what failed, the evidence, the check, the remedy, the non-fixes.
    #[default]
    Brief,
    /// The full account (`detail`), in English.
    Full,
}
