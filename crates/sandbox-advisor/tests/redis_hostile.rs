//! The Redis ledger as hostile ground, through the real binary: a malformed
//! fleet digest key, a 50 MB value at every key a hook reads, a frozen
//! server, and a password in every place a ledger URL can be printed.
//! Skipped with a note when `redis-server` is not installed, unless
//! `SANDBOX_ADVISOR_REQUIRE_REDIS` is set (as in CI).

// Helpers outside #[test] functions are test code too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// The ACL family is the shipped one.
#![cfg(feature = "all-families")]

mod common;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::BIN;
use ledger_redis::testing::{RedisServer, redis};
use serde_json::{Value, json};

const ACL: &str = r"SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\ws)";
const DIGEST_KEY: &str = "sandbox-advisor:v1:digest-key";

fn failure(session: &str, call: &str) -> Value {
    json!({
        "session_id": session, "cwd": "D:\\ws", "hook_event_name": "PostToolUseFailure",
        "tool_name": "pwsh", "tool_input": {"command": "Get-Date"}, "tool_use_id": call,
        "error": ACL, "is_interrupt": false,
    })
}

fn pre(session: &str, call: &str) -> Value {
    json!({
        "session_id": session, "cwd": "D:\\ws", "hook_event_name": "PreToolUse",
        "tool_name": "pwsh", "tool_input": {"command": "Get-Date"}, "tool_use_id": call,
    })
}

/// What one hook process printed, and how long it took.
struct Out {
    code: i32,
    stdout: String,
    stderr: String,
    took: Duration,
}

impl Out {
    fn advised(&self) -> bool {
        self.stdout.contains("additionalContext")
    }
}

/// One `hook` process (a Windows host, workspace-write) with `extra` flags,
/// its per-user state under `home`.
fn hook(home: &Path, extra: &[&str], payload: &Value) -> Out {
    let start = Instant::now();
    let mut child = Command::new(BIN)
        .args([
            "--log",
            "info",
            "hook",
            "--dialect",
            "claude-code",
            "--host",
            "dsh",
        ])
        .args(["--platform", "win32", "--mode", "workspace-write"])
        .args(extra)
        .env("XDG_STATE_HOME", home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(payload.to_string().as_bytes()).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    Out {
        took: start.elapsed(),
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

fn all_keys(server: &RedisServer) -> Vec<String> {
    let mut keys: Vec<String> = redis::cmd("KEYS")
        .arg("*")
        .query(&mut server.connection().unwrap())
        .unwrap();
    keys.sort();
    keys
}

/// A garbage digest key: every hook says so at warn (naming the key, and the
/// value only by its length), never "Redis unreachable", writes nothing to
/// Redis, and answers from its on-disk store. So three hooks sharing a state
/// directory (one machine) advise once; three machines each advise once, as
/// in an outage: the garbage costs the fleet its sharing, never more.
#[test]
fn a_garbage_digest_key_is_a_warning_nothing_is_written_and_the_disk_answers() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    redis::cmd("SET")
        .arg(DIGEST_KEY)
        .arg("garbage-garbage")
        .exec(&mut redis.connection().unwrap())
        .unwrap();
    let url = redis.url();
    let check = |machines: usize, expected: usize| {
        let homes: Vec<_> = (0..machines)
            .map(|_| tempfile::tempdir().unwrap())
            .collect();
        let outs: Vec<Out> = (0..3)
            .map(|i| {
                let home = homes[i % machines].path();
                hook(home, &["--ledger", &url], &failure("s1", &format!("t{i}")))
            })
            .collect();
        for o in &outs {
            assert_eq!(o.code, 0, "{}", o.stderr);
            let warned = o.stderr.lines().find(|l| l.contains("malformed"));
            let warned = warned.unwrap_or_else(|| panic!("no warning: {}", o.stderr));
            assert!(warned.contains("WARN"), "{warned}");
            assert!(warned.contains(DIGEST_KEY), "{warned}");
            assert!(warned.contains("bytes=15"), "{warned}");
            assert!(!o.stderr.contains("garbage"), "{}", o.stderr);
            assert!(!o.stderr.contains("unreachable"), "{}", o.stderr);
        }
        let advised = outs.iter().filter(|o| o.advised()).count();
        assert_eq!(advised, expected, "{machines} machine(s)");
        assert_eq!(all_keys(&redis), [DIGEST_KEY], "nothing written to Redis");
    };
    check(1, 1);
    check(3, 3);
}

/// The pid's connections, as the server counts them (after it thaws).
fn connections_received(server: &RedisServer) -> i64 {
    let info: String = redis::cmd("INFO")
        .arg("stats")
        .query(&mut server.connection().unwrap())
        .unwrap();
    let line = info
        .lines()
        .find(|l| l.starts_with("total_connections_received:"))
        .unwrap();
    line.split(':').nth(1).unwrap().trim().parse().unwrap()
}

/// A frozen server (`SIGSTOP`) costs one hook at most its 250 ms Redis
/// deadline plus the process's own time, with AUTH and SELECT too, in one
/// connection; the on-disk store answers, and the password is never shown.
#[cfg(unix)]
#[test]
fn a_frozen_server_costs_a_hook_one_connection_within_its_deadline() {
    let Some(plain) = RedisServer::start() else {
        return;
    };
    let Some(locked) = RedisServer::start_with_password("s3cr@t/pw") else {
        return;
    };
    for (server, url) in [(&plain, plain.url()), (&locked, locked.url_with_db(2))] {
        let home = tempfile::tempdir().unwrap();
        let extra = ["--ledger", url.as_str()];
        // Warm: the digest key is the fleet's, and the binary is in the page cache.
        let warm = hook(home.path(), &extra, &failure("warm", "w1"));
        assert!(warm.advised(), "{}", warm.stderr);
        let before = connections_received(server);
        server.pause();
        let out = hook(home.path(), &extra, &failure("s1", "t1"));
        server.resume();
        let after = connections_received(server);
        eprintln!(
            "frozen server, {}: the hook took {:?}",
            ledger_redis::redact_url(&url),
            out.took
        );
        assert_eq!(out.code, 0, "{}", out.stderr);
        assert!(out.advised(), "the on-disk store answered: {}", out.stderr);
        assert!(out.took < Duration::from_millis(400), "{:?}", out.took);
        // One for the hook, one for this test's INFO.
        assert_eq!(after - before, 2, "{}", out.stderr);
        assert!(!out.stderr.contains("s3cr"), "{}", out.stderr);
    }
}

/// A loopback proxy in front of `upstream` that holds every chunk of the
/// server's replies for `delay`: a slow server (or link) that always answers.
/// Its address, as a ledger URL.
fn slow_proxy(upstream: u16, delay: Duration) -> String {
    use std::io::{Read, Write as _};
    use std::net::{TcpListener, TcpStream};
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for client in listener.incoming().flatten() {
            let Ok(server) = TcpStream::connect(("127.0.0.1", upstream)) else {
                continue;
            };
            let (mut up_in, mut up_out) =
                (client.try_clone().unwrap(), server.try_clone().unwrap());
            std::thread::spawn(move || std::io::copy(&mut up_in, &mut up_out));
            let (mut down_in, mut down_out) = (server, client);
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                while let Ok(n @ 1..) = down_in.read(&mut buf) {
                    std::thread::sleep(delay);
                    if down_out.write_all(&buf[..n]).is_err() {
                        break;
                    }
                }
            });
        }
    });
    format!("redis://127.0.0.1:{port}/0")
}

