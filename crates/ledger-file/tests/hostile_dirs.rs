//! A state directory the store cannot trust: a link, writable by others,
//! owned by another user, or in a parent another user can rename it in. It
//! is refused when opened, and again before a collection lists or removes
//! anything; a collection never follows a link out of `v1`.
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::fs;
use std::os::unix::fs::{PermissionsExt, chown, symlink};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use advisor_core::LedgerStore;
use ledger_file::{Collected, FileLimits, FileStore};
use support::hostile::{is_root, precious, snapshot};
use support::{agent, slot, store};

/// An unprivileged uid that is not ours (used only when root can chown).
const OTHER_UID: u32 = 60101;

/// The directories of the chain, relative to the state directory.
const CHAIN: [&str; 4] = ["", "v1", "v1/agents", "v1/trash"];

/// What is wrong with one directory of the chain.
#[derive(Debug, Clone, Copy)]
enum Wrong {
    /// It is a link to the victim's home.
    Link,
    /// Its mode.
    Mode(u32),
    /// Another uid owns it (root only).
    Owner,
}

impl Wrong {
    const ALL: [Wrong; 5] = [
        Wrong::Link,
        Wrong::Mode(0o770),
        Wrong::Mode(0o777),
        Wrong::Mode(0o702),
        Wrong::Owner,
    ];

    /// Words the refusal must carry.
    fn words(self) -> String {
        match self {
            Wrong::Link => "symbolic link".to_owned(),
            Wrong::Mode(mode) => format!("mode {mode:04o}"),
            Wrong::Owner => format!("owned by uid {OTHER_UID}"),
        }
    }

    /// Makes `dir` wrong; false when it cannot be done here.
    fn apply(self, dir: &Path, home: &Path) -> bool {
        match self {
            Wrong::Link => {
                fs::rename(dir, dir.with_extension("was")).unwrap();
                symlink(home, dir).unwrap();
            }
            Wrong::Mode(mode) => {
                fs::set_permissions(dir, fs::Permissions::from_mode(mode)).unwrap()
            }
            Wrong::Owner if !is_root() => return false,
            Wrong::Owner => chown(dir, Some(OTHER_UID), Some(OTHER_UID)).unwrap(),
        }
        true
    }
}

/// A store whose agents are due for collection once a day old. Not less:
/// `claim` collects inline on a fresh store, and an agent claimed more than
/// `max_age` before that collection is gone before the test can date it back
/// (a 1 ms bound lost the agent under load: "NotFound" opening its stamp).
fn limits() -> FileLimits {
    FileLimits {
        max_age: Duration::from_secs(24 * 3600),
        ..FileLimits::default()
    }
}

/// Makes `wrong` of the chain's `at` after a store was opened: a new open
/// is refused, and so is the open store's collection, both naming the path
/// and the problem, and the victim's home is unchanged. False when the case
/// cannot be made here.
fn check(at: &str, wrong: Wrong) -> bool {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    fs::create_dir(&home).unwrap();
    precious(&home);
    let state = tmp.path().join("state");
    let opened = store(&state);
    opened.claim(&agent("a"), &slot()).unwrap();
    std::thread::sleep(Duration::from_millis(5));
    let dir = if at.is_empty() {
        state.clone()
    } else {
        state.join(at)
    };
    let before = snapshot(&home);
    if !wrong.apply(&dir, &home) {
        return false;
    }
    let what = format!("{at:?} {wrong:?}");
    let started = Instant::now();
    let refusals = [
        FileStore::open(&state, limits()).map(drop),
        opened.collect_garbage().map(drop),
    ];
    assert!(started.elapsed() < Duration::from_millis(100), "{what}");
    for refused in refusals {
        let fault = refused.expect_err(&what).to_string();
        let path = dir.display().to_string();
        assert!(fault.contains(&path), "{what}: {fault}");
        assert!(fault.contains(&wrong.words()), "{what}: {fault}");
        assert!(
            fault.contains("--state-dir"),
            "{what}: names the fix: {fault}"
        );
    }
    assert_eq!(snapshot(&home), before, "{what}: the home changed");
    true
}

#[test]
fn a_chain_directory_that_is_a_link_writable_by_others_or_not_ours_is_refused() {
    let mut skipped = Vec::new();
    for at in CHAIN {
        for wrong in Wrong::ALL {
            if !check(at, wrong) {
                skipped.push(format!("{at:?} {wrong:?}"));
            }
        }
    }
    if !skipped.is_empty() {
        assert!(!is_root());
        eprintln!("note: not root, so nothing could be chowned; not checked: {skipped:?}");
    }
}

