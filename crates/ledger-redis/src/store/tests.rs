//! Unit tests of the store's private pieces.

use std::time::Duration;

use super::*;

#[test]
fn a_bad_url_or_option_is_refused_up_front_and_a_password_is_never_shown() {
    let refused = |url: &str, options: RedisOptions| match RedisStore::connect(url, options) {
        Err(fault) => fault.to_string(),
        Ok(store) => format!("accepted: {store:?}"),
    };
    let fault = refused("http://127.0.0.1:6379", RedisOptions::default());
    assert!(
        fault.contains("invalid Redis URL \"http://127.0.0.1:6379\""),
        "{fault}"
    );
    let fault = refused("redis://user:hunter2@", RedisOptions::default());
    assert!(
        !fault.contains("hunter2") && fault.contains("***@"),
        "{fault}"
    );
    let fault = refused("rediss://127.0.0.1:6379/0", RedisOptions::default());
    assert!(fault.contains("TLS"), "{fault}");
    let fault = refused(
        "redis://127.0.0.1:6379/0",
        RedisOptions {
            prefix: "a{b}".into(),
            ..RedisOptions::default()
        },
    );
    assert!(fault.contains("prefix \"a{b}\""), "{fault}");
    for (timeout, ttl) in [
        (Duration::ZERO, Duration::from_secs(1)),
        (Duration::from_secs(1), Duration::ZERO),
        (Duration::from_secs(1), Duration::MAX),
    ] {
        let options = RedisOptions {
            timeout,
            ttl,
            ..RedisOptions::default()
        };
        assert!(refused("redis://127.0.0.1:6379/0", options).starts_with("redis ledger:"));
    }
    let longest = RedisOptions {
        ttl: Duration::from_millis(MAX_TTL_MS),
        ..RedisOptions::default()
    };
    let named = RedisStore::connect("redis://127.0.0.1:1/0", longest).map(|s| s.name());
    assert_eq!(named.ok(), Some("redis"), "2^62 ms is the longest ttl");
    let lazy = RedisStore::connect("redis://:pw@127.0.0.1:1/3", RedisOptions::default());
    let shown = lazy.map(|store| format!("{store:?}")).unwrap_or_default();
    assert!(
        shown.contains("\"redis://***@127.0.0.1:1/3\"") && !shown.contains("pw"),
        "lazy, and shown redacted: {shown}"
    );
}
