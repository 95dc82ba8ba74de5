//! One TCP connection to Redis, where every step has one deadline.
//!
//! A socket timeout bounds one `read` or `write`, not a reply: a server that
//! sends one byte every 100 ms never trips a 200 ms read timeout, and the
//! redis crate's own connection, which reads a reply through many `read`s,
//! held a hook that way until it was killed (issue 36: 20 s). Here a step —
//! resolving the host, connecting, or one command and its whole reply — gets
//! an [`Instant`] it must be done by, and every `read`, `write` and
//! `connect` of the step is given only what is left of it. The redis crate
//! still packs commands and parses replies ([`redis::Parser`]); this module
//! only moves the bytes.
//!
//! A reply is read to at most [`REPLY_MAX_BYTES`]; a longer one is a fault
//! and the connection is dropped (the store's replies are at most a budget
//! record, 4,643 bytes, or a 32-byte key: the scripts measure anything longer
//! with `STRLEN` and send only its length).

use std::io::{self, Read, Write};
use std::net::{IpAddr, SocketAddr, TcpStream, ToSocketAddrs};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use redis::{Parser, Value};

/// The most bytes one reply may take: several times the largest the store
/// asks for (a budget record of 4,643 bytes).
pub(crate) const REPLY_MAX_BYTES: usize = 64 * 1024;

/// Why a step failed, before the link classifies it.
#[derive(Debug)]
pub(crate) enum WireError {
    /// The step's deadline passed.
    Late,
    /// Refused, reset, closed, an unreadable reply, or an error reply.
    Redis(redis::RedisError),
}

impl From<io::Error> for WireError {
    fn from(error: io::Error) -> Self {
        match error.kind() {
            io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock => Self::Late,
            _ => Self::Redis(error.into()),
        }
    }
}

/// What is left until `deadline`; [`WireError::Late`] when nothing is.
fn left(deadline: Instant) -> Result<Duration, WireError> {
    match deadline.saturating_duration_since(Instant::now()) {
        left if left.is_zero() => Err(WireError::Late),
        left => Ok(left),
    }
}

/// A connection to one server.
pub(crate) struct Wire {
    stream: TcpStream,
    parser: Parser,
}

impl Wire {
    /// Resolves `host` and connects to the first address that answers, all
    /// by `deadline`. An address is used as it is; a name is resolved on a
    /// thread of its own, which is left to finish alone when the deadline
    /// passes first (the system's resolver has no timeout of ours).
    pub(crate) fn connect(host: &str, port: u16, deadline: Instant) -> Result<Self, WireError> {
        let addresses = match host.trim_matches(['[', ']']).parse::<IpAddr>() {
            Ok(ip) => vec![SocketAddr::new(ip, port)],
            Err(_) => resolve(host, port, deadline)?,
        };
        let mut last = None;
        for address in addresses {
            match TcpStream::connect_timeout(&address, left(deadline)?) {
                Ok(stream) => {
                    stream.set_nodelay(true)?;
                    return Ok(Self {
                        stream,
                        parser: Parser::new(),
                    });
                }
                Err(error) => last = Some(WireError::from(error)),
            }
        }
        Err(last.unwrap_or_else(|| {
            WireError::from(io::Error::new(
                io::ErrorKind::NotFound,
                "the host name resolved to no address",
            ))
        }))
    }

    /// Sends one packed command and reads its one reply, by `deadline`. An
    /// error reply is a [`WireError::Redis`].
    pub(crate) fn exchange(
        &mut self,
        packed: &[u8],
        deadline: Instant,
    ) -> Result<Value, WireError> {
        let mut rest = packed;
        while !rest.is_empty() {
            self.stream.set_write_timeout(Some(left(deadline)?))?;
            match self.stream.write(rest) {
                Ok(0) => return Err(io::Error::from(io::ErrorKind::WriteZero).into()),
                Ok(n) => rest = &rest[n..],
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e.into()),
            }
        }
        let reader = Until {
            stream: &mut self.stream,
            deadline,
            read: 0,
            late: false,
        };
        let mut reader = reader;
        let value = self.parser.parse_value(&mut reader);
        if reader.late {
            return Err(WireError::Late);
        }
        value
            .and_then(Value::extract_error)
            .map_err(WireError::Redis)
    }
}

/// The host's addresses, resolved on a thread so that the wait is bounded.
fn resolve(host: &str, port: u16, deadline: Instant) -> Result<Vec<SocketAddr>, WireError> {
    let (tx, rx) = mpsc::channel();
    let name = host.to_owned();
    std::thread::Builder::new()
        .name("redis-resolve".into())
        .spawn(move || {
            let _ = tx.send((name.as_str(), port).to_socket_addrs().map(Vec::from_iter));
        })?;
    match rx.recv_timeout(left(deadline)?) {
        Ok(addresses) => Ok(addresses?),
        Err(mpsc::RecvTimeoutError::Timeout) => Err(WireError::Late),
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            Err(io::Error::other("the resolver thread ended without an answer").into())
        }
    }
}

/// The stream as the parser reads it: each `read` given what is left until
/// the deadline, and the reply cut at [`REPLY_MAX_BYTES`].
struct Until<'a> {
    stream: &'a mut TcpStream,
    deadline: Instant,
    read: usize,
    /// Set when a read found the deadline passed (the parser's own error
    /// then says only "I/O error").
    late: bool,
}

impl Read for Until<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        // What is left is both the check and the read's timeout: a read
        // never waits past the deadline, and none starts after it.
        let Ok(left) = left(self.deadline) else {
            self.late = true;
            return Err(io::ErrorKind::TimedOut.into());
        };
        let room = REPLY_MAX_BYTES - self.read;
        if room == 0 {
            return Err(io::Error::other(format!(
                "a reply longer than {REPLY_MAX_BYTES} bytes"
            )));
        }
        self.stream.set_read_timeout(Some(left))?;
        let cap = buf.len().min(room);
        match self.stream.read(&mut buf[..cap]) {
            Ok(n) => {
                self.read += n;
                Ok(n)
            }
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock
                ) =>
            {
                self.late = true;
                Err(e)
            }
            Err(e) => Err(e),
        }
    }
}
