//! The shapes of the input lines, read with `serde_path_to_error` from a
//! line's known fields (`fields.rs`) so an error names the field. Unknown
//! fields are ignored. JSON that recognition reads (`args`, `result.value`)
//! stays a borrowed slice of the line here; `value.rs` builds what is needed.

use std::fmt;

use advisor_core::{Platform, SandboxMode};
use serde::Deserialize;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde_json::value::RawValue;

/// The most `error.members` kept; the rest are checked to be strings and
/// dropped (no shipped family reads members, and a family may only use them
/// to choose, never to quote).
pub const MEMBERS_MAX: usize = 64;

#[derive(Deserialize)]
pub(super) struct HelloLine {
    pub(super) protocol: u32,
}

#[derive(Deserialize)]
pub(super) struct HostLine {
    pub(super) platform: Named<Platform>,
    #[serde(default)]
    pub(super) host: Option<Named<advisor_core::Host>>,
    #[serde(default)]
    pub(super) electron: bool,
    #[serde(default)]
    pub(super) tmpdir: Option<String>,
}

#[derive(Deserialize)]
pub(super) struct SessionLine {
    pub(super) session: String,
    #[serde(default)]
    pub(super) cwd: Option<String>,
}

#[derive(Deserialize)]
pub(super) struct ModeLine {
    pub(super) session: String,
    pub(super) mode: Named<SandboxMode>,
}

#[derive(Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(super) enum UnavailableReason {
    NoService,
    ResolverError,
}

#[derive(Deserialize)]
pub(super) struct UnavailableLine {
    pub(super) reason: Named<UnavailableReason>,
    #[serde(default)]
    pub(super) session: Option<String>,
    #[serde(default)]
    pub(super) message: Option<String>,
}

#[derive(Deserialize)]
pub(super) struct StartLine {
    pub(super) agent: String,
    #[serde(default)]
    pub(super) session: Option<String>,
}

#[derive(Deserialize)]
pub(super) struct EndLine {
    pub(super) agent: String,
}

/// A `pre` line; a `post` line is the same fields and [`Outcome`]'s. Its
/// `args` (any JSON) is taken from the line as it lies, not read here.
#[derive(Deserialize)]
pub(super) struct CallLine {
    /// Absent for a call from outside an agent loop.
    #[serde(default)]
    pub(super) agent: Option<String>,
    #[serde(default)]
    pub(super) session: Option<String>,
    pub(super) call: String,
    pub(super) tool: String,
}

/// The outcome half of a `post` line, read from the same fields as its
/// [`CallLine`] (not flattened, so an error keeps its field's name).
#[derive(Deserialize)]
pub(super) struct Outcome<'a> {
    #[serde(default)]
    pub(super) mode: Option<Named<SandboxMode>>,
    #[serde(default)]
    pub(super) error: Option<ErrorPart>,
    #[serde(default, borrow)]
    pub(super) result: Option<ResultPart<'a>>,
}

#[derive(Deserialize)]
pub(super) struct ErrorPart {
    pub(super) message: String,
    #[serde(default)]
    pub(super) members: Members,
    #[serde(default)]
    pub(super) content: Option<String>,
    /// The host's structured code for the failure (the Rust harness's
    /// `info.code`; Gemini CLI's `sandbox_expansion_required`).
    #[serde(default)]
    pub(super) code: Option<String>,
}

#[derive(Deserialize)]
pub(super) struct ResultPart<'a> {
    #[serde(borrow)]
    pub(super) value: &'a RawValue,
    #[serde(default)]
    pub(super) content: String,
}

/// One of a closed set of names (an enum), read from a string. Anything
/// else is refused as the value it is (`not the number 7`), as a tree would
/// say it; serde_json's text reader would only say `expected value`.
pub(super) struct Named<T>(pub(super) T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Named<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(NamedVisitor(std::marker::PhantomData))
    }
}

struct NamedVisitor<T>(std::marker::PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for NamedVisitor<T> {
    type Value = Named<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a name")
    }

    fn visit_str<E: de::Error>(self, name: &str) -> Result<Named<T>, E> {
        T::deserialize(de::value::StrDeserializer::<E>::new(name)).map(Named)
    }
}

/// An array of strings of which the first [`MEMBERS_MAX`] are kept.
#[derive(Default)]
pub(super) struct Members(pub(super) Vec<String>);

impl<'de> Deserialize<'de> for Members {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_seq(MembersVisitor)
    }
}

struct MembersVisitor;

impl<'de> Visitor<'de> for MembersVisitor {
    type Value = Members;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of strings")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Members, A::Error> {
        let mut kept = Vec::new();
        while kept.len() < MEMBERS_MAX {
            match seq.next_element::<String>()? {
                Some(member) => kept.push(member),
                None => return Ok(Members(kept)),
            }
        }
        while seq.next_element::<AnyString>()?.is_some() {}
        Ok(Members(kept))
    }
}

/// A string, checked and dropped without being copied.
struct AnyString;

impl<'de> Deserialize<'de> for AnyString {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(AnyStringVisitor)
    }
}

struct AnyStringVisitor;

impl Visitor<'_> for AnyStringVisitor {
    type Value = AnyString;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<AnyString, E> {
        Ok(AnyString)
    }
}