/// A slow server (every reply 100 ms late, under the 200 ms timeout) costs
/// one hook at most its 250 ms deadline for the whole conversation, however
/// many requests it needs (with the budget on, a failure needs four: the
/// key, the claim, the budget's read and write). The on-disk store answers.
#[test]
fn a_slow_server_costs_a_hook_at_most_its_deadline() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let url = slow_proxy(redis.port(), Duration::from_millis(100));
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("advisor.json");
    std::fs::write(&config, r#"{"enforceAfter": 1, "maxDenials": 2}"#).unwrap();
    let extra = [
        "--ledger",
        url.as_str(),
        "--config",
        config.to_str().unwrap(),
    ];
    let out = hook(dir.path(), &extra, &failure("s1", "t1"));
    eprintln!("slow server: the hook took {:?}", out.took);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.advised(), "{}", out.stderr);
    // Every request alone is answered within its timeout: only the
    // deadline can have ended the conversation.
    assert!(
        out.stderr
            .contains("the 250 ms allowed for talking to Redis are spent"),
        "{}",
        out.stderr
    );
    assert!(out.took < Duration::from_millis(400), "{:?}", out.took);
}

/// A loopback proxy in front of `upstream` that passes the server's replies
/// on one byte every 100 ms: no read of the client waits as long as its
/// timeout, yet a reply never ends in time. Its address, as a ledger URL.
fn drip_proxy(upstream: u16) -> String {
    use std::io::{Read, Write as _};
    use std::net::{TcpListener, TcpStream};
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for client in listener.incoming().flatten() {
            let Ok(server) = TcpStream::connect(("127.0.0.1", upstream)) else {
                continue;
            };
            let (mut up_in, mut up_out) =
                (client.try_clone().unwrap(), server.try_clone().unwrap());
            std::thread::spawn(move || std::io::copy(&mut up_in, &mut up_out));
            let (mut down_in, mut down_out) = (server, client);
            std::thread::spawn(move || {
                let mut byte = [0u8; 1];
                while let Ok(1) = down_in.read(&mut byte) {
                    std::thread::sleep(Duration::from_millis(100));
                    if down_out.write_all(&byte).is_err() {
                        break;
                    }
                }
            });
        }
    });
    format!("redis://127.0.0.1:{port}/0")
}

