//! The first read of a line: is it an object, and where in its text is each
//! field a line shape reads. Nothing is built: a known field is kept as a
//! borrowed [`RawValue`] (a slice of the line), an unknown one is skipped.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

/// Every field name some line shape reads; any other field is ignored unread.
const KNOWN: [&str; 17] = [
    "type", "protocol", "platform", "host", "electron", "tmpdir", "session", "cwd", "mode",
    "reason", "message", "agent", "call", "tool", "args", "error", "result",
];

/// The known fields of one object line. A field given twice keeps its first
/// place and its last value, as a JSON object read into a map does.
#[derive(Debug, Default)]
pub(super) struct Fields<'a> {
    slots: [Option<(usize, &'a RawValue)>; KNOWN.len()],
}

impl<'a> Fields<'a> {
    /// The raw text of field `name`, when the line has it.
    pub(super) fn get(&self, name: &str) -> Option<&'a RawValue> {
        let at = KNOWN.iter().position(|k| *k == name)?;
        self.slots[at].map(|(_, raw)| raw)
    }

    /// The fields present, in the order the line gave them.
    pub(super) fn in_order(&self) -> Vec<(&'static str, &'a RawValue)> {
        let mut present: Vec<(usize, &'static str, &'a RawValue)> = KNOWN
            .iter()
            .zip(&self.slots)
            .filter_map(|(name, slot)| slot.map(|(at, raw)| (at, *name, raw)))
            .collect();
        present.sort_unstable_by_key(|(at, _, _)| *at);
        present
            .into_iter()
            .map(|(_, name, raw)| (name, raw))
            .collect()
    }
}

/// A line's top-level value: an object's known fields, or something else.
pub(super) enum Top<'a> {
    /// A JSON object (boxed: its slots are a few hundred bytes).
    Object(Box<Fields<'a>>),
    /// Valid JSON that is not an object.
    NotObject,
}

impl<'de> de::Deserialize<'de> for Top<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(TopVisitor)
    }
}

struct TopVisitor;

impl<'de> Visitor<'de> for TopVisitor {
    type Value = Top<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Top<'de>, A::Error> {
        let mut fields = Fields::default();
        let mut at = 0;
        while let Some(known) = map.next_key_seed(KeySeed)? {
            at += 1;
            match known {
                Some(index) => {
                    let raw: &'de RawValue = map.next_value()?;
                    let slot = &mut fields.slots[index];
                    let first = slot.map_or(at, |(first, _)| first);
                    *slot = Some((first, raw));
                }
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(Top::Object(Box::new(fields)))
    }

    // Read to its end, so a syntax error later in the line is reported as one.
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Top<'de>, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Top::NotObject)
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Top<'de>, E> {
        Ok(Top::NotObject)
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Top<'de>, E> {
        Ok(Top::NotObject)
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Top<'de>, E> {
        Ok(Top::NotObject)
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Top<'de>, E> {
        Ok(Top::NotObject)
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Top<'de>, E> {
        Ok(Top::NotObject)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Top<'de>, E> {
        Ok(Top::NotObject)
    }
}

/// A key, as its index in [`KNOWN`] (`None` for a field no shape reads).
struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Option<usize>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl Visitor<'_> for KeySeed {
    type Value = Option<usize>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a field name")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<Self::Value, E> {
        Ok(KNOWN.iter().position(|k| *k == key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(line: &str) -> Vec<(&'static str, String)> {
        match serde_json::from_str::<Top<'_>>(line).unwrap() {
            Top::Object(f) => f
                .in_order()
                .into_iter()
                .map(|(k, v)| (k, v.get().to_owned()))
                .collect(),
            Top::NotObject => Vec::new(),
        }
    }

    #[test]
    fn known_fields_in_line_order_last_value_first_place() {
        assert_eq!(
            fields(r#"{"x":[1,{"y":2}],"tool":"t","type":"post","tool":"u","ag\u0065nt":"a"}"#),
            [
                ("tool", r#""u""#.to_owned()),
                ("type", r#""post""#.to_owned()),
                ("agent", r#""a""#.to_owned()),
            ]
        );
        assert!(matches!(
            serde_json::from_str::<Top<'_>>("[1,2]").unwrap(),
            Top::NotObject
        ));
        assert!(serde_json::from_str::<Top<'_>>("[1,2").is_err());
        assert!(serde_json::from_str::<Top<'_>>("5 x").is_err());
    }
}
