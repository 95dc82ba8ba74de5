//! The advisory: what failed, the evidence, the check, the remedy.

use advisor_core::{Advisory, Environment};

use crate::ID;
use crate::recognize::Finding;

/// The advisory for a recognized failure.
pub fn advise(finding: &Finding, env: &Environment) -> Advisory {
    let mode = env.mode().map_or("an unknown mode", |m| m.as_str());
    let text = format!(
        "The call failed for an environment reason under `{mode}`; retrying will not help.\n\n\
         What was reported:\n{}\n\n\
         Replace this text with the cause, the check that confirms it, and the remedy the user runs.",
        finding.line.quote_block()
    );
    Advisory::new(ID, "Replace with a one-line summary; retrying will not help.", text)
}
