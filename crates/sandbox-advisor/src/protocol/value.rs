//! The JSON values a line hands to recognition (`args`, `result.value`),
//! built from the line's text with no more of a tree than recognition reads.
//!
//! A tree costs about 100 bytes per JSON value, so `[0,0,…]` (two bytes per
//! value) would cost 50 times its text. A value of at most [`VALUE_MAX_NODES`]
//! values is built whole. A larger one is read in part, in bounded memory
//! (and its values are counted only up to the budget, never all of them):
//! its top-level members, in order, each built whole while the total stays
//! within the budget (a member that does not fit is left out, and later ones
//! still may fit); an array that large is read as an empty object.
//! The families read top-level members only (`command`, the named paths, the
//! shell projection's `kind`, `exitCode`, `stdout`, `stderr` and `sandbox`).
//!
//! Before any of that, an array or object that lies deeper than
//! [`MAX_DEPTH`] levels in the line is cut out of the value's text
//! ([`depth`]), so no reader below meets the JSON reader's recursion limit.
//!
//! `args` is also the fail-fast identity of a call, so a projected `args`
//! carries one more member, [`DIGEST_MEMBER`]: a 128-bit keyed digest of the
//! whole value, object members in any order, streamed from the text. Two
//! calls whose large arguments differ anywhere are different calls.

use std::fmt;
use std::hash::{BuildHasher, Hasher};
use std::sync::OnceLock;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

mod depth;

pub use depth::{LeftOut, MAX_DEPTH};

/// The most JSON values (every object, array, string, number, boolean and
/// null counts one) of one `args` or `result.value` built as a tree.
pub const VALUE_MAX_NODES: usize = 16_384;

/// The member a projected `args` carries its whole value's digest in.
pub const DIGEST_MEMBER: &str = "\u{0}sandbox-advisor:digest";

/// Which field a value came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// A call's `args` (a hook's `tool_input`): its digest is its fail-fast identity.
    Args,
    /// A success's `result.value`.
    Value,
}

impl Role {
    /// The level the value lies at, its line's (or payload's) own object being 1.
    fn level(self) -> usize {
        match self {
            Role::Args => 2,
            Role::Value => 3,
        }
    }
}

/// The value recognition reads, from `raw` (which lies at `role`'s level),
/// and what of it was left out for lying too deep ([`depth`]). An error is
/// serde_json's (a lone surrogate).
pub(crate) fn for_recognition(
    raw: &RawValue,
    role: Role,
) -> Result<(Value, Option<LeftOut>), serde_json::Error> {
    let mut cut = Hash128::new();
    let pruned = depth::prune(raw.get(), role.level(), &mut |gone| {
        cut.tagged(b'-', &(gone.len() as u64).to_le_bytes());
        cut.write(gone.as_bytes());
    });
    // What was cut is still part of a call's identity.
    let cut = pruned.left_out.is_some().then(|| cut.finish());
    Ok((read(&pruned.text, role, cut)?, pruned.left_out))
}

/// The value recognition reads, from `text` (within the depth limit);
/// `cut`: the digest of what was left out of it for depth.
fn read(text: &str, role: Role, cut: Option<u128>) -> Result<Value, serde_json::Error> {
    // A value with members left out carries its identity in one more member
    // (an object of one member and an array of two numbers), as a projection does.
    let identity = role == Role::Args && cut.is_some();
    let budget = VALUE_MAX_NODES - if identity { 4 } else { 0 };
    // Every value takes at least one character and a separator, so a text
    // this short cannot hold more values than the budget: no need to count.
    let whole = text.len() < 2 * budget || size(text, budget)?.is_some();
    let mut kept = match (whole, text.starts_with('{')) {
        (true, _) => match serde_json::from_str(text)? {
            Value::Object(map) if identity => map,
            // An array or a scalar has no member to carry it.
            _ if identity => Map::new(),
            value => return Ok(value),
        },
        (false, true) => Projection {
            // The object itself, and for `args` the digest member (an array of two numbers).
            budget: VALUE_MAX_NODES - if role == Role::Args { 4 } else { 1 },
        }
        .deserialize(&mut serde_json::Deserializer::from_str(text))?,
        // An array or a scalar has no members to keep.
        (false, false) => Map::new(),
    };
    if role == Role::Args {
        let [high, low] = digest(text, cut)?;
        kept.insert(
            DIGEST_MEMBER.to_owned(),
            Value::Array(vec![high.into(), low.into()]),
        );
    }
    Ok(Value::Object(kept))
}

/// How many JSON values `raw` holds, or `None` as soon as it is seen to
/// hold more than `limit` (the rest is not read).
fn size(text: &str, limit: usize) -> Result<Option<usize>, serde_json::Error> {
    let mut tally = Tally {
        nodes: 0,
        limit,
        over: false,
    };
    match Counter(&mut tally).deserialize(&mut serde_json::Deserializer::from_str(text)) {
        Ok(()) => Ok(Some(tally.nodes)),
        Err(_) if tally.over => Ok(None),
        Err(e) => Err(e),
    }
}

struct Tally {
    nodes: usize,
    limit: usize,
    over: bool,
}

impl Tally {
    /// Counts one value; past the limit, stops the reading with an error
    /// that [`size`] recognizes by `over`.
    fn one<E: de::Error>(&mut self) -> Result<(), E> {
        self.nodes = self.nodes.saturating_add(1);
        if self.nodes > self.limit {
            self.over = true;
            return Err(E::custom("over the budget"));
        }
        Ok(())
    }
}

