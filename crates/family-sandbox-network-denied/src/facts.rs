//! What the brief and the detail both read: the values the user may copy,
//! the evidence, and the remedies in their order. No host is ever named in
//! the advisor's own sentences: hosts stand in the quoted lines, and (a plain
//! DNS name of a proven block only) on the value line.

use std::collections::BTreeSet;

use advisor_core::{Environment, HostRemedy, Untrusted};

use crate::provenance::proven;
use crate::recognize::Finding;
use crate::value::{self, Refusal};

/// The remedies of a proven block, in the order the advisory gives them: the
/// narrow one (let this host through), where to review the whole set, and
/// last the way out of the sandbox, which only the user may choose.
pub const REMEDIES: [HostRemedy; 3] = [
    HostRemedy::AllowNetworkHost,
    HostRemedy::SandboxSettings,
    HostRemedy::EscalateOneCommand,
];

/// The remedies of a forgeable block: where the user reviews the settings.
/// Never a host for the allow list, never a way out of the sandbox, on text a
/// program could have printed.
pub const HEDGED_REMEDIES: [HostRemedy; 1] = [HostRemedy::SandboxSettings];

/// The remedies for `finding`: all of [`REMEDIES`] when proven, else
/// [`HEDGED_REMEDIES`].
pub fn remedies(finding: &Finding, env: &Environment) -> &'static [HostRemedy] {
    if proven(finding, env) {
        &REMEDIES
    } else {
        &HEDGED_REMEDIES
    }
}

/// The most values the brief lists for the allow list; the rest are in the detail.
pub const BRIEF_HOSTS: usize = 3;

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
