//! Strings: decoded for comparing (escapes resolved, a surrogate pair
//! joined, a lone surrogate as U+FFFD), never rewritten in the text.

use super::{JsonError, Parser};

impl Parser<'_> {
    fn hex4(&mut self) -> Result<u32, JsonError> {
        let digits = self.bytes.get(self.at..self.at + 4);
        let value = digits
            .and_then(|d| std::str::from_utf8(d).ok())
            .filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()))
            .and_then(|d| u32::from_str_radix(d, 16).ok())
            .ok_or_else(|| self.syntax("expected four hex digits after `\\u`"))?;
        self.at += 4;
        Ok(value)
    }

    pub(super) fn string(&mut self) -> Result<String, JsonError> {
        self.at += 1;
        let mut out = String::new();
        let mut run = self.at;
        loop {
            match self.peek() {
                None => return Err(self.syntax("the text ends inside a string")),
                Some(b'"') => {
                    out.push_str(&self.text[run..self.at]);
                    self.at += 1;
                    return Ok(out);
                }
                Some(0..0x20) => return Err(self.syntax("a control character inside a string")),
                Some(b'\\') => {
                    out.push_str(&self.text[run..self.at]);
                    self.at += 1;
                    self.escape(&mut out)?;
                    run = self.at;
                }
                Some(_) => self.at += 1,
            }
        }
    }

    fn escape(&mut self, out: &mut String) -> Result<(), JsonError> {
        let c = match self.peek() {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                self.at += 1;
                let unit = self.hex4()?;
                let pair =
                    (0xD800..0xDC00).contains(&unit) && self.bytes[self.at..].starts_with(b"\\u");
                let low = if pair {
                    let back = self.at;
                    self.at += 2;
                    let low = self.hex4()?;
                    if (0xDC00..0xE000).contains(&low) {
                        Some(low)
                    } else {
                        self.at = back;
                        None
                    }
                } else {
                    None
                };
                let code = match low {
                    Some(low) => 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00),
                    None => unit,
                };
                out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
                return Ok(());
            }
            _ => return Err(self.syntax("an unknown escape after `\\`")),
        };
        self.at += 1;
        out.push(c);
        Ok(())
    }
}
