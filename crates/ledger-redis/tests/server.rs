//! The test-support server itself (`testing::RedisServer`): the port and the
//! URLs it hands out reach the server it started, with the password and the
//! database they name, and a dropped server is gone. Every other test (and
//! the CLI's) talks to Redis through these, so a wrong port or URL would send
//! them to the wrong server.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use ledger_redis::testing::{RedisServer, redis};

/// The first line a raw inline `PING` gets back on the server's port.
fn raw_ping(port: u16) -> String {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(2)))
        .unwrap();
    stream.write_all(b"PING\r\n").unwrap();
    let mut reply = [0u8; 64];
    let n = stream.read(&mut reply).unwrap();
    String::from_utf8_lossy(&reply[..n]).trim_end().to_owned()
}

/// The `db=` field of `CLIENT INFO` on a connection opened from `url`.
fn database_of(url: &str) -> String {
    let mut c = redis::Client::open(url)
        .unwrap()
        .get_connection_with_timeout(Duration::from_secs(2))
        .unwrap();
    let info: String = redis::cmd("CLIENT").arg("INFO").query(&mut c).unwrap();
    info.split(' ')
        .find_map(|field| field.strip_prefix("db="))
        .unwrap_or_else(|| panic!("no db= in {info:?}"))
        .to_owned()
}

#[test]
fn the_port_and_urls_of_a_server_reach_it_with_its_password_and_database() {
    let Some(plain) = RedisServer::start() else {
        return;
    };
    // `start` found redis-server, so a password-protected one must start too.
    let locked = RedisServer::start_with_password("p@ss:w/rd")
        .expect("redis-server runs here, so it runs with a password");
    let check = |server: &RedisServer, user: &str, ping: &str| {
        let port = server.port();
        assert_eq!(raw_ping(port), ping, "port {port}");
        assert_eq!(
            server.url(),
            format!("redis://{user}127.0.0.1:{port}/0"),
            "url"
        );
        assert_eq!(
            server.url_with_db(3),
            format!("redis://{user}127.0.0.1:{port}/3"),
            "url_with_db"
        );
        assert_eq!(database_of(&server.url()), "0");
        assert_eq!(database_of(&server.url_with_db(3)), "3");
        let pong: String = redis::cmd("PING")
            .query(&mut server.connection().unwrap())
            .unwrap();
        assert_eq!(pong, "PONG");
    };
    // Unauthenticated, the password-protected one refuses: it is the server
    // started with that password, and the URL's password is what gets in.
    check(&plain, "", "+PONG");
    check(
        &locked,
        ":p%40ss%3Aw%2Frd@",
        "-NOAUTH Authentication required.",
    );
    assert_ne!(plain.port(), locked.port(), "two servers, two ports");
}

#[test]
fn a_dropped_server_no_longer_listens_on_its_port() {
    let Some(server) = RedisServer::start() else {
        return;
    };
    let port = server.port();
    assert_eq!(raw_ping(port), "+PONG");
    drop(server);
    let after = TcpStream::connect(("127.0.0.1", port));
    assert!(after.is_err(), "port {port} still answers after drop");
}
