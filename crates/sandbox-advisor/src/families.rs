//! `families`: the compiled-in families, in precedence order, the hosts whose
//! failures each knows (`--host` keeps one host's), and (`--dialect`) which of
//! them work through a hook payload.

use std::fmt::Write as _;

use advisor_core::{Anchors, ErasedFamily, Host, HostBinary, HostFacts, Platform, Registry};
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
    /// The agent hosts whose failures it knows (`dsh`, `claude-code`, `codex`).
    pub hosts: Vec<&'static str>,
}

/// The registry's families in precedence order: all of them, or (`host`)
/// those that know that host's failures.
pub fn list(registry: &Registry, host: Option<Host>) -> Vec<Listed> {
    of_host(registry, host)
        .map(|f| listed(registry, f))
        .collect()
}

fn of_host(registry: &Registry, host: Option<Host>) -> impl Iterator<Item = &dyn ErasedFamily> {
    registry
        .families()
        .filter(move |f| host.is_none_or(|h| f.hosts().contains(&h)))
}

fn listed(registry: &Registry, f: &dyn ErasedFamily) -> Listed {
    let platforms = [Platform::Win32, Platform::Linux, Platform::Macos].map(|platform| HostFacts {
        kind: Host::Dsh,
        platform,
        binary: HostBinary::NotElectron,
        temp_dir: None,
    });
    let doc = f.doc();
    Listed {
        id: f.id().as_str(),
        recognizes: doc.recognizes,
        refuses: doc.refuses,
        fail_fast: registry.is_fail_fast(f.id()),
        preflight: platforms
            .iter()
            .filter(|p| f.wants_preflight(p))
            .map(|p| p.platform.as_str())
            .collect(),
        hosts: f.hosts().iter().map(|h| h.as_str()).collect(),
    }
}

/// The text listing.
pub fn render(families: &[Listed], host: Option<Host>) -> String {
    let mut out = match host {
        None => format!(
            "{} families compiled in, in precedence order (the first that recognizes a failure owns it):\n",
            families.len()
        ),
        Some(host) => format!(
            "{} families know {}'s failures (`--host {host}`), in precedence order (the first \
             that recognizes a failure owns it):\n",
            families.len(),
            host.name()
        ),
    };
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
            "\n{}. {}{tags}\n   hosts:      {}\n   recognizes: {}\n   refuses:    {}\n",
            i + 1,
            f.id,
            f.hosts.join(", "),
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
    /// The host the hook runs in (`--host`, by default the dialect's own client).
    pub host: Host,
    /// The families, in precedence order.
    pub families: Vec<ThroughHook>,
}

/// Derives, from each family's anchors, whether it works through `dialect`'s
/// payloads in `host` (only that host's families are listed).
pub fn through_hook(registry: &Registry, dialect: Dialect, host: Host) -> HookListing {
    let reference = dialect.reference();
    // Where a failure's text arrives. Only the harness's bridges mark a
    // failed call in `tool_response` (`Error: …`); the clients' own
    // PostToolUse carries a command's output with no such mark.
    let carriers: Vec<String> = reference
        .events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::PostFailure => Some(format!("{} `error`", e.name)),
            EventKind::Post if host == Host::Dsh => Some(format!(
                "{} `tool_response` text that begins with `{}`",
                e.name,
                FAILURE_ENVELOPE.trim_end()
            )),
            EventKind::Post if dialect == Dialect::GeminiCli => Some(format!(
                "{} `tool_response` with an `Exit Code:` line or Gemini's \
                 `sandbox_expansion_required` mark",
                e.name
            )),
            EventKind::Post | EventKind::Pre => None,
        })
        .collect();
    let outputs: Vec<String> = reference
        .events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::PostFailure => Some(format!("{} `error`", e.name)),
            EventKind::Post if dialect == Dialect::ClaudeCode && host != Host::Dsh => {
                Some(format!("{} `tool_response.stdout` and `.stderr`", e.name))
            }
            EventKind::Post if dialect == Dialect::GeminiCli => Some(format!(
                "{} `tool_response`'s `Output:` (the wrapper's noise line removed)",
                e.name
            )),
            EventKind::Post => Some(format!("{} `tool_response` text", e.name)),
            EventKind::Pre => None,
        })
        .collect();
    let failure_text = if carriers.is_empty() {
        (
            TextOnly::Silent,
            format!(
                "reads a failure's text, and {} reports a command's output with no mark that it \
                 failed",
                host.name()
            ),
        )
    } else {
        (
            TextOnly::Works,
            format!("reads a failure's text: {}", carriers.join(", or ")),
        )
    };
    let families = of_host(registry, Some(host))
        .map(|f| {
            let listed = listed(registry, f);
            let (text_only, why) = match f.anchors() {
                Anchors::FailureText { .. } => failure_text.clone(),
                Anchors::OutputText { .. } => (
                    TextOnly::Works,
                    format!(
                        "reads its producer's own line in a command's output: {}",
                        outputs.join(", or ")
                    ),
                ),
                Anchors::ForegroundRun { .. } => (
                    TextOnly::Silent,
                    "reads the producer's structured success value (the shell tools' \
                     foreground value), which no hook payload carries"
                        .to_owned(),
                ),
                Anchors::ForegroundRunOrFailureText { .. } if carriers.is_empty() => (
                    TextOnly::Silent,
                    format!(
                        "reads a failure's text or a structured success value; {} marks no \
                         failure in its payloads and no payload carries that value",
                        host.name()
                    ),
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
        host,
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
        "{works} of {} families for {} work through a `{}` hook payload, which may carry only \
         text:\n",
        listing.families.len(),
        listing.host.name(),
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