struct Counter<'t>(&'t mut Tally);

impl<'de> DeserializeSeed<'de> for Counter<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Counter<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.0.one()?;
        while seq.next_element_seed(Counter(self.0))?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.0.one()?;
        while map.next_key::<IgnoredAny>()?.is_some() {
            map.next_value_seed(Counter(self.0))?;
        }
        Ok(())
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        self.0.one()
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        self.0.one()
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        self.0.one()
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        self.0.one()
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        self.0.one()
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.0.one()
    }
}

/// Top-level members, in order, while they fit in `budget` values.
struct Projection {
    budget: usize,
}

impl<'de> DeserializeSeed<'de> for Projection {
    type Value = Map<String, Value>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Projection {
    type Value = Map<String, Value>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut kept = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let raw: &'de RawValue = map.next_value()?;
            if let Some(nodes) = size(raw.get(), self.budget).map_err(de::Error::custom)? {
                self.budget -= nodes;
                let value = serde_json::from_str(raw.get()).map_err(de::Error::custom)?;
                kept.insert(key, value);
            }
        }
        Ok(kept)
    }
}

/// The whole value's digest, as two 64-bit halves; `cut`: the digest of
/// the text left out of it for depth, if any.
fn digest(text: &str, cut: Option<u128>) -> Result<[u64; 2], serde_json::Error> {
    let mut h = Hash128::new();
    Digester(&mut h).deserialize(&mut serde_json::Deserializer::from_str(text))?;
    if let Some(cut) = cut {
        h.tagged(b'-', &cut.to_le_bytes());
    }
    let d = h.finish();
    Ok([(d >> 64) as u64, d as u64])
}

/// 128 bits of SipHash under a key drawn once per process: two hashers of
/// the same bytes, told apart by a first byte. Small writes are gathered in
/// a block first, so hashing costs the same however the bytes were split.
struct Hash128 {
    halves: [std::hash::DefaultHasher; 2],
    block: [u8; 256],
    filled: usize,
}

impl Hash128 {
    fn new() -> Self {
        static KEY: OnceLock<std::hash::RandomState> = OnceLock::new();
        let key = KEY.get_or_init(std::hash::RandomState::new);
        let mut halves = [key.build_hasher(), key.build_hasher()];
        for (i, h) in halves.iter_mut().enumerate() {
            h.write_u8(i as u8);
        }
        Self {
            halves,
            block: [0; 256],
            filled: 0,
        }
    }

    fn write(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            if self.filled == self.block.len() {
                self.flush();
            }
            let take = (self.block.len() - self.filled).min(bytes.len());
            self.block[self.filled..self.filled + take].copy_from_slice(&bytes[..take]);
            self.filled += take;
            bytes = &bytes[take..];
        }
    }

    fn flush(&mut self) {
        for h in &mut self.halves {
            h.write(&self.block[..self.filled]);
        }
        self.filled = 0;
    }

    fn tagged(&mut self, tag: u8, bytes: &[u8]) {
        self.write(&[tag]);
        self.write(bytes);
    }

    fn finish(mut self) -> u128 {
        self.flush();
        (u128::from(self.halves[0].finish()) << 64) | u128::from(self.halves[1].finish())
    }
}

/// Streams a value into its parent's hash, in a prefix-free encoding: a
/// scalar as its kind and content (a number as the tree holds it: unsigned,
/// negative or float), an array as its elements between `[` and `]`, an
/// object as the sum of its members' own digests (so member order does not
/// matter) and their count.
struct Digester<'h>(&'h mut Hash128);

impl<'de> DeserializeSeed<'de> for Digester<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Digester<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.0.write(b"[");
        while seq.next_element_seed(Digester(self.0))?.is_some() {}
        self.0.write(b"]");
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let (mut sum, mut members) = (0u128, 0u64);
        while let Some(key) = map.next_key::<String>()? {
            let mut member = Hash128::new();
            member.tagged(b's', &(key.len() as u64).to_le_bytes());
            member.write(key.as_bytes());
            map.next_value_seed(Digester(&mut member))?;
            sum = sum.wrapping_add(member.finish());
            members = members.wrapping_add(1);
        }
        self.0.tagged(b'{', &sum.to_le_bytes());
        self.0.write(&members.to_le_bytes());
        Ok(())
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<(), E> {
        self.0.tagged(b'b', &[u8::from(b)]);
        Ok(())
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<(), E> {
        // The tree keeps a non-negative integer as unsigned, however it was read.
        match u64::try_from(n) {
            Ok(n) => self.0.tagged(b'u', &n.to_le_bytes()),
            Err(_) => self.0.tagged(b'i', &n.to_le_bytes()),
        }
        Ok(())
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<(), E> {
        self.0.tagged(b'u', &n.to_le_bytes());
        Ok(())
    }

    fn visit_f64<E: de::Error>(self, n: f64) -> Result<(), E> {
        self.0.tagged(b'f', &n.to_bits().to_le_bytes());
        Ok(())
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<(), E> {
        self.0.tagged(b's', &(s.len() as u64).to_le_bytes());
        self.0.write(s.as_bytes());
        Ok(())
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.0.write(b"0");
        Ok(())
    }
}

#[cfg(test)]
mod tests;
