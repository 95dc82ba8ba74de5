//! Words and numbers as the table and the page print them: untrusted text
//! made safe, counts with separators, durations for people.

use std::fmt::Write as _;

/// Untrusted text made safe to print: control characters (C0, DEL, C1) and
/// invisible or direction-changing format characters become `\u{..}`
/// escapes, and text longer than `cap` characters is cut, ending in `...`.
/// Only the first `cap` characters (and one more, to know it is longer)
/// are looked at, whatever the text's length.
pub fn visible(text: &str, cap: usize) -> String {
    let room = cap.saturating_sub(3);
    let mut out = String::new();
    // The end of `out` when it still fits in `room` (where a cut goes).
    let mut cut_at = Some(0);
    let mut count = 0;
    let mut escaped = String::new();
    for c in text.chars() {
        escaped.clear();
        if is_unsafe(c) {
            let _ = write!(escaped, "\\u{{{:x}}}", c as u32);
        } else {
            escaped.push(c);
        }
        let n = escaped.chars().count();
        if count + n > cap {
            let end = cut_at.unwrap_or(0);
            out.truncate(end);
            out.push_str("...");
            return out;
        }
        count += n;
        out.push_str(&escaped);
        if count <= room {
            cut_at = Some(out.len());
        }
    }
    out
}

/// Characters that must not reach a terminal (or a page) as they are.
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{200b}'..='\u{200f}'
                | '\u{2028}'..='\u{202e}'
                | '\u{2060}'..='\u{206f}'
                | '\u{feff}'
                | '\u{fff9}'..='\u{fffb}'
        )
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// Milliseconds for a person: `850ms`, `12s`, `3m 12s`, `2h 05m`, `3d 4h`.
pub fn duration(ms: u64) -> String {
    let s = ms / 1000;
    match s {
        _ if ms < 1000 => format!("{ms}ms"),
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m {:02}s", s / 60, s % 60),
        3600..86_400 => format!("{}h {:02}m", s / 3600, s % 3600 / 60),
        _ => format!("{}d {:02}h", s / 86_400, s % 86_400 / 3600),
    }
}

pub(crate) fn plural<'a>(n: u64, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}
