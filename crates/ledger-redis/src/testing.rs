//! A throwaway `redis-server` for tests and benches (feature `testing`).
//!
//! [`RedisServer::start`] holds the one policy for a machine without
//! `redis-server`: the caller skips, saying so, unless
//! [`REQUIRE_REDIS`] is set, in which case it fails. So a newcomer's
//! `cargo test --workspace` passes without Redis, and CI, which installs it
//! and sets the variable, cannot skip by accident.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The redis crate, for a test that looks at the keys through
/// [`RedisServer::connection`] without depending on it itself.
pub use redis;

/// Set (to anything but `0`) to make a missing `redis-server` a failure.
pub const REQUIRE_REDIS: &str = "SANDBOX_ADVISOR_REQUIRE_REDIS";

/// How long a starting server may take to answer `PING`.
const START_WITHIN: Duration = Duration::from_secs(10);

/// A `redis-server` on a free loopback port, without persistence, in its own
/// temporary directory; killed when dropped.
#[derive(Debug)]
pub struct RedisServer {
    port: u16,
    dir: tempfile::TempDir,
    child: Option<Child>,
    /// `requirepass`, when set.
    password: Option<String>,
}

/// True when `redis-server` can be run.
pub fn redis_available() -> bool {
    Command::new("redis-server")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

fn required() -> bool {
    std::env::var(REQUIRE_REDIS).is_ok_and(|v| !v.is_empty() && v != "0")
}

impl RedisServer {
    /// A running server; `None` (after printing why) when `redis-server` is
    /// not on `PATH` and [`REQUIRE_REDIS`] is unset.
    ///
    /// # Panics
    /// When `redis-server` is missing and required, or present and fails to
    /// start: the test must fail, not skip.
    #[allow(
        clippy::panic,
        reason = "test support: a required server that is absent fails the test"
    )]
    pub fn start() -> Option<Self> {
        Self::start_with(None)
    }

    /// [`start`](Self::start), with `requirepass password`: [`url`](Self::url)
    /// and [`connection`](Self::connection) authenticate.
    pub fn start_with_password(password: &str) -> Option<Self> {
        Self::start_with(Some(password.to_owned()))
    }

    #[allow(clippy::panic, reason = "test support")]
    fn start_with(password: Option<String>) -> Option<Self> {
        if !redis_available() {
            if required() {
                panic!(
                    "redis-server not found on PATH and {REQUIRE_REDIS} is set: install it (e.g. apt-get install redis-server)"
                );
            }
            eprintln!("skipped: redis-server not found (set {REQUIRE_REDIS}=1 to require it)");
            return None;
        }
        let mut last = String::new();
        // A free port can be taken between finding and binding it: try a few.
        // A server that runs but does not answer is not helped by another
        // port, so that fails at once (one wait, not five).
        for _ in 0..5 {
            let dir = match tempfile::tempdir() {
                Ok(dir) => dir,
                Err(e) => panic!("a temporary directory for redis-server: {e}"),
            };
            let mut server = Self {
                port: free_port(),
                dir,
                child: None,
                password: password.clone(),
            };
            match server.spawn() {
                Ok(()) => return Some(server),
                Err(NotStarted::Exited(why)) => last = why,
                Err(NotStarted::Silent(why)) => panic!("redis-server did not start: {why}"),
            }
        }
        panic!("redis-server did not start: {last}")
    }

    /// `redis://127.0.0.1:<port>/0` (`redis://:<password>@…` with a password).
    pub fn url(&self) -> String {
        self.url_with_db(0)
    }

    /// [`url`](Self::url) for database `db`.
    pub fn url_with_db(&self, db: u8) -> String {
        let user = match &self.password {
            Some(password) => format!(":{}@", percent_encoded(password)),
            None => String::new(),
        };
        format!("redis://{user}127.0.0.1:{}/{db}", self.port)
    }

    /// The loopback port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// A fresh connection, for a test to look at the keys.
    pub fn connection(&self) -> redis::RedisResult<redis::Connection> {
        redis::Client::open(self.url())?.get_connection_with_timeout(Duration::from_secs(2))
    }

    /// Stops the server at once (`SIGKILL`): clients see the connection reset.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts it again on the same port (empty: nothing is persisted).
    ///
    /// # Panics
    /// When it does not come back.
    #[allow(clippy::panic, reason = "test support")]
    pub fn restart(&mut self) {
        self.kill();
        if let Err(NotStarted::Exited(why) | NotStarted::Silent(why)) = self.spawn() {
            panic!("redis-server did not restart on port {}: {why}", self.port);
        }
    }

    /// Freezes the server (`SIGSTOP`): connections stay open, nothing answers.
    #[cfg(unix)]
    pub fn pause(&self) {
        self.signal("-STOP");
    }

    /// Thaws a paused server (`SIGCONT`).
    #[cfg(unix)]
    pub fn resume(&self) {
        self.signal("-CONT");
    }

    #[cfg(unix)]
    fn signal(&self, signal: &str) {
        if let Some(child) = &self.child {
            let _ = Command::new("kill")
                .arg(signal)
                .arg(child.id().to_string())
                .status();
        }
    }

    fn log(&self) -> PathBuf {
        self.dir.path().join("redis.log")
    }

    fn spawn(&mut self) -> Result<(), NotStarted> {
        let child = Command::new("redis-server")
            .args(["--port", &self.port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no", "--daemonize", "no"])
            .arg("--dir")
            .arg(self.dir.path())
            .arg("--logfile")
            .arg(self.log())
            .args(
                self.password
                    .iter()
                    .flat_map(|p| ["--requirepass", p.as_str()]),
            )
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| NotStarted::Silent(format!("spawn: {e}")))?;
        self.child = Some(child);
        let deadline = Instant::now() + START_WITHIN;
        // "Until the deadline has passed", said without a comparison operator:
        // `now < deadline` and `now <= deadline` differ only at one instant,
        // so a mutation tool's `<` → `<=` would be a mutant no test can kill.
        while deadline.checked_duration_since(Instant::now()).is_some() {
            if let Some(child) = self.child.as_mut() {
                if let Ok(Some(status)) = child.try_wait() {
                    self.child = None;
                    let log = std::fs::read_to_string(self.log()).unwrap_or_default();
                    return Err(NotStarted::Exited(format!(
                        "exited with {status}: {}",
                        log.trim()
                    )));
                }
            }
            if self.answers_ping() {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        self.kill();
        Err(NotStarted::Silent(format!(
            "no PONG within {START_WITHIN:?}"
        )))
    }

    /// Whether the server answers `PING` on its port (after `AUTH`, with a
    /// password). Built from the port and password, not from
    /// [`url`](Self::url): a wrong URL then fails the tests that use it at
    /// once, instead of looking like a server that never starts.
    fn answers_ping(&self) -> bool {
        redis::Client::open(("127.0.0.1", self.port))
            .and_then(|client| client.get_connection_with_timeout(Duration::from_secs(2)))
            .and_then(|mut c| {
                if let Some(password) = &self.password {
                    redis::cmd("AUTH").arg(password).exec(&mut c)?;
                }
                redis::cmd("PING").query::<String>(&mut c)
            })
            .is_ok()
    }
}

/// Why a spawned server is not up.
#[derive(Debug)]
enum NotStarted {
    /// It exited (its port was taken, say): another port may do.
    Exited(String),
    /// It could not be run, or ran without answering in time: another port
    /// would not help.
    Silent(String),
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Every byte but ASCII letters and digits as `%XX`.
fn percent_encoded(text: &str) -> String {
    text.bytes()
        .map(|b| match b.is_ascii_alphanumeric() {
            true => char::from(b).to_string(),
            false => format!("%{b:02X}"),
        })
        .collect()
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map_or(0, |addr| addr.port())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, reason = "test")]
mod tests {
    use super::*;

    /// A server that cannot start says why, from its own log: here its port
    /// is already taken, so `redis-server` exits at once.
    #[test]
    fn a_server_that_cannot_bind_its_port_reports_the_reason_from_its_log() {
        if !redis_available() {
            assert!(
                !required(),
                "{REQUIRE_REDIS} is set: redis-server is required"
            );
            return;
        }
        let taken = TcpListener::bind("127.0.0.1:0").unwrap();
        let mut server = RedisServer {
            port: taken.local_addr().unwrap().port(),
            dir: tempfile::tempdir().unwrap(),
            child: None,
            password: None,
        };
        let Err(NotStarted::Exited(why)) = server.spawn() else {
            panic!("redis-server started on a taken port, or did not exit");
        };
        assert!(why.starts_with("exited with "), "{why}");
        assert!(why.contains("Address already in use"), "{why}");
    }
}
