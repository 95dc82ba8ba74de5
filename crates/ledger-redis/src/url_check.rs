//! [`check_url`]: what is wrong with a Redis URL, in words, before the redis
//! crate reads it (its own errors say only `InvalidClientConfig`).

use redis::IntoConnectionInfo as _;

/// The longest part of a URL quoted in a [`UrlError`].
const QUOTED_MAX: usize = 40;

/// Why a Redis URL cannot be used. Only a part after the user information is
/// ever quoted (the port or the database, escaped and cut), so a password
/// never shows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UrlError {
    /// Nothing between `redis://` (and any `user:password@`) and the port or path.
    #[error("the Redis URL names no host (redis://[:password@]host[:port][/db])")]
    NoHost,
    /// The port is not a number the server could listen on.
    #[error("the Redis URL's port {0} is not a number from 1 to 65535")]
    Port(String),
    /// The path is not a database number.
    #[error("the Redis URL's database {0} is not a whole number from 0 (redis://host:port/0)")]
    Database(String),
    /// A wildcard address, which a client cannot connect to.
    #[error("the Redis URL names a wildcard address (0.0.0.0 or ::), not a server")]
    Wildcard,
    /// A URL the redis client still cannot read (say, a character no host
    /// may hold).
    #[error(
        "the Redis URL cannot be read (redis://[:password@]host[:port][/db]; a password holding `@`, `/` or `:` is written percent-encoded)"
    )]
    Unreadable,
}

/// Checks `url` (`redis://[user:password@]host[:port][/db][?…]`) as the store
/// will read it. The user information ends at the URL's last `@`, as
/// [`crate::redact_url`] has it, so what an error quotes is always part of
/// what `redact_url` shows.
///
/// ```
/// use ledger_redis::{UrlError, check_url};
/// assert_eq!(check_url("redis://:pw@cache:6379/2"), Ok(()));
/// assert_eq!(check_url("redis://:pw@cache:pw/0"), Err(UrlError::Port("\"pw\"".into())));
/// ```
pub fn check_url(url: &str) -> Result<(), UrlError> {
    check_parts(url)?;
    url.into_connection_info()
        .map(drop)
        .map_err(|_| UrlError::Unreadable)
}

/// The host, the port and the database of `url`, each checked; the rest is
/// left to the redis crate.
pub(crate) fn check_parts(url: &str) -> Result<(), UrlError> {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let rest = rest.rfind('@').map_or(rest, |at| &rest[at + 1..]);
    let rest = rest.find(['?', '#']).map_or(rest, |cut| &rest[..cut]);
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let (host, port) = match authority.strip_prefix('[') {
        // An IPv6 address: `[::1]:6379`.
        Some(v6) => match v6.split_once(']') {
            Some((address, after)) => (address, after.strip_prefix(':')),
            None => return Err(UrlError::Unreadable),
        },
        None => match authority.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        },
    };
    if host.is_empty() {
        return Err(UrlError::NoHost);
    }
    if host
        .parse::<std::net::IpAddr>()
        .is_ok_and(|ip| ip.is_unspecified())
    {
        return Err(UrlError::Wildcard);
    }
    // `host:` with no digits is the default port, as the URL standard has it.
    if let Some(port) = port.filter(|p| !p.is_empty()) {
        if !port.parse::<u16>().is_ok_and(|n| n > 0) {
            return Err(UrlError::Port(quoted(port)));
        }
    }
    let db = path.trim_matches('/');
    if !db.is_empty() && db.parse::<u32>().is_err() {
        return Err(UrlError::Database(quoted(db)));
    }
    Ok(())
}

/// `part` escaped and quoted, at most [`QUOTED_MAX`] characters of it.
fn quoted(part: &str) -> String {
    let cut: String = part.chars().take(QUOTED_MAX).collect();
    let more = if cut.len() < part.len() { "…" } else { "" };
    format!("{:?}{more}", advisor_core::quote::escaped(&cut).to_string())
}

#[cfg(test)]
mod tests {
    use super::{UrlError, check_url};

    #[test]
    fn each_mistake_is_named_and_a_password_never_shows() {
        let port = |p: &str| Err(UrlError::Port(format!("{p:?}")));
        let db = |d: &str| Err(UrlError::Database(format!("{d:?}")));
        let cases = [
            ("redis://127.0.0.1:6379/0", Ok(())),
            ("redis://h", Ok(())),
            ("redis://h:/", Ok(())),
            ("redis://u:p%40ss@h:1/15?protocol=resp3", Ok(())),
            ("redis://u:p@ss:w/rd@h:1/15", Err(UrlError::Unreadable)),
            ("redis://[::1]:6379/0", Ok(())),
            ("redis://:pw@host:notaport/0", port("notaport")),
            ("redis://host:99999/0", port("99999")),
            ("redis://host:0", port("0")),
            ("redis://host/abc", db("abc")),
            ("redis://host:1/-1", db("-1")),
            ("redis://:pw@/0", Err(UrlError::NoHost)),
            ("redis://:1/0", Err(UrlError::NoHost)),
            ("redis://[::1/0", Err(UrlError::Unreadable)),
            ("redis://0.0.0.0:6379", Err(UrlError::Wildcard)),
            ("redis://[::]/1", Err(UrlError::Wildcard)),
            ("redis://ho st/0", Err(UrlError::Unreadable)),
        ];
        for (url, expected) in cases {
            let got = check_url(url);
            assert_eq!(got, expected, "{url}");
            if let Err(e) = got {
                assert!(!e.to_string().contains("pw"), "{url}: {e}");
            }
        }
        let long = format!("redis://h/{}", "9x".repeat(100));
        let shown = check_url(&long).unwrap_err().to_string();
        assert!(shown.len() < 160, "{shown}");
    }
}
