//! The failures gen-log writes for the families: each registered family's
//! producer sample (`family!` key `sample:`), turned into a `post` line.
//!
//! Nothing here names a family. [`shapes`] reads the set from
//! `host_adapter::standard_registry()` (every family compiled in, with the
//! `testing` feature that exposes the samples), so a family added to the
//! registry appears in gen-log without an edit to xtask.

use advisor_core::testing::SampleShape;
use advisor_core::{Observation, Outcome};
use anyhow::{Context, Result};
use serde_json::{Value, json};

use super::output::WORDS;
use super::rng::Rng;

/// One family's failure, as gen-log writes it.
pub struct Shape {
    /// The id the family registers under (`sandbox-advisor families`).
    pub family: &'static str,
    /// The family's producer shape.
    sample: SampleShape,
}

/// A `post` line's call and outcome: the rest (agent, session, call id) is
/// the log's.
pub struct Post {
    /// The tool that ran.
    pub tool: String,
    /// Its arguments.
    pub args: Value,
    /// `("error", failure)` or `("result", value)`, as `docs/protocol.md` has them.
    pub outcome: (&'static str, Value),
}

/// The registered families, in precedence order (the order their forced
/// first appearances are spread over the log).
pub struct Families {
    /// The families with a producer sample.
    pub shapes: Vec<Shape>,
    /// The registered families that declare no sample (`family!` has no
    /// `sample:`, or the crate's `testing` feature is off): gen-log cannot
    /// write their failures.
    pub unsampled: Vec<&'static str>,
}

/// Every family of the standard registry (all families, with samples).
pub fn shapes() -> Result<Families> {
    let registry = host_adapter::standard_registry()
        .build()
        .context("the standard registry does not build")?;
    let mut families = Families {
        shapes: Vec::new(),
        unsampled: Vec::new(),
    };
    // The log is a DeepSeek-harness stream: only the harness's families own its posts.
    for family in registry.families_on(advisor_core::Host::Dsh) {
        let id = family.id().as_str();
        match family.producer_sample() {
            Some(sample) => families.shapes.push(Shape {
                family: id,
                sample: sample.shape,
            }),
            None => families.unsampled.push(id),
        }
    }
    Ok(families)
}

impl Shape {
    /// One failure of this family for an agent whose session's workspace
    /// root is `cwd`.
    ///
    /// A thrown failure's operand is the root itself, and it runs in a shell
    /// tool picked at random; a settled value's operand is a file under the
    /// root, and its tool and arguments are the sample's.
    pub fn post(&self, rng: &mut Rng, cwd: &str) -> Post {
        match self.sample {
            SampleShape::Message(build) => {
                let message = build(cwd);
                let content = format!("Error: {message}");
                let tool = *rng.pick(&["pwsh", "bash"]);
                Post {
                    tool: tool.to_owned(),
                    args: json!({"command": "Get-ChildItem"}),
                    outcome: (
                        "error",
                        json!({"message": message, "members": [], "content": content}),
                    ),
                }
            }
            SampleShape::Value(build) => {
                let path = format!(r"{cwd}\{}.txt", rng.pick(&WORDS));
                observed(build(&path))
            }
        }
    }
}

/// A settled observation as a `post` line's call and outcome.
fn observed(observation: Observation) -> Post {
    let outcome = match observation.outcome {
        Outcome::Success(s) => ("result", json!({"value": s.value, "content": s.content})),
        Outcome::Failure(f) => (
            "error",
            json!({"message": f.message, "members": f.members, "content": f.content}),
        ),
    };
    Post {
        tool: observation.tool.as_str().to_owned(),
        args: observation.arguments,
        outcome,
    }
}
