//! The advisory a family delivers, and its bounded one-line summary.

use serde::Serialize;

use crate::diagnosis::Diagnosis;
use crate::ids::FamilyId;

/// The producer-owned `source.kind` every advisory carries.
pub const SOURCE_KIND: &str = "sandbox-grant-advisor";

/// The longest summary, in characters (the harness caps context summaries at 120).
pub const SUMMARY_MAX_CHARS: usize = 120;

/// One advisory: a bounded summary for the transcript row and the full text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Advisory {
    /// The family that spoke.
    #[serde(serialize_with = "serialize_family")]
    pub family: FamilyId,
    /// One line, at most [`SUMMARY_MAX_CHARS`] characters.
    pub summary: Summary,
    /// The text the model receives, addressed to it and to the person reading the transcript.
    pub text: String,
    /// The full account: the cause, the evidence, the cited reports. The same as
    /// `text` for a family that writes one text only.
    pub detail: String,
    /// The structured diagnosis, for a harness that acts on it.
    pub diagnosis: Diagnosis,
    /// Always `{ "kind": "sandbox-grant-advisor" }`.
    pub source: Source,
}

fn serialize_family<S: serde::Serializer>(id: &FamilyId, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(id.as_str())
}

impl Advisory {
    /// Builds an advisory; the summary is bounded and flattened to one line.
    /// Its `detail` is the text, its diagnosis unclassified until the registry
    /// sets the family's own ([`Advisory::with_diagnosis`]).
    pub fn new(family: FamilyId, summary: &str, text: String) -> Self {
        Self {
            family,
            summary: Summary::new(summary),
            detail: text.clone(),
            text,
            diagnosis: Diagnosis::UNCLASSIFIED,
            source: Source::default(),
        }
    }

    /// The full account, when the family writes a shorter `text` for the model.
    pub fn with_detail(mut self, detail: String) -> Self {
        self.detail = detail;
        self
    }

    /// The structured diagnosis.
    pub fn with_diagnosis(mut self, diagnosis: Diagnosis) -> Self {
        self.diagnosis = diagnosis;
        self
    }
}

fn name_sources_in(text: &mut String, env: &crate::Environment, locale: crate::Locale) {
    if env.href.is_none() && cites_a_number(text) {
        text.truncate(text.trim_end().len());
        text.push_str("\n\n");
        text.push_str(&match locale {
            crate::Locale::En => format!(
                "The #-numbers above are discussions in the {DISCUSSIONS_REPOSITORY} \
                 repository on GitHub."
            ),
            crate::Locale::ZhCn => {
                format!("上文的 #编号 是 GitHub 上 {DISCUSSIONS_REPOSITORY} 仓库中的讨论。")
            }
        });
    }
}

/// The repository whose discussions bare `#N` numbers in advisory text refer to.
pub const DISCUSSIONS_REPOSITORY: &str = "deepseek-ai/deepseek-harness";

impl Advisory {
    /// Names the repository behind bare discussion numbers once, at the end of
    /// the text, so a reader knows where `#8232` lives. Nothing changes when
    /// the text cites no number or the operator configured `href` instead.
    pub fn name_sources(mut self, env: &crate::Environment) -> Self {
        // The brief is in the configured locale; the full account is English.
        name_sources_in(&mut self.text, env, env.locale);
        name_sources_in(&mut self.detail, env, crate::Locale::En);
        self
    }
}

fn cites_a_number(text: &str) -> bool {
    text.as_bytes()
        .windows(2)
        .any(|w| w[0] == b'#' && w[1].is_ascii_digit())
}

/// Where an advisory came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Source {
    /// The producer kind.
    pub kind: &'static str,
}

impl Default for Source {
    fn default() -> Self {
        Self { kind: SOURCE_KIND }
    }
}

/// A one-line summary of at most [`SUMMARY_MAX_CHARS`] characters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Summary(String);

impl Summary {
    /// Flattens whitespace runs (newlines included) to single spaces, strips
    /// control characters, and ellipsizes past the bound.
    pub fn new(raw: &str) -> Self {
        let mut flat = String::with_capacity(raw.len().min(SUMMARY_MAX_CHARS * 4));
        for word in raw
            .split(|c: char| c.is_whitespace() || !crate::quote::is_visible(c))
            .filter(|w| !w.is_empty())
        {
            if !flat.is_empty() {
                flat.push(' ');
            }
            flat.push_str(word);
        }
        if flat.chars().count() > SUMMARY_MAX_CHARS {
            let cut: String = flat.chars().take(SUMMARY_MAX_CHARS - 1).collect();
            flat = format!("{}…", cut.trim_end());
        }
        Self(flat)
    }

    /// The summary text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_is_one_bounded_line() {
        let s = Summary::new("a\nb\r\n  c\u{1b}[31m");
        assert_eq!(s.as_str(), "a b c [31m");
        let long = "x".repeat(500);
        let s = Summary::new(&long);
        assert_eq!(s.as_str().chars().count(), SUMMARY_MAX_CHARS);
        assert!(s.as_str().ends_with('…'));
    }
}
