//! Issue 36 item 8: a server that answers one byte every 100 ms never trips
//! a socket's read timeout (each read gets a byte in time), and held a hook
//! until it was killed (20 s). Every step of the conversation now has one
//! deadline; these tests hold the store to it against a small server of
//! their own that drips its replies, so they need no `redis-server`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use advisor_core::{AgentId, Edit, FamilyId, LedgerStore, Seat, Slot};
use ledger_redis::{AfterTimeout, RedisOptions, RedisStore};

/// How long the drip goes on before it gives up (a store that does not
/// respect its deadline waits this long, and the test then fails).
const DRIP_FOR: Duration = Duration::from_secs(10);

/// Slack for a loaded machine on top of a bound: this is a correctness
/// bound (the store gives up by its deadline, not when the server stops),
/// not a speed measurement.
const SLACK: Duration = Duration::from_millis(800);

/// A loopback server that reads whatever a client sends and answers every
/// connection with a bulk string of 100,000 bytes: its header and then one
/// byte every 100 ms, for [`DRIP_FOR`] (or, `flood`, all at once). Stops
/// when dropped.
struct Drip {
    port: u16,
    stop: Arc<AtomicBool>,
}

impl Drip {
    fn start() -> Self {
        Self::serving(drip)
    }

    fn flood() -> Self {
        Self::serving(|mut client, _| {
            let mut command = [0u8; 4096];
            if matches!(client.read(&mut command), Ok(1..)) {
                let mut reply = b"$100000\r\n".to_vec();
                reply.resize(reply.len() + 100_000, b'x');
                reply.extend_from_slice(b"\r\n");
                let _ = client.write_all(&reply);
            }
        })
    }

    fn serving(answer: fn(TcpStream, &AtomicBool)) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let stop = Arc::new(AtomicBool::new(false));
        let stopping = stop.clone();
        std::thread::spawn(move || {
            for client in listener.incoming().flatten() {
                if stopping.load(Ordering::SeqCst) {
                    break;
                }
                let stopping = stopping.clone();
                std::thread::spawn(move || answer(client, &stopping));
            }
        });
        Self { port, stop }
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/0", self.port)
    }
}

impl Drop for Drip {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wakes the accept loop so that it sees the flag.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

fn drip(mut client: TcpStream, stop: &AtomicBool) {
    let mut command = [0u8; 4096];
    if !matches!(client.read(&mut command), Ok(1..)) {
        return;
    }
    let begun = Instant::now();
    let reply = b"$100000\r\n".iter().chain(std::iter::repeat(&b'x'));
    for byte in reply {
        if stop.load(Ordering::SeqCst) || begun.elapsed() > DRIP_FOR {
            return;
        }
        if client.write_all(&[*byte]).is_err() {
            return;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn slot() -> Slot {
    Slot::advisory(FamilyId::new("acl"), Seat::Failure)
}

/// Each operation of a store on the dripping server, timed: (what, took, fault).
fn each_operation(store: &RedisStore) -> Vec<(&'static str, Duration, String)> {
    let a1 = AgentId::new("a1");
    let timed = |what, op: &dyn Fn() -> Result<(), advisor_core::StoreFault>| {
        let begun = Instant::now();
        let fault = op().expect_err(what).to_string();
        (what, begun.elapsed(), fault)
    };
    vec![
        timed("claim", &|| store.claim(&a1, &slot()).map(drop)),
        timed("budget", &|| store.edit_budget(&a1, &mut |_| Edit::Changed)),
        timed("forget", &|| store.forget(&a1)),
        timed("digest key", &|| store.digest_key().map(drop)),
    ]
}

/// A store that reconnects (`serve`): each request is a fault within its
/// 200 ms timeout, however long the server keeps dripping.
#[test]
fn a_dripping_reply_is_a_fault_within_the_request_timeout() {
    let server = Drip::start();
    let timeout = Duration::from_millis(200);
    let options = RedisOptions {
        timeout,
        ..RedisOptions::default()
    };
    let store = RedisStore::connect(&server.url(), options).unwrap();
    for (what, took, fault) in each_operation(&store) {
        eprintln!("dripping server, {what}: {took:?}: {fault}");
        assert!(took < timeout + SLACK, "{what} took {took:?}: {fault}");
        assert!(fault.contains("no answer within 200 ms"), "{what}: {fault}");
    }
}

/// A one-shot store (a hook's: a 250 ms conversation, no second connection)
/// is done within its deadline, the drip notwithstanding: the first
/// operation times out, every later one is a fault at once.
#[test]
fn a_dripping_reply_costs_a_one_shot_store_at_most_its_deadline() {
    let server = Drip::start();
    let deadline = Duration::from_millis(250);
    let options = RedisOptions {
        timeout: Duration::from_secs(2),
        conversation: Some(deadline),
        after_timeout: AfterTimeout::GiveUp,
        ..RedisOptions::default()
    };
    let store = RedisStore::connect(&server.url(), options).unwrap();
    let begun = Instant::now();
    let faults = each_operation(&store);
    let took = begun.elapsed();
    eprintln!("dripping server, one-shot store: {took:?}: {faults:?}");
    assert!(took < deadline + SLACK, "{took:?}: {faults:?}");
    assert!(
        faults[0]
            .2
            .contains("250 ms allowed for talking to Redis are spent"),
        "{faults:?}"
    );
    assert_eq!(store.connects(), 1);
}

/// A reply longer than any the store asks for is cut at 64 KiB: a fault that
/// says so, never a buffer as long as the server likes.
#[test]
fn a_reply_longer_than_its_bound_is_a_fault() {
    let server = Drip::flood();
    let store = RedisStore::connect(&server.url(), RedisOptions::default()).unwrap();
    let fault = store
        .claim(&AgentId::new("a1"), &slot())
        .unwrap_err()
        .to_string();
    assert!(fault.contains("a reply longer than 65536 bytes"), "{fault}");
}
