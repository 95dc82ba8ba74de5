//! `hook install` with a hostile neighbour (issue 36, items 2 and 3): another
//! local user who can write a shared project's `.claude/`, or who owns a
//! cloned repository; and root editing another user's file. Each case runs
//! the install as a real user through `setpriv` and then checks the victim's
//! home, the settings file's bytes, owner, group and mode.
//!
//! It needs root to switch users (CI runs as root): otherwise it fails when
//! `SANDBOX_ADVISOR_REQUIRE_TWO_USERS=1`, else prints a note and passes.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg(unix)]

mod two_users {
    #[allow(dead_code)]
    pub mod tree;
}

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt, chown, symlink};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use two_users::tree::snapshot;

const ATTACKER: u32 = 60111;
const VICTIM: u32 = 60112;
const ROOT: u32 = 0;
const REQUIRE: &str = "SANDBOX_ADVISOR_REQUIRE_TWO_USERS";
/// How many process ids ahead the attacker plants a link for.
const PLANTED: u32 = 3000;

/// The places of one case: a root-owned base (0755) holding the binary, the
/// victim's home (with `~/.bashrc` and `~/.claude/settings.json`), and a
/// `shared` directory anyone may write, like a team's checkout.
struct Place {
    _base: tempfile::TempDir,
    bin: PathBuf,
    vhome: PathBuf,
    shared: PathBuf,
}

impl Place {
    fn new() -> Self {
        let base = tempfile::tempdir().unwrap();
        let root = base.path().to_owned();
        fs::set_permissions(&root, fs::Permissions::from_mode(0o755)).unwrap();
        let bin = root.join("sandbox-advisor");
        fs::copy(env!("CARGO_BIN_EXE_sandbox-advisor"), &bin).unwrap();
        fs::set_permissions(&bin, fs::Permissions::from_mode(0o755)).unwrap();
        let vhome = root.join("victim");
        fs::create_dir_all(vhome.join(".claude")).unwrap();
        fs::write(vhome.join(".bashrc"), "# the victim's shell\n").unwrap();
        fs::write(
            vhome.join(".claude/settings.json"),
            "{\"model\": \"opus\"}\n",
        )
        .unwrap();
        own(&vhome, VICTIM);
        own(&vhome.join(".bashrc"), VICTIM);
        own(&vhome.join(".claude"), VICTIM);
        own(&vhome.join(".claude/settings.json"), VICTIM);
        let shared = root.join("shared");
        fs::create_dir(&shared).unwrap();
        fs::set_permissions(&shared, fs::Permissions::from_mode(0o1777)).unwrap();
        Self {
            bin,
            vhome,
            shared,
            _base: base,
        }
    }

    /// `hook install --client claude-code ARGS` as `uid` (root runs it
    /// directly), with the victim's home for the victim.
    fn install(&self, uid: u32, args: &[&str]) -> Output {
        let bin = self.bin.to_str().unwrap();
        let mut words = vec![
            bin,
            "hook",
            "install",
            "--client",
            "claude-code",
            "--bin",
            "/opt/sa/sandbox-advisor",
        ];
        words.extend(args);
        self.run(uid, &words)
    }

    fn run(&self, uid: u32, words: &[&str]) -> Output {
        let mut command = if uid == ROOT {
            Command::new(words[0])
        } else {
            let mut c = Command::new("setpriv");
            c.args([
                format!("--reuid={uid}"),
                format!("--regid={uid}"),
                "--clear-groups".into(),
            ])
            .arg(words[0]);
            c
        };
        command
            .args(&words[1..])
            .env_clear()
            .env("PATH", "/usr/bin:/bin")
            .env("HOME", &self.vhome)
            .output()
            .expect("setpriv (util-linux) runs")
    }
}

fn own(path: &Path, uid: u32) {
    std::os::unix::fs::lchown(path, Some(uid), Some(uid)).unwrap();
}

fn mkdir(path: &Path, uid: u32, mode: u32) {
    fs::create_dir_all(path).unwrap();
    chown(path, Some(uid), Some(uid)).unwrap();
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
}

fn write(path: &Path, text: &str, uid: u32, mode: u32) {
    fs::write(path, text).unwrap();
    chown(path, Some(uid), Some(uid)).unwrap();
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
}

