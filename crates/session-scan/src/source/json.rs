//! Reading JSON without building what a file could make unbounded.
//!
//! A line is parsed in place: the parts a reader does not need stay raw text
//! (`&RawValue`, borrowed from the line), fields are read leniently (a field
//! of another type is as good as absent, as `Value::get(..).as_…()` took it,
//! and nothing is built for it), and an array is walked one element at a
//! time ([`each`], [`first`]) instead of being collected. What is built from a
//! line is then a few fields and strings no longer than the line; a `Value`
//! is built only through [`crate::budget::Budget::value`], which counts first.

use std::borrow::Cow;
use std::fmt;

use serde::Deserializer as _;
use serde::de::{self, IgnoredAny, SeqAccess, Visitor};
use serde_json::value::RawValue;

/// Skips any value (for a field of another type).
fn skip<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<(), A::Error> {
    while seq.next_element::<IgnoredAny>()?.is_some() {}
    Ok(())
}

fn skip_map<'de, A: de::MapAccess<'de>>(mut map: A) -> Result<(), A::Error> {
    while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
    Ok(())
}

/// A field read leniently: `Some(Some(text))` for a string (borrowed from
/// the line when it holds no escape), `Some(None)` for a value of another
/// type, `None` (the default) when the field is absent.
pub(crate) fn text<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<Option<Cow<'de, str>>>, D::Error> {
    struct Text;
    impl<'de> Visitor<'de> for Text {
        type Value = Option<Cow<'de, str>>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("any JSON value")
        }
        fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
            Ok(Some(Cow::Borrowed(v)))
        }
        fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
            Ok(Some(Cow::Owned(v.to_owned())))
        }
        fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
            Ok(Some(Cow::Owned(v)))
        }
        fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_none<E>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_any(self)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
            skip(seq).map(|()| None)
        }
        fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
            skip_map(map).map(|()| None)
        }
    }
    d.deserialize_any(Text).map(Some)
}

/// A string field read leniently, flattened: the text, or `None` when it
/// is absent or not a string.
pub(crate) fn string<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<Cow<'de, str>>, D::Error> {
    text(d).map(Option::flatten)
}

/// A boolean field read leniently: `Some(b)` for a boolean, `None` for
/// anything else (nothing built).
pub(crate) fn flag<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    struct Flag;
    impl<'de> Visitor<'de> for Flag {
        type Value = Option<bool>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("any JSON value")
        }
        fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
            Ok(Some(v))
        }
        fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_none<E>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_any(self)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
            skip(seq).map(|()| None)
        }
        fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
            skip_map(map).map(|()| None)
        }
    }
    d.deserialize_any(Flag)
}

/// A number field read leniently: anything that is not an integer of the
/// wanted type is absent. Nothing is built: a string, array or object in
/// its place is skipped.
pub(crate) fn number<'de, D, N>(d: D) -> Result<Option<N>, D::Error>
where
    D: serde::Deserializer<'de>,
    N: TryFrom<i128>,
{
    struct Lenient;
    impl<'de> Visitor<'de> for Lenient {
        type Value = Option<i128>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("any JSON value")
        }
        fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
            Ok(Some(i128::from(v)))
        }
        fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
            Ok(Some(i128::from(v)))
        }
        fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_none<E>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            d.deserialize_any(self)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
            skip(seq).map(|()| None)
        }
        fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
            skip_map(map).map(|()| None)
        }
    }
    Ok(d.deserialize_any(Lenient)?
        .and_then(|n| N::try_from(n).ok()))
}

/// Hands each element of the JSON array `raw` to `f`, in order, as raw text;
/// false when `raw` is not an array (or not JSON). Nothing is collected.
pub(crate) fn each<'de>(raw: &'de RawValue, mut f: impl FnMut(&'de RawValue)) -> bool {
    struct Each<'f, F>(&'f mut F);
    impl<'de, F: FnMut(&'de RawValue)> Visitor<'de> for Each<'_, F> {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an array")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            while let Some(item) = seq.next_element::<&'de RawValue>()? {
                (self.0)(item);
            }
            Ok(())
        }
    }
    if !raw.get().starts_with('[') {
        return false;
    }
    let mut de = serde_json::Deserializer::from_str(raw.get());
    de.deserialize_seq(Each(&mut f)).is_ok()
}

