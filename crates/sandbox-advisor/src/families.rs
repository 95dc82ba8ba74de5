//! `families`: the compiled-in families, in precedence order, and (`--dialect`)
//! which of them work through a hook payload.

use std::fmt::Write as _;

use advisor_core::{Anchors, HostBinary, HostFacts, Platform, Registry};
use serde::Serialize;

use crate::hook::Dialect;
use crate::hook::payload::FAILURE_ENVELOPE;
use crate::hook::reference::EventKind;

/// One family as listed.
#[derive(Debug, Serialize)]
pub struct Listed {
    /// Its id.
    pub id: &'static str,
    /// What it recognizes (its one-line description).
    pub recognizes: &'static str,
    /// What it refuses to explain, and why.
    pub refuses: &'static str,
    /// True for the one family whose failures feed the fail-fast budget.
    #[serde(rename = "failFast")]
    pub fail_fast: bool,
    /// The platforms on which it runs a pre-flight check at session start.
    pub preflight: Vec<&'static str>,
}

/// The registry's families, in precedence order.
pub fn list(registry: &Registry) -> Vec<Listed> {
    let hosts = [Platform::Win32, Platform::Linux, Platform::Macos].map(|platform| HostFacts {
        platform,
        binary: HostBinary::NotElectron,
        temp_dir: None,
    });
    registry
        .families()
        .map(|f| {
            let doc = f.doc();
            Listed {
                id: f.id().as_str(),
                recognizes: doc.recognizes,
                refuses: doc.refuses,
                fail_fast: registry.fail_fast_family() == Some(f.id()),
                preflight: hosts
                    .iter()
                    .filter(|h| f.wants_preflight(h))
                    .map(|h| h.platform.as_str())
                    .collect(),
            }
        })
        .collect()
}

/// The text listing.
pub fn render(families: &[Listed]) -> String {
    let mut out = format!(
        "{} families compiled in, in precedence order (the first that recognizes a failure owns it):\n",
        families.len()
    );
    for (i, f) in families.iter().enumerate() {
        let mut tags = Vec::new();
        if f.fail_fast {
            tags.push("fail-fast".to_owned());
        }
        if !f.preflight.is_empty() {
            tags.push(format!("pre-flight on {}", f.preflight.join(", ")));
        }
        let tags = if tags.is_empty() {
            String::new()
        } else {
            format!("  [{}]", tags.join("; "))
        };
        let _ = write!(
            out,
            "\n{}. {}{tags}\n   recognizes: {}\n   refuses:    {}\n",
            i + 1,
            f.id,
            f.recognizes,
            f.refuses
        );
    }
    out
}

/// Whether a family can speak through a hook payload, which may carry only text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TextOnly {
    /// It recognizes a failure's text (`Anchors::FailureText`).
    Works,
    /// It reads the producer's structured value (`Anchors::ForegroundRun`), which no payload carries.
    Silent,
    /// It has no anchors (`Anchors::Always`): what it needs is its own matter.
    Unknown,
}

/// One family, as seen through a hook.
#[derive(Debug, Serialize)]
pub struct ThroughHook {
    /// Its id.
    pub id: &'static str,
    /// Whether it works through a text-only payload.
    #[serde(rename = "textOnly")]
    pub text_only: TextOnly,
    /// Why, in words, naming the fields that carry what it reads.
    pub why: String,
    /// The platforms on which it has a pre-flight check; a hook runs none
    /// (no session-start event is mapped).
    #[serde(rename = "preflightNotRun", skip_serializing_if = "Vec::is_empty")]
    pub preflight_not_run: Vec<&'static str>,
}

/// The registry's families through one dialect's hook.
#[derive(Debug, Serialize)]
pub struct HookListing {
    /// The dialect.
    pub dialect: &'static str,
    /// The families, in precedence order.
    pub families: Vec<ThroughHook>,
}

/// Derives, from each family's anchors, whether it works through `dialect`'s payloads.
pub fn through_hook(registry: &Registry, dialect: Dialect) -> HookListing {
    let reference = dialect.reference();
    let carriers: Vec<String> = reference
        .events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::PostFailure => Some(format!("{} `error`", e.name)),
            EventKind::Post => Some(format!(
                "{} `tool_response` text that begins with `{}`",
                e.name,
                FAILURE_ENVELOPE.trim_end()
            )),
            EventKind::Pre => None,
        })
        .collect();
    let listed = list(registry);
    let families = registry
        .families()
        .zip(listed)
        .map(|(f, listed)| {
            let (text_only, why) = match f.anchors() {
                Anchors::FailureText { .. } => (
                    TextOnly::Works,
                    format!("reads a failure's text: {}", carriers.join(", or ")),
                ),
                Anchors::ForegroundRun { .. } => (
                    TextOnly::Silent,
                    "reads the producer's structured success value (the shell tools' \
                     foreground value), which no hook payload carries"
                        .to_owned(),
                ),
                Anchors::ForegroundRunOrFailureText { .. } => (
                    TextOnly::Works,
                    format!(
                        "reads a failure's text for one of its shapes ({}); its other shape is a \
                         structured success value, which no hook payload carries",
                        carriers.join(", or ")
                    ),
                ),
                Anchors::Always => (
                    TextOnly::Unknown,
                    "has no anchors (its recognizer sees every call): what it reads is \
                     its own matter"
                        .to_owned(),
                ),
            };
            ThroughHook {
                id: listed.id,
                text_only,
                why,
                preflight_not_run: listed.preflight,
            }
        })
        .collect();
    HookListing {
        dialect: reference.dialect,
        families,
    }
}

/// The text listing of [`through_hook`].
pub fn render_hook(listing: &HookListing) -> String {
    let works = listing
        .families
        .iter()
        .filter(|f| f.text_only == TextOnly::Works)
        .count();
    let mut out = format!(
        "{works} of {} families work through a `{}` hook payload, which may carry only text:\n",
        listing.families.len(),
        listing.dialect
    );
    for (i, f) in listing.families.iter().enumerate() {
        let verdict = match f.text_only {
            TextOnly::Works => "works",
            TextOnly::Silent => "silent",
            TextOnly::Unknown => "unknown",
        };
        let _ = write!(out, "\n{}. {}  {verdict}\n   {}\n", i + 1, f.id, f.why);
        if !f.preflight_not_run.is_empty() {
            let _ = writeln!(
                out,
                "   its pre-flight check (on {}) does not run through a hook",
                f.preflight_not_run.join(", ")
            );
        }
    }
    out
}
