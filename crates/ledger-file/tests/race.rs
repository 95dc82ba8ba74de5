//! Racing processes and threads over one directory: exactly one first
//! claim, no lost budget edit, one digest key. Each race runs 32 threads of
//! this process and child processes (this test binary again, in a role).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use advisor_core::{Claim, LedgerStore};
use ledger_file::{FileLimits, FileStore};
use support::*;

const THREADS: usize = 32;
const CHILDREN: usize = 8;

/// The races show that nothing is lost and exactly one is first, not how
/// fast: every racer waits for the budget lock as long as a slow machine
/// needs. (Under wine every file call is a round trip to one server process,
/// and 40 racers for one lock waited past the default 2 s on a loaded
/// machine; `lifecycle.rs` holds a wait to its limit.)
fn patient() -> FileLimits {
    FileLimits {
        lock_wait: Duration::from_secs(120),
        ..FileLimits::default()
    }
}

/// The child side of every race: inert unless [`ROLE`] is set.
#[test]
fn child() {
    let Ok(role) = std::env::var(ROLE) else {
        return;
    };
    let (dir, start) = (var("LEDGER_FILE_DIR"), var("LEDGER_FILE_START"));
    let rounds: usize = var("LEDGER_FILE_ROUNDS").parse().unwrap();
    let store = FileStore::open(&dir, patient()).unwrap();
    if role != "key" {
        store.adopt_digest_key().unwrap();
    }
    let start = Path::new(&start);
    fs::write(start.join(format!("ready.{}", std::process::id())), "").unwrap();
    for round in 0..rounds {
        assert!(wait_for(&Start::go_file(start, round)), "no start");
        let answer = match role.as_str() {
            "claim" => format!("{:?}", store.claim(&agent(format!("a{round}")), &slot())),
            "budget" => format!("{:?}", store.edit_budget(&agent("a"), &mut increment)),
            "key" => format!("{:?}", store.digest_key().map(|key| key.to_hex())),
            other => panic!("unknown role {other}"),
        };
        println!("{ANSWER} {round} {answer}");
    }
}

/// Starts `CHILDREN` children in `role` and waits until they are ready.
fn children(role: &str, dir: &Path, start: &Start, rounds: usize) -> Vec<std::process::Child> {
    let vars = [
        ("LEDGER_FILE_DIR", dir.display().to_string()),
        ("LEDGER_FILE_START", start.dir().display().to_string()),
        ("LEDGER_FILE_ROUNDS", rounds.to_string()),
    ];
    let spawned: Vec<_> = (0..CHILDREN).map(|_| spawn_child(role, &vars)).collect();
    start.await_ready(spawned.len());
    spawned
}

/// Runs `rounds` rounds: in each, `THREADS` threads run `work(round)` with
/// the children, all released together. Returns every answer by round.
fn race(
    role: &str,
    dir: &Path,
    rounds: usize,
    work: impl Fn(usize) -> String + Send + Sync + 'static,
) -> Vec<Vec<String>> {
    let start = Start::new(&dir.with_extension("start"));
    let spawned = children(role, dir, &start, rounds);
    let work = Arc::new(work);
    let mut answers = vec![Vec::new(); rounds];
    for (round, answers) in answers.iter_mut().enumerate() {
        let go = Start::go_file(start.dir(), round);
        let threads: Vec<_> = (0..THREADS)
            .map(|_| {
                let (work, go) = (work.clone(), go.clone());
                thread::spawn(move || {
                    assert!(wait_for(&go));
                    work(round)
                })
            })
            .collect();
        thread::sleep(Duration::from_millis(5));
        start.go(round);
        answers.extend(threads.into_iter().map(|t| t.join().unwrap()));
    }
    for child in spawned {
        for line in self::answers(child) {
            let (round, answer) = line.split_once(' ').unwrap();
            answers[round.parse::<usize>().unwrap()].push(answer.to_owned());
        }
    }
    answers
}

#[test]
fn of_racing_claims_across_threads_and_processes_exactly_one_is_first() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("state");
    let store = Arc::new(store(&dir));
    let rounds = 20;
    let answers = race("claim", &dir, rounds, move |round| {
        format!("{:?}", store.claim(&agent(format!("a{round}")), &slot()))
    });
    for (round, answers) in answers.iter().enumerate() {
        assert_eq!(answers.len(), THREADS + CHILDREN, "round {round}");
        let first = format!("{:?}", Ok::<_, ()>(Claim::First));
        let again = format!("{:?}", Ok::<_, ()>(Claim::Again));
        let firsts = answers.iter().filter(|a| **a == first).count();
        let agains = answers.iter().filter(|a| **a == again).count();
        assert_eq!(
            (firsts, agains),
            (1, THREADS + CHILDREN - 1),
            "round {round}: {answers:?}"
        );
    }
}

#[test]
fn budget_edits_from_threads_and_processes_are_never_lost() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("state");
    let store = Arc::new(store_at(&dir, patient()));
    let rounds = 15;
    let edits = {
        let store = store.clone();
        race("budget", &dir, rounds, move |_| {
            format!("{:?}", store.edit_budget(&agent("a"), &mut increment))
        })
    };
    let all: Vec<&String> = edits.iter().flatten().collect();
    assert!(all.iter().all(|a| *a == "Ok(())"), "{all:?}");
    assert_eq!(all.len(), rounds * (THREADS + CHILDREN));
    assert_eq!(failures(store.as_ref(), &agent("a")) as usize, all.len());
}

#[test]
fn racing_openers_all_end_with_the_same_digest_key() {
    for round in 0..3 {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("state");
        // No key yet: the race creates it. This process does not adopt it.
        let store = Arc::new(FileStore::open(&dir, FileLimits::default()).unwrap());
        let keys = race("key", &dir, 1, move |_| {
            format!("{:?}", store.digest_key().map(|key| key.to_hex()))
        });
        let keys: BTreeSet<&String> = keys.iter().flatten().collect();
        assert_eq!(keys.len(), 1, "round {round}: {keys:?}");
        let file = fs::read_to_string(dir.join("v1/key")).unwrap();
        assert_eq!(format!("Ok({:?})", file.trim()), **keys.first().unwrap());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(dir.join("v1/key"))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600, "the key is a secret");
        }
    }
}
