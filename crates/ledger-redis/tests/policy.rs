//! The skip-or-fail policy of `testing::RedisServer::start`, run in a child
//! (this test binary again) with `redis-server` off `PATH`: a machine without
//! it skips, unless `SANDBOX_ADVISOR_REQUIRE_REDIS` says otherwise; and where
//! it is required, a server starts.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::Command;

use ledger_redis::testing::{REQUIRE_REDIS, RedisServer};

const CHILD: &str = "LEDGER_REDIS_POLICY_CHILD";
const NAME: &str = "without_redis_server_a_test_skips_unless_redis_is_required";

#[test]
fn without_redis_server_a_test_skips_unless_redis_is_required() {
    if std::env::var_os(CHILD).is_some() {
        assert!(RedisServer::start().is_none(), "redis-server is off PATH");
        return;
    }
    let me = std::env::current_exe().unwrap();
    let check = |required: Option<&str>, passes: bool| {
        let mut child = Command::new(&me);
        child
            .args(["--exact", NAME, "--nocapture", "--test-threads", "1"])
            .env(CHILD, "1")
            .env("PATH", "/nonexistent")
            .env_remove(REQUIRE_REDIS);
        if let Some(value) = required {
            child.env(REQUIRE_REDIS, value);
        }
        let out = child.output().unwrap();
        let said = String::from_utf8_lossy(&out.stderr).into_owned()
            + &String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.success(), passes, "{required:?}: {said}");
        if passes {
            assert!(said.contains("skipped: redis-server not found"), "{said}");
        }
    };
    for (required, passes) in [
        (None, true),
        (Some(""), true),
        (Some("0"), true),
        (Some("1"), false),
        (Some("yes"), false),
    ] {
        check(required, passes);
    }
    let here = std::env::var(REQUIRE_REDIS).is_ok_and(|v| !v.is_empty() && v != "0");
    if here {
        assert!(
            RedisServer::start().is_some(),
            "required here: it must start"
        );
    }
}