/// The first element of the JSON array `raw`, if it is one and has one.
pub(crate) fn first(raw: &RawValue) -> Option<&RawValue> {
    let mut found = None;
    each(raw, |item| {
        if found.is_none() {
            found = Some(item);
        }
    });
    found
}

/// `raw` read as `T`, or `T::default()` when it is not that shape (not an
/// object, say): a part of another shape is as good as empty.
pub(crate) fn or_default<'de, T: serde::Deserialize<'de> + Default>(
    raw: Option<&'de RawValue>,
) -> T {
    raw.and_then(|r| serde_json::from_str(r.get()).ok())
        .unwrap_or_default()
}

/// A content block: only a `text` block's text is read.
#[derive(serde::Deserialize, Default)]
struct Block<'a> {
    #[serde(rename = "type", default, borrow, deserialize_with = "string")]
    kind: Option<Cow<'a, str>>,
    #[serde(default, borrow, deserialize_with = "string")]
    text: Option<Cow<'a, str>>,
}

/// The text a model saw of a `content` (a DeepSeek harness result part's,
/// a Claude Code `tool_result`'s): a string whole, or the `text` of its
/// `text` blocks joined with `\n`, read one block at a time (anything else
/// is no text).
pub(crate) fn rendered_text(content: Option<&RawValue>) -> String {
    let Some(content) = content else {
        return String::new();
    };
    if content.get().starts_with('"') {
        return serde_json::from_str(content.get()).unwrap_or_default();
    }
    let mut out = String::new();
    let mut any = false;
    each(content, |block| {
        let block: Block<'_> = or_default(Some(block));
        if let (Some("text"), Some(text)) = (block.kind.as_deref(), block.text) {
            if any {
                out.push('\n');
            }
            out.push_str(&text);
            any = true;
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, Default, Debug, PartialEq)]
    struct Fields<'a> {
        #[serde(default, borrow, deserialize_with = "text")]
        id: Option<Option<Cow<'a, str>>>,
        #[serde(default, deserialize_with = "flag")]
        on: Option<bool>,
        #[serde(default, deserialize_with = "number")]
        n: Option<u64>,
    }

    #[test]
    fn fields_of_another_type_are_absent_and_nothing_is_built() {
        let read = |text: &'static str| serde_json::from_str::<Fields<'_>>(text).unwrap();
        let all = read(r#"{"id":"a","on":true,"n":3}"#);
        assert_eq!(all.id, Some(Some(Cow::Borrowed("a"))));
        assert_eq!((all.on, all.n), (Some(true), Some(3)));
        let odd = read(r#"{"id":[0,0,0],"on":"yes","n":-1,"more":{"x":[1]}}"#);
        assert_eq!(
            odd,
            Fields {
                id: Some(None),
                on: None,
                n: None
            }
        );
        assert_eq!(read("{}"), Fields::default());
    }

    #[test]
    fn rendered_text_joins_text_blocks() {
        let raw = |t: &'static str| -> &'static RawValue { serde_json::from_str(t).unwrap() };
        let blocks = raw(
            r#"[{"type":"text","text":"a"},{"type":"image"},5,{"type":"text","text":"b"},{"type":"text","text":7}]"#,
        );
        assert_eq!(rendered_text(Some(blocks)), "a\nb");
        assert_eq!(rendered_text(Some(raw(r#""s""#))), "s");
        assert_eq!(rendered_text(Some(raw("{}"))), "");
        assert_eq!(rendered_text(None), "");
    }

    #[test]
    fn arrays_are_walked_one_element_at_a_time() {
        let raw: &RawValue = serde_json::from_str(r#"[1, {"a":2}, "x"]"#).unwrap();
        let mut seen = Vec::new();
        assert!(each(raw, |item| seen.push(item.get().to_owned())));
        assert_eq!(seen, ["1", r#"{"a":2}"#, r#""x""#]);
        assert_eq!(first(raw).map(RawValue::get), Some("1"));
        let not: &RawValue = serde_json::from_str(r#"{"a":1}"#).unwrap();
        assert!(!each(not, |_| {}));
        assert!(first(not).is_none());
    }
}
