//! [`redact_url`]: the one way a ledger URL is shown (logs, faults, errors).

/// A URL (or anything given where one was expected) with its secrets hidden:
/// the user information as `***`, and the query and fragment (which may
/// carry a password, as for a Unix socket) as `?…`.
///
/// The user information is everything between `scheme://` (any scheme, in
/// any case, or none) and the **last** `@`: a password may hold `@`, `:`,
/// `/` or `?`, so splitting at the first `@` or at the first `/` would show
/// part of it. A URL with an `@` in its path or query is therefore shown with
/// less than it could be, never with more.
///
/// ```
/// use ledger_redis::redact_url;
/// assert_eq!(redact_url("redis://:p@ssw0rd@host:6379/0"), "redis://***@host:6379/0");
/// assert_eq!(redact_url("Rediss://u:pw@h?x=1"), "Rediss://***@h?…");
/// assert_eq!(redact_url("redis+unix:///run/r.sock?pass=pw"), "redis+unix:///run/r.sock?…");
/// ```
pub fn redact_url(url: &str) -> String {
    let (scheme, rest) = match url.split_once("://") {
        Some((scheme, rest)) if is_scheme(scheme) => (Some(scheme), rest),
        _ => (None, url),
    };
    let (user, rest) = match rest.rfind('@') {
        Some(at) => ("***@", &rest[at + 1..]),
        None => ("", rest),
    };
    let (rest, query) = match rest.find(['?', '#']) {
        Some(cut) => (&rest[..cut], "?…"),
        None => (rest, ""),
    };
    let scheme = scheme.map(|s| format!("{s}://")).unwrap_or_default();
    format!("{scheme}{user}{rest}{query}")
}

/// RFC 3986: a letter, then letters, digits, `+`, `-` or `.`.
fn is_scheme(text: &str) -> bool {
    let mut chars = text.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

#[cfg(test)]
mod tests {
    use super::redact_url;
    use proptest::prelude::*;

    #[test]
    fn user_information_queries_and_fragments_are_hidden_whatever_the_scheme() {
        let cases = [
            ("redis://:p@ssw0rd@host", "redis://***@host"),
            ("redis://u:hunter2@h:1/2", "redis://***@h:1/2"),
            ("Redis://u:pw@h/0", "Redis://***@h/0"),
            ("REDISS://:pw@h:6380", "REDISS://***@h:6380"),
            ("rediss://u:pw@h", "rediss://***@h"),
            ("redis+unix:///s.sock?pass=pw", "redis+unix:///s.sock?…"),
            ("unix:///s.sock?pass=pw", "unix:///s.sock?…"),
            ("postgres://a:b/c@d/e", "postgres://***@d/e"),
            ("redis://:pa/ss?w@h/0", "redis://***@h/0"),
            ("redis://h:1/0?x=a@b", "redis://***@b"),
            ("redis://h:1/0#pw", "redis://h:1/0?…"),
            ("redis://127.0.0.1:6379/0", "redis://127.0.0.1:6379/0"),
            ("user:pw@host", "***@host"),
            ("u:pw@h://x", "***@h://x"),
            (":pw@x://h", "***@x://h"),
            ("memory", "memory"),
            ("", ""),
        ];
        for (url, shown) in cases {
            assert_eq!(redact_url(url), shown, "{url}");
        }
    }

    proptest! {
        /// Whatever the user information holds (`@`, `:`, `/`, `?`, `#`),
        /// whatever the scheme's case, the password never shows.
        #[test]
        fn a_password_never_shows(
            scheme in "[rR][eE][dD][iI][sS]([sS]|\\+[uU][nN][iI][xX])?|[hH][tT][tT][pP]|unix",
            user in "[a-z@:/?#]{0,6}",
            password in "[A-Z0-9@:/?#%]{0,12}[FGJMOQWZ][A-Z0-9@:/?#%]{0,12}",
            host in "[a-z0-9.]{1,12}(:[0-9]{1,5})?(/[0-9]{1,2})?",
        ) {
            let url = format!("{scheme}://{user}:{password}@{host}");
            let shown = redact_url(&url);
            prop_assert!(!shown.contains(&password), "{url} -> {shown}");
            prop_assert_eq!(shown, format!("{scheme}://***@{host}"));
        }
    }
}
