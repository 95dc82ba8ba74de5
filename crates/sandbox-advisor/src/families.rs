//! `families`: the compiled-in families, in precedence order.

use std::fmt::Write as _;

use advisor_core::{HostBinary, HostFacts, Platform, Registry};
use serde::Serialize;

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
