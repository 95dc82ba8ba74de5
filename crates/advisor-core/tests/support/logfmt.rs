//! A reference logfmt reader, written from the grammar (as go-logfmt and
//! brandur's logfmt read it), not from `quote::log_field`:
//!
//! ```text
//! line   = *SP pair *( 1*SP pair ) *SP
//! pair   = key [ "=" [ value ] ]
//! key    = 1*( any char > SP except "=" and DQUOTE )
//! value  = bare / quoted
//! bare   = 1*( any char > SP except "=" and DQUOTE )
//! quoted = DQUOTE *( JSON string character or escape ) DQUOTE
//! ```
//!
//! A quoted value is decoded as a JSON string (by serde_json), so a raw
//! control character inside quotes is an error, as is anything after the
//! closing quote but a space.
#![allow(dead_code)]

/// One `key=value` pair; `None` for a key with no `=`.
pub type Pair = (String, Option<String>);

/// The pairs of one logfmt line, or where it breaks the grammar.
pub fn parse(line: &str) -> Result<Vec<Pair>, String> {
    let mut pairs = Vec::new();
    let mut rest = line;
    loop {
        rest = rest.trim_start_matches(' ');
        if rest.is_empty() {
            return Ok(pairs);
        }
        let key_end = rest
            .find(|c: char| c <= ' ' || c == '=' || c == '"')
            .unwrap_or(rest.len());
        if key_end == 0 {
            return Err(format!("no key at {rest:?}"));
        }
        let key = rest[..key_end].to_owned();
        rest = &rest[key_end..];
        if !rest.starts_with('=') {
            if !(rest.is_empty() || rest.starts_with(' ')) {
                return Err(format!("bad character after key {key:?}: {rest:?}"));
            }
            pairs.push((key, None));
            continue;
        }
        rest = &rest[1..];
        let (value, after) = if rest.starts_with('"') {
            quoted(rest)?
        } else {
            let end = rest.find(|c: char| c <= ' ').unwrap_or(rest.len());
            let bare = &rest[..end];
            if bare.contains(['=', '"']) {
                return Err(format!("'=' or '\"' in the bare value {bare:?}"));
            }
            (bare.to_owned(), &rest[end..])
        };
        if !(after.is_empty() || after.starts_with(' ')) {
            return Err(format!("no space after the value of {key:?}: {after:?}"));
        }
        pairs.push((key, Some(value)));
        rest = after;
    }
}

/// A quoted value at the start of `s` (which starts with `"`), and the rest.
fn quoted(s: &str) -> Result<(String, &str), String> {
    let mut escaped = false;
    for (i, c) in s.char_indices().skip(1) {
        match (escaped, c) {
            (true, _) => escaped = false,
            (false, '\\') => escaped = true,
            (false, '"') => {
                let value: String = serde_json::from_str(&s[..=i])
                    .map_err(|e| format!("not a JSON string: {:?}: {e}", &s[..=i]))?;
                return Ok((value, &s[i + 1..]));
            }
            _ => {}
        }
    }
    Err(format!("unterminated quoted value {s:?}"))
}

#[test]
fn the_reader_reads_the_grammar() {
    let got = parse(r#"a=1 b="x y\"z\\" c= d e="\u001b\n""#).unwrap();
    let want: Vec<Pair> = vec![
        ("a".into(), Some("1".into())),
        ("b".into(), Some("x y\"z\\".into())),
        ("c".into(), Some(String::new())),
        ("d".into(), None),
        ("e".into(), Some("\u{1b}\n".into())),
    ];
    assert_eq!(got, want);
    for bad in [
        r#"a="x"#,
        r#"a=x"y"#,
        "a=\"\n\"",
        r#"a="x"b"#,
        "=x",
        r#"a=b=c"#,
    ] {
        assert!(parse(bad).is_err(), "{bad:?}");
    }
}