/// Issue 36 item 8: a server whose replies come one byte every 100 ms held a
/// hook until it was killed (20 s): each read got its byte within the
/// 200 ms timeout. Now a request has one deadline for its whole reply, so
/// the hook gives up on Redis within its 250 ms and the on-disk store
/// answers. (The bound is asserted with slack for a loaded machine: it
/// holds the deadline, not the speed.)
#[test]
fn a_dripping_server_costs_a_hook_at_most_its_deadline() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let url = drip_proxy(redis.port());
    let dir = tempfile::tempdir().unwrap();
    let out = hook(
        dir.path(),
        &["--ledger", url.as_str()],
        &failure("s1", "t1"),
    );
    eprintln!("dripping server: the hook took {:?}", out.took);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.advised(), "the on-disk store answered: {}", out.stderr);
    assert!(out.took < Duration::from_millis(1_250), "{:?}", out.took);
}

/// A 50 MB value at every key a hook reads (the digest key, the agent's
/// budget and claim): a hook answers within its bound, warns naming the key
/// and the size, and the value is refused by its length, never read.
#[test]
fn a_50_mb_value_at_each_key_a_hook_reads_is_refused_by_its_size() {
    let Some(redis) = RedisServer::start() else {
        return;
    };
    let url = redis.url();
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("advisor.json");
    std::fs::write(&config, r#"{"enforceAfter": 1, "maxDenials": 2}"#).unwrap();
    let extra = [
        "--ledger",
        url.as_str(),
        "--config",
        config.to_str().unwrap(),
    ];
    // A failure writes the agent's claim and its budget record.
    let first = hook(dir.path(), &extra, &failure("s1", "t1"));
    assert!(first.advised(), "{}", first.stderr);
    let keys = all_keys(&redis);
    let budget = keys
        .iter()
        .find(|k| k.ends_with(":budget:v2"))
        .unwrap()
        .clone();
    let claim = keys.iter().find(|k| k.contains(":claim:")).unwrap().clone();
    let big = |key: &str| {
        let mut c = redis.connection().unwrap();
        redis::cmd("DEL").arg(key).exec(&mut c).unwrap();
        redis::cmd("SETRANGE")
            .arg(key)
            .arg((50 << 20) - 1)
            .arg("x")
            .exec(&mut c)
            .unwrap();
    };
    struct Case<'a> {
        key: &'a str,
        payload: Value,
        /// On the host log.
        said: &'a str,
    }
    let cases = [
        Case {
            key: &budget,
            payload: pre("s1", "p1"),
            said: "holds 52428800 bytes, more than a budget record's 4643",
        },
        Case {
            key: &claim,
            payload: failure("s1", "t2"),
            said: "",
        },
        Case {
            key: DIGEST_KEY,
            payload: failure("s2", "t3"),
            said: "malformed (not 32 hex digits): this process writes nothing to Redis and answers from the on-disk store; delete the key, then restart the fleet's processes key=sandbox-advisor:v1:digest-key bytes=52428800",
        },
    ];
    for case in cases {
        big(case.key);
        let out = hook(dir.path(), &extra, &case.payload);
        eprintln!("50 MB at {}: the hook took {:?}", case.key, out.took);
        assert_eq!(out.code, 0, "{}", out.stderr);
        assert!(
            out.stderr.contains(case.said),
            "{}: {}",
            case.key,
            out.stderr
        );
        assert!(out.stderr.len() < 8192, "{}", out.stderr.len());
        assert!(out.took < Duration::from_millis(400), "{:?}", out.took);
    }
}

/// Every place a ledger URL can be printed shows it through one redaction:
/// clap's error, the config key's error, the described line of `serve`.
#[test]
fn a_ledger_password_is_never_printed() {
    let dir = tempfile::tempdir().unwrap();
    let config = |ledger: &str| {
        let path = dir.path().join("advisor.json");
        std::fs::write(&path, json!({ "ledger": ledger }).to_string()).unwrap();
        path.to_str().unwrap().to_owned()
    };
    let check = |args: &[&str], code: i32, shown: &str| {
        let run = common::run(args, "");
        assert_eq!(run.code, code, "{args:?}: {}", run.stderr);
        assert!(
            !run.stderr.contains("hunter2") && !run.stderr.contains("ter2"),
            "{}",
            run.stderr
        );
        assert!(run.stderr.contains(shown), "{args:?}: {}", run.stderr);
    };
    for url in [
        "rediss://u:hunter2@h:6380/0",
        "Redis://:hunter2@h",
        "REDIS+UNIX://:hunt@er2@/s.sock",
        "postgres://u:hun/ter2@db",
    ] {
        check(&["serve", "--ledger", url], 2, "://***@");
        check(
            &["serve", "--config", &config(url)],
            2,
            "config key `ledger`",
        );
        check(&["serve", "--config", &config(url)], 2, "://***@");
    }
    let url = "redis://:hunter2@127.0.0.1:1/0";
    check(
        &["--log", "info", "serve", "--ledger", url],
        0,
        "ledger=redis://***@127.0.0.1:1/0",
    );
    check(
        &["--log", "info", "serve", "--config", &config(url)],
        0,
        "redis://***@127.0.0.1:1/0",
    );
}
