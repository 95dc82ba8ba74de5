//! A deserializer's error in the protocol's words: what the field takes and
//! what it held, never a Rust type.

/// What a field takes, in the protocol's words (`docs/protocol.md`), by its
/// path with array indices dropped.
fn expected(path: &str) -> Option<&'static str> {
    Some(match path {
        "protocol" => "a non-negative integer",
        "platform" => "one of `win32`, `linux`, `macos`",
        "electron" => "`true` or `false`",
        "session" | "agent" | "call" | "tool" => "a non-empty string",
        "tmpdir" | "cwd" | "message" | "error.message" | "error.content" | "error.members[]"
        | "result.content" => "a string",
        "mode" => "one of `read-only`, `workspace-write`, `danger-full-access`",
        "reason" => "`no-service` or `resolver-error`",
        "error" => {
            "an object with a string `message` (and optional `members`, `content` and `code`)"
        }
        "error.members" => "an array of strings",
        "result" => "an object with a `value` (and an optional string `content`)",
        _ => return None,
    })
}

/// A JSON value as serde describes it (`string "x"`, `integer `5``, `map`, …),
/// as the protocol says it; a string's content is not repeated.
fn json_kind(unexpected: &str) -> Option<String> {
    let literal = || unexpected.split('`').nth(1);
    let word = |prefix: &str| unexpected.starts_with(prefix);
    Some(if word("string") {
        "a string".into()
    } else if word("integer") || word("floating point") {
        format!("the number {}", literal()?)
    } else if word("boolean") {
        format!("`{}`", literal()?)
    } else if word("map") {
        "an object".into()
    } else if word("sequence") {
        "an array".into()
    } else if word("unit") {
        "null".into()
    } else {
        return None;
    })
}

/// Rewrites a deserializer's error (which names Rust types: `struct ErrorPart`,
/// `u32`) in the protocol's terms: what the field takes, and what it held.
pub(super) fn in_protocol_terms(path: &str, inner: &str) -> String {
    let field: String = {
        let mut out = String::with_capacity(path.len());
        let mut skipping = false;
        for c in path.chars() {
            match c {
                '[' => {
                    skipping = true;
                    out.push_str("[]");
                }
                ']' => skipping = false,
                c if !skipping => out.push(c),
                _ => {}
            }
        }
        out
    };
    let wrong = inner
        .strip_prefix("invalid type: ")
        .or_else(|| inner.strip_prefix("invalid value: "));
    if let (Some(rest), Some(takes)) = (wrong, expected(&field)) {
        let held = rest.split(", expected").next().and_then(json_kind);
        return match held {
            Some(held) => format!("field `{path}` must be {takes}, not {held}"),
            None => format!("field `{path}` must be {takes}"),
        };
    }
    if let Some(missing) = inner.strip_prefix("missing field `") {
        if path != "." {
            let name = missing.trim_end_matches('`');
            return format!("missing field `{path}.{name}`");
        }
    }
    if path == "." {
        inner.to_owned()
    } else {
        format!("field `{path}`: {inner}")
    }
}

/// The most of a deserializer's message kept, in bytes: more than an error
/// line shows (`ERROR_MAX_CHARS`), and small whatever value it quotes.
const MESSAGE_KEPT_BYTES: usize = 4 * 1024;

/// serde_json's message without the ` at line L column C` it appends when it
/// read text (a field's value is read from its own slice of the line, so that
/// position would not be the line's). A message quoting a long bad value is
/// written only up to [`MESSAGE_KEPT_BYTES`], never copied whole.
pub(super) fn without_position(e: &serde_json::Error) -> String {
    use std::fmt::Write as _;
    let mut kept = Kept(String::new());
    // `Kept` never fails; it stops keeping.
    let _ = write!(kept, "{e}");
    let full = kept.0;
    if e.line() == 0 {
        return full;
    }
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    match full.strip_suffix(&suffix) {
        Some(bare) => bare.to_owned(),
        None => full,
    }
}

/// A writer that keeps the first [`MESSAGE_KEPT_BYTES`] (at a character boundary).
struct Kept(String);

impl std::fmt::Write for Kept {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let room = MESSAGE_KEPT_BYTES.saturating_sub(self.0.len());
        if s.len() <= room {
            self.0.push_str(s);
        } else {
            let mut end = room;
            while !s.is_char_boundary(end) {
                end -= 1;
            }
            self.0.push_str(&s[..end]);
        }
        Ok(())
    }
}
