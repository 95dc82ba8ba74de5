//! The output lines: one per `hello`, `session-start`, `post` and `pre` line,
//! and one per line that could not be used.

use advisor_core::{Advisory, FamilyId};
use serde::Serialize;

/// One output line.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Output<'a> {
    /// The answer to a `hello` line.
    Hello {
        /// The input line number.
        seq: u64,
        /// Always `"hello"`.
        #[serde(rename = "type")]
        kind: &'static str,
        /// The version this build speaks.
        protocol: u32,
        /// The compiled-in families, in precedence order.
        families: Vec<&'static str>,
    },
    /// The decision on a `session-start`, `post` or `pre` line.
    Decision {
        /// The input line number.
        seq: u64,
        /// `session-start`, `post` or `pre`.
        #[serde(rename = "type")]
        kind: &'static str,
        /// The agent (absent for a call from outside an agent loop).
        #[serde(skip_serializing_if = "Option::is_none")]
        agent: Option<&'a str>,
        /// The call (absent on `session-start`).
        #[serde(skip_serializing_if = "Option::is_none")]
        call: Option<&'a str>,
        /// Advisories to append to the result's `additionalContexts`.
        advisories: &'a [Advisory],
        /// Advisories withheld (each disclosed once).
        withheld: Vec<WithheldOut>,
        /// The refusal of a `pre` line, else `null`.
        refusal: Option<RefusalOut<'a>>,
    },
    /// A line that could not be used.
    Error {
        /// The input line number.
        seq: u64,
        /// What is wrong, naming the field.
        error: &'a str,
    },
}

/// A withheld advisory on an output line.
#[derive(Debug, Serialize)]
pub struct WithheldOut {
    /// The family that could not speak.
    pub family: &'static str,
    /// The stable reason code (`WithholdReason::code`).
    pub reason: &'static str,
    /// The finding's diagnosis, no surer than `suspected` (absent for a pre-flight).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diagnosis: Option<advisor_core::Diagnosis>,
}

/// A refusal on an output line.
#[derive(Debug, Serialize)]
pub struct RefusalOut<'a> {
    /// The family whose budget refused.
    pub family: &'static str,
    /// The reason shown to the model (the `deny` reason).
    pub reason: &'a str,
}

/// The family ids of a registry, for the `hello` answer.
pub fn family_ids(ids: impl Iterator<Item = FamilyId>) -> Vec<&'static str> {
    ids.map(|f| f.as_str()).collect()
}