/// (uid, gid, mode & 0o7777, nlink) of `path`, links not followed.
fn stat(path: &Path) -> (u32, u32, u32, u64) {
    let m = fs::symlink_metadata(path).unwrap();
    (m.uid(), m.gid(), m.mode() & 0o7777, m.nlink())
}

/// One case: prepares the places, runs the install, and says what went wrong.
struct Case {
    name: &'static str,
    run: fn(&Place) -> Vec<String>,
}

fn expect(failures: &mut Vec<String>, ok: bool, why: String) {
    if !ok {
        failures.push(why);
    }
}

fn said(out: &Output) -> String {
    format!(
        "exit {:?}, stdout {:?}, stderr {:?}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

const CASES: &[Case] = &[
    Case {
        name: "links planted for the next process ids in a shared .claude/",
        run: |p| {
            let project = p.shared.join("team");
            mkdir(&project, VICTIM, 0o755);
            mkdir(&project.join(".claude"), VICTIM, 0o777);
            let file = project.join(".claude/settings.json");
            write(&file, "{\"env\": {\"X\": \"1\"}}\n", VICTIM, 0o644);
            // As the attacker, in one process (each process would use up a
            // pid): a link to the victim's ~/.bashrc under every name an
            // install numbered by its process id might use next.
            let script = format!(
                "import os\nnext = int(open('/proc/sys/kernel/ns_last_pid').read())\n\
                 for i in range(next, next + {PLANTED} + 1):\n    \
                 os.symlink('{}', '{}/settings.json.sandbox-advisor-%d' % i)\n",
                p.vhome.join(".bashrc").display(),
                project.join(".claude").display(),
            );
            let planted = p.run(ATTACKER, &["/usr/bin/python3", "-c", &script]);
            assert!(planted.status.success(), "{}", said(&planted));
            let home = snapshot(&p.vhome);
            let out = p.install(VICTIM, &["--project", project.to_str().unwrap()]);
            let mut f = Vec::new();
            expect(&mut f, out.status.success(), said(&out));
            expect(
                &mut f,
                snapshot(&p.vhome) == home,
                "the victim's home changed".into(),
            );
            let text = fs::read_to_string(&file).unwrap_or_default();
            expect(
                &mut f,
                text.starts_with("{\"env\": {\"X\": \"1\"}, \"hooks\": {"),
                format!("settings: {text:?}"),
            );
            expect(
                &mut f,
                stat(&file) == (VICTIM, VICTIM, 0o644, 1),
                format!("settings: {:?}", stat(&file)),
            );
            let left = fs::read_dir(project.join(".claude")).unwrap().count();
            expect(
                &mut f,
                left == PLANTED as usize + 2,
                format!("{left} entries in .claude/"),
            );
            f
        },
    },
    Case {
        name: "a cloned repository whose .claude is a link to the victim's ~/.claude",
        run: |p| {
            let repo = p.shared.join("repo");
            mkdir(&repo, ATTACKER, 0o755);
            symlink(p.vhome.join(".claude"), repo.join(".claude")).unwrap();
            own(&repo.join(".claude"), ATTACKER);
            let home = snapshot(&p.vhome);
            let out = p.install(VICTIM, &["--project", repo.to_str().unwrap()]);
            let stderr = String::from_utf8_lossy(&out.stderr);
            let mut f = Vec::new();
            expect(&mut f, out.status.code() == Some(2), said(&out));
            expect(
                &mut f,
                stderr.contains("repo/.claude: it is a symbolic link to ")
                    && stderr.contains("nothing was changed"),
                format!("not refused by name: {stderr:?}"),
            );
            expect(
                &mut f,
                snapshot(&p.vhome) == home,
                "the victim's home changed".into(),
            );
            f
        },
    },
    Case {
        name: "a 0600 file holding a secret keeps its mode",
        run: |p| {
            let project = p.vhome.join("app");
            mkdir(&project.join(".claude"), VICTIM, 0o700);
            own(&project, VICTIM);
            let file = project.join(".claude/settings.json");
            write(
                &file,
                "{\"env\": {\"API_KEY\": \"sk-secret\"}}",
                VICTIM,
                0o600,
            );
            let out = p.install(VICTIM, &["--project", project.to_str().unwrap()]);
            let mut f = Vec::new();
            expect(&mut f, out.status.success(), said(&out));
            expect(
                &mut f,
                stat(&file) == (VICTIM, VICTIM, 0o600, 1),
                format!("{:?}", stat(&file)),
            );
            f
        },
    },
    Case {
        name: "root editing the victim's file keeps its owner, group and mode",
        run: |p| {
            let project = p.vhome.join("app");
            mkdir(&project.join(".claude"), VICTIM, 0o755);
            let file = project.join(".claude/settings.json");
            write(&file, "{}", VICTIM, 0o640);
            let out = p.install(ROOT, &["--project", project.to_str().unwrap()]);
            let mut f = Vec::new();
            expect(&mut f, out.status.success(), said(&out));
            expect(
                &mut f,
                stat(&file) == (VICTIM, VICTIM, 0o640, 1),
                format!("{:?}", stat(&file)),
            );
            f
        },
    },
    Case {
        name: "root creating the file in the victim's project gives it the victim",
        run: |p| {
            let project = p.vhome.join("new");
            mkdir(&project, VICTIM, 0o755);
            let out = p.install(ROOT, &["--project", project.to_str().unwrap()]);
            let mut f = Vec::new();
            expect(&mut f, out.status.success(), said(&out));
            for path in [
                project.join(".claude"),
                project.join(".claude/settings.json"),
            ] {
                let (uid, gid, ..) = stat(&path);
                expect(
                    &mut f,
                    (uid, gid) == (VICTIM, VICTIM),
                    format!("{}: {uid}:{gid}", path.display()),
                );
            }
            f
        },
    },
    Case {
        name: "a file another user owns is refused, not taken over",
        run: |p| {
            let project = p.vhome.join("app");
            mkdir(&project.join(".claude"), VICTIM, 0o755);
            let file = project.join(".claude/settings.json");
            write(&file, "{\"theirs\": true}", ATTACKER, 0o666);
            let out = p.install(VICTIM, &["--project", project.to_str().unwrap()]);
            let stderr = String::from_utf8_lossy(&out.stderr);
            let mut f = Vec::new();
            expect(&mut f, out.status.code() == Some(2), said(&out));
            expect(
                &mut f,
                stderr.contains(&format!("it belongs to uid {ATTACKER}")),
                format!("{stderr:?}"),
            );
            expect(
                &mut f,
                stat(&file) == (ATTACKER, ATTACKER, 0o666, 1),
                format!("{:?}", stat(&file)),
            );
            expect(
                &mut f,
                fs::read_to_string(&file).unwrap() == "{\"theirs\": true}",
                "changed".into(),
            );
            f
        },
    },
    Case {
        name: "a hard-linked file is refused and both names keep their text",
        run: |p| {
            let project = p.vhome.join("app");
            mkdir(&project.join(".claude"), VICTIM, 0o755);
            let file = project.join(".claude/settings.json");
            write(&file, "{}", VICTIM, 0o644);
            let other = p.vhome.join("settings-backup.json");
            fs::hard_link(&file, &other).unwrap();
            let out = p.install(VICTIM, &["--project", project.to_str().unwrap()]);
            let mut f = Vec::new();
            expect(&mut f, out.status.code() == Some(2), said(&out));
            expect(
                &mut f,
                String::from_utf8_lossy(&out.stderr).contains("it has 2 names"),
                said(&out),
            );
            expect(
                &mut f,
                stat(&file).3 == 2 && fs::read_to_string(&other).unwrap() == "{}",
                "split".into(),
            );
            f
        },
    },
];

#[test]
fn a_neighbour_or_root_cannot_make_hook_install_harm_or_change_what_it_does_not_edit() {
    if rustix_euid() != 0 {
        assert!(
            std::env::var_os(REQUIRE).is_none_or(|v| v != "1"),
            "{REQUIRE}=1 but this process is not root: the two-user test needs root to switch uids"
        );
        eprintln!(
            "note: not root; the hook install two-user test is skipped (set {REQUIRE}=1 to make this a failure)"
        );
        return;
    }
    let failed: Vec<String> = CASES
        .iter()
        .flat_map(|case| {
            (case.run)(&Place::new())
                .into_iter()
                .map(move |why| format!("{}: {why}", case.name))
        })
        .collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// The effective uid: a file this process creates is owned by it.
fn rustix_euid() -> u32 {
    tempfile::tempfile().unwrap().metadata().unwrap().uid()
}
