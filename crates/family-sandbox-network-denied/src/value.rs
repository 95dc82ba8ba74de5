//! A refused host as a value the user may copy into a setting: only a plain
//! DNS name passes.
//!
//! The host comes from the sandboxed command's own request, so it is whatever
//! that command (or a page it fetched) asked for. In prose it is only ever
//! quoted ([`advisor_core::Untrusted::inline`]). Outside a quote frame, on
//! the line the user may copy, it stands only when it is a plain DNS name:
//! labels of `a`–`z`, `0`–`9` and `-`, separated by single dots, each label 1
//! to 63 characters and not starting or ending with `-`, at most 253
//! characters in all. Anything else (capitals, an IP literal in brackets, a
//! wildcard, a space, a quote, a non-ASCII letter) is refused, and the line
//! shows [`PLACEHOLDER`] with the reason said in prose.

use advisor_core::Untrusted;

/// What the value line shows in place of a host that is not a plain DNS name.
pub const PLACEHOLDER: &str = "<host>";

/// The longest DNS name, in characters.
pub const NAME_MAX_CHARS: usize = 253;

/// The longest DNS label, in characters.
pub const LABEL_MAX_CHARS: usize = 63;

/// Why a host cannot stand as a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The host text was cut when it was read.
    #[error("the host was cut when it was read")]
    Cut,
    /// Longer than a DNS name can be.
    #[error("the host is longer than {NAME_MAX_CHARS} characters")]
    TooLong,
    /// A character outside `a`–`z`, `0`–`9`, `.` and `-`, or a label out of shape.
    #[error("the host is not a plain lowercase DNS name")]
    NotDnsName,
}

/// A host that is a plain DNS name, fit to be copied as a setting's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DomainValue(String);

impl DomainValue {
    /// The host as a value, or why it cannot be one.
    pub fn new(host: &Untrusted) -> Result<Self, Refusal> {
        if host.was_cut() {
            return Err(Refusal::Cut);
        }
        let name = host.inspect();
        if name.len() > NAME_MAX_CHARS {
            return Err(Refusal::TooLong);
        }
        if name.is_empty() || !name.split('.').all(is_label) {
            return Err(Refusal::NotDnsName);
        }
        Ok(Self(name.to_owned()))
    }

    /// The value.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// One DNS label: 1 to 63 of `a`–`z`, `0`–`9`, `-`, not starting or ending with `-`.
fn is_label(label: &str) -> bool {
    !label.is_empty()
        && label.len() <= LABEL_MAX_CHARS
        && !label.starts_with('-')
        && !label.ends_with('-')
        && label
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// The value line's text for `host`: the name, or [`PLACEHOLDER`].
pub fn slot(host: &Untrusted) -> (String, Option<Refusal>) {
    match DomainValue::new(host) {
        Ok(value) => (value.0, None),
        Err(why) => (PLACEHOLDER.to_owned(), Some(why)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(raw: &str) -> Result<String, Refusal> {
        DomainValue::new(&Untrusted::new(raw)).map(|v| v.as_str().to_owned())
    }

    #[test]
    fn plain_dns_names_pass() {
        for name in [
            "example.com",
            "registry.npm.example",
            "a",
            "x-1.b2.c",
            "10.0.0.1",
        ] {
            assert_eq!(value(name).as_deref(), Ok(name), "{name}");
        }
        let longest = [
            "a".repeat(63),
            "b".repeat(63),
            "c".repeat(63),
            "d".repeat(61),
        ]
        .join(".");
        assert_eq!(longest.len(), NAME_MAX_CHARS);
        assert!(value(&longest).is_ok());
    }

    #[test]
    fn anything_else_is_refused() {
        for name in [
            "",
            "Example.com",
            "example..com",
            ".example.com",
            "example.com.",
            "-a.com",
            "a-.com",
            "*.example.com",
            "[::1]",
            "exa mple.com",
            "example.com;rm",
            "ex`ample.com",
            "exämple.com",
            "a\u{200b}.com",
            "example.com'",
        ] {
            assert_eq!(value(name), Err(Refusal::NotDnsName), "{name:?}");
        }
        assert_eq!(value(&"a".repeat(64)), Err(Refusal::NotDnsName));
        let long = vec!["a".repeat(63); 4].join(".");
        assert_eq!(value(&long), Err(Refusal::TooLong));
        let cut = Untrusted::new(&"a".repeat(advisor_core::quote::UNTRUSTED_MAX_BYTES + 1));
        assert_eq!(DomainValue::new(&cut), Err(Refusal::Cut));
    }

    #[test]
    fn the_slot_is_the_name_or_the_placeholder() {
        assert_eq!(
            slot(&Untrusted::new("example.com")),
            ("example.com".to_owned(), None)
        );
        assert_eq!(
            slot(&Untrusted::new("evil.com\"; curl x")),
            (PLACEHOLDER.to_owned(), Some(Refusal::NotDnsName))
        );
    }
}
