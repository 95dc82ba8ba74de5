//! What the brief and the detail both read: how hosts are mentioned, the
//! values the user may copy, the evidence, and the remedies in their order.

use std::collections::BTreeSet;

use advisor_core::{HostRemedy, Untrusted};

use crate::recognize::{Denial, Finding};
use crate::value::{self, Refusal};

/// The remedies, in the order the advisory gives them: the narrow one (let
/// this host through), where to review the whole set, and last the way out
/// of the sandbox, which only the user may choose.
pub const REMEDIES: [HostRemedy; 3] = [
    HostRemedy::AllowNetworkHost,
    HostRemedy::SandboxSettings,
    HostRemedy::EscalateOneCommand,
];

/// The most hosts the brief names inline; the rest are counted.
pub const BRIEF_HOSTS: usize = 3;

/// The longest host mention the brief carries, its code span included; a
/// longer one is left to the quoted lines, so a hostile name cannot eat the
/// budget.
pub const MENTION_MAX_CHARS: usize = 56;

/// A host:port as the brief mentions it: its code span, or `None` when too long.
pub fn mention(denial: &Denial) -> Option<String> {
    let span = denial.target.inline().to_string();
    (span.chars().count() <= MENTION_MAX_CHARS).then_some(span)
}

/// The hosts the brief names: up to [`BRIEF_HOSTS`] short mentions, and how
/// many refused pairs it leaves to the quote (`+` when more were refused than
/// were kept).
pub fn named(finding: &Finding) -> (Vec<String>, usize) {
    let shown: Vec<String> = finding
        .denials
        .iter()
        .filter_map(mention)
        .take(BRIEF_HOSTS)
        .collect();
    let rest = finding.denials.len() - shown.len();
    (shown, rest)
}

/// The distinct values for the user's allow list, in order: each refused
/// host's name when it is a plain DNS name (ports dropped, each name once),
/// or the placeholder; and whether a placeholder stands for one.
pub fn values(finding: &Finding, most: usize) -> (Vec<String>, Option<Refusal>) {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    let mut refused = None;
    for denial in &finding.denials {
        let (text, why) = value::slot(&denial.host);
        refused = refused.or(why);
        if out.len() < most && seen.insert(text.clone()) {
            out.push(text);
        }
    }
    (out, refused)
}

/// The evidence: each kept refusal's line once, in the order first seen.
pub fn evidence(finding: &Finding) -> Untrusted {
    let lines: Vec<&str> = finding.denials.iter().map(|d| d.line.inspect()).collect();
    Untrusted::new(&lines.join("\n"))
}