/// The state directory's parent: another user must not be able to rename
/// the state directory away and put their own in its place.
#[test]
fn a_state_directory_another_user_could_replace_is_refused() {
    // (parent mode, parent owned by another uid, accepted)
    let cases = [
        (0o755, false, true),
        (0o1777, false, true),
        (0o777, false, false),
        (0o775, false, false),
        (0o755, true, false),
    ];
    for (mode, other, accepted) in cases {
        if other && !is_root() {
            eprintln!("note: not root; a parent owned by another uid is not checked");
            continue;
        }
        let tmp = tempfile::tempdir().unwrap();
        let parent = tmp.path().join("parent");
        fs::create_dir(&parent).unwrap();
        fs::set_permissions(&parent, fs::Permissions::from_mode(mode)).unwrap();
        if other {
            chown(&parent, Some(OTHER_UID), Some(OTHER_UID)).unwrap();
        }
        let state = parent.join("state");
        let opened = FileStore::open(&state, FileLimits::default());
        let what = format!("parent {mode:o}, other owner: {other}");
        assert_eq!(opened.is_ok(), accepted, "{what}: {opened:?}");
        if let Err(fault) = opened {
            let shown = format!("mode {:04o}", mode & 0o7777);
            assert!(fault.what.contains("its parent"), "{what}: {fault}");
            assert!(fault.what.contains(&shown), "{what}: {fault}");
            assert!(fault.what.contains(&state.display().to_string()), "{what}");
        }
    }
}

/// Links inside `agents/` and `trash/` are never followed by a collection:
/// a link among the agents is neither an agent nor removed; a link in the
/// trash is unlinked itself; a directory in the trash that is not ours
/// (root only) is left alone.
#[test]
fn a_collection_never_follows_a_link_out_of_v1() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    fs::create_dir(&home).unwrap();
    precious(&home);
    let store = support::store_at(&tmp.path().join("state"), limits());
    store.claim(&agent("a"), &slot()).unwrap();
    let old = SystemTime::now() - Duration::from_secs(30 * 24 * 3600);
    let stamp = store.agent_dir(&agent("a")).join("touched");
    fs::File::options()
        .write(true)
        .create(true)
        .truncate(false)
        .open(&stamp)
        .unwrap()
        .set_modified(old)
        .unwrap();
    let agents = store.root().join("agents");
    let trash = store.root().join("trash");
    let planted: Vec<PathBuf> = vec![
        agents.join("00000000000000000000000000000000"),
        trash.join("to-home"),
        trash.join("to-file"),
    ];
    symlink(&home, &planted[0]).unwrap();
    symlink(&home, &planted[1]).unwrap();
    symlink(home.join("notes.txt"), &planted[2]).unwrap();
    let foreign = trash.join("foreign");
    fs::create_dir(&foreign).unwrap();
    if is_root() {
        chown(&foreign, Some(OTHER_UID), Some(OTHER_UID)).unwrap();
    }
    let before = snapshot(&home);

    let done = store.collect_garbage().unwrap().unwrap();

    let expected = Collected {
        by_age: 1,
        by_count: 0,
        skipped: 0,
        kept: 0,
    };
    assert_eq!(done, expected, "the link among the agents is not an agent");
    assert_eq!(snapshot(&home), before, "the home changed");
    assert!(
        fs::symlink_metadata(&planted[0]).is_ok(),
        "left among the agents"
    );
    for link in &planted[1..] {
        assert!(
            fs::symlink_metadata(link).is_err(),
            "{}: unlinked",
            link.display()
        );
    }
    assert_eq!(foreign.exists(), is_root(), "a directory not ours stays");
}

/// An agent's directory that is a link (only this user could make one, in
/// a chain that is ours; still) is refused before anything in it is opened.
#[test]
fn an_agent_directory_that_is_a_link_is_refused() {
    type Op = fn(&FileStore) -> Result<(), advisor_core::StoreFault>;
    let ops: [(&str, Op); 3] = [
        ("claim", |s| s.claim(&agent("a"), &slot()).map(drop)),
        ("edit", |s| {
            s.edit_budget(&agent("a"), &mut support::increment)
        }),
        ("forget", |s| s.forget(&agent("a"))),
    ];
    for (name, op) in ops {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        fs::create_dir(&home).unwrap();
        precious(&home);
        fs::write(home.join("budget.v2"), "not a record").unwrap();
        let store = store(&tmp.path().join("state"));
        let dir = store.agent_dir(&agent("a"));
        symlink(&home, &dir).unwrap();
        let before = snapshot(&home);
        let fault = op(&store).expect_err(name).to_string();
        assert!(
            fault.contains(&dir.display().to_string()),
            "{name}: {fault}"
        );
        assert!(fault.contains("symbolic link"), "{name}: {fault}");
        assert_eq!(snapshot(&home), before, "{name}: the home changed");
    }
}
