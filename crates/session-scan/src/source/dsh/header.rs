//! The header line: format version, identity, and the inherited prefix.

use std::path::Path;

use serde_json::Value;

use crate::budget::{Budget, bytes_text};
use crate::model::{Format, SessionHeader};

/// The highest format version this reader reads.
pub(crate) const VERSION_MAX: u64 = 3;

/// How a forked session marks the events it inherited.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Seed {
    /// Not a fork.
    None,
    /// v0/v1 (and the Rust port's v3 dialect): the first `n` events by seq.
    Length(u64),
    /// v2/v3 `isSeeded`: the events before the last `session/end-seed` whose
    /// data is `{"inherited": true}`.
    Marker,
}

/// A parsed header.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Header {
    pub header: SessionHeader,
    pub seed: Seed,
}

/// What the first line says, before it is judged.
pub(crate) enum Parsed {
    /// A header of a version this reader reads.
    Known(Box<Header>),
    /// A session header of a version it does not read (v4, or a future one).
    Unknown(u64),
    /// Not a session header.
    NotAHeader(String),
}

/// The words for a first line longer than the header bound.
pub(crate) fn too_long(budget: &Budget) -> String {
    format!(
        "the first line is longer than {}, so it is no session header",
        bytes_text(budget.limits().header_bytes as u64)
    )
}

/// The header's `version`, if the line is a session header with one.
pub(crate) fn version_of(line: &[u8]) -> Option<u64> {
    let value: Value = serde_json::from_slice(line).ok()?;
    if value.get("type")?.as_str()? != "session" {
        return None;
    }
    value.get("version")?.as_u64()
}

/// Reads the header line of the file at `path`.
/// The line is at most [`crate::budget::Limits::header_bytes`] long, so its
/// value is small; ids are cut to the budget's bound, and a working
/// directory longer than [`crate::budget::Limits::cwd_bytes`] is unknown.
pub(crate) fn parse(path: &Path, line: &[u8], budget: &Budget) -> Parsed {
    let not_a_header = |what: &str| Parsed::NotAHeader(what.to_owned());
    let Ok(value) = serde_json::from_slice::<Value>(line) else {
        return not_a_header("the first line is not JSON");
    };
    if value.get("type").and_then(Value::as_str) != Some("session") {
        return not_a_header("the first line is not a session header");
    }
    let Some(version) = value.get("version").and_then(Value::as_u64) else {
        return not_a_header("the session header has no numeric \"version\"");
    };
    let format = match version {
        0 => Format::DshV0,
        1 => Format::DshV1,
        2 => Format::DshV2,
        3 => Format::DshV3,
        other => return Parsed::Unknown(other),
    };
    let Some(id) = value.get("id").and_then(Value::as_str) else {
        return not_a_header("the session header has no string \"id\"");
    };
    let text = |key: &str| value.get(key).and_then(Value::as_str).map(str::to_owned);
    let cwd = text("cwd").filter(|c| c.len() <= budget.limits().cwd_bytes);
    let seed_length = value.get("seedLength").and_then(Value::as_u64);
    let seeded = value.get("isSeeded").and_then(Value::as_bool) == Some(true);
    let seed = match (seed_length, format) {
        (Some(n), _) if n > 0 => Seed::Length(n),
        (_, Format::DshV2 | Format::DshV3) if seeded => Seed::Marker,
        _ => Seed::None,
    };
    Parsed::Known(Box::new(Header {
        header: SessionHeader {
            path: path.to_owned(),
            format,
            id: budget.text(id.to_owned()),
            parent: text("parentSession").map(|p| budget.text(p)),
            subagent: value.get("origin").and_then(Value::as_str) == Some("subagent"),
            platform: cwd.as_deref().and_then(super::super::platform),
            cwd,
        },
        seed,
    }))
}
