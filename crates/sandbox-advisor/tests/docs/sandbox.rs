//! Where a documented `sandbox-advisor` command runs: a fresh directory that
//! looks like the repository's root to a reader's relative paths, with a home,
//! state and client directories of its own, so nothing a command writes lands
//! in the repository or in the home of whoever runs the tests.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use ledger_redis::testing::RedisServer;

/// The repository's directories a documented command may read.
const LINKED: &[&str] = &["examples", "scan-fixtures", "docs", "crates", "bindings"];

/// What one documented command printed.
pub struct Output {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// A fresh working directory, its private home, and the Redis servers its
/// commands were given.
pub struct Sandbox {
    dir: tempfile::TempDir,
    redis: Vec<RedisServer>,
}

impl Sandbox {
    /// A sandbox whose relative paths reach the repository at `root`.
    pub fn new(root: &Path) -> Self {
        let dir = tempfile::tempdir().unwrap();
        for name in LINKED {
            std::os::unix::fs::symlink(root.join(name), dir.path().join(name)).unwrap();
        }
        for sub in ["target", "home", "state", "codex"] {
            std::fs::create_dir(dir.path().join(sub)).unwrap();
        }
        Self {
            dir,
            redis: Vec::new(),
        }
    }

    /// The working directory.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Writes `content` to `name` in the working directory (a `with` clause).
    pub fn write(&self, name: &str, content: &str) -> Result<(), String> {
        if name.contains('/') || name.starts_with('.') {
            return Err(format!("`with {name}`: a plain file name only"));
        }
        std::fs::write(self.path().join(name), content).map_err(|e| format!("{name}: {e}"))
    }

    /// Runs `program` with `args`, stdin from `input` (a path relative to the
    /// working directory) or empty. A `redis://` argument is pointed at a real
    /// `redis-server` started for it; `None` when none can be started and the
    /// run does not require one (the test then says it skipped the command).
    pub fn run(
        &mut self,
        program: &Path,
        args: &[String],
        input: Option<&str>,
        output: Option<&str>,
    ) -> Result<Option<Output>, String> {
        let mut args = args.to_vec();
        for arg in &mut args {
            if arg.starts_with("redis://") {
                let Some(server) = RedisServer::start() else {
                    return Ok(None);
                };
                *arg = server.url();
                self.redis.push(server);
            }
        }
        let stdin = match input {
            Some(file) => {
                std::fs::read(self.path().join(file)).map_err(|e| format!("< {file}: {e}"))?
            }
            None => Vec::new(),
        };
        let home = self.path().join("home");
        let mut child = Command::new(program)
            .args(&args)
            .current_dir(self.path())
            .env("HOME", &home)
            .env("XDG_STATE_HOME", self.path().join("state"))
            .env("XDG_CONFIG_HOME", home.join(".config"))
            .env("CODEX_HOME", self.path().join("codex"))
            .env_remove("SANDBOX_ADVISOR_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("{}: {e}", program.display()))?;
        let mut pipe = child.stdin.take().unwrap();
        let writer = std::thread::spawn(move || {
            let _ = pipe.write_all(&stdin);
        });
        let out = child.wait_with_output().map_err(|e| e.to_string())?;
        writer.join().unwrap();
        if let Some(file) = output {
            std::fs::write(self.path().join(file), &out.stdout)
                .map_err(|e| format!("> {file}: {e}"))?;
        }
        Ok(Some(Output {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }))
    }
}

/// The build's own executable `name` (`target/debug/<name>`, or
/// `target/debug/examples/<name>`), when `cargo test` built it.
pub fn built(dir: &str, name: &str) -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    // target/debug/deps/docs-<hash> → target/debug
    let profile = exe.parent()?.parent()?;
    let path = if dir.is_empty() {
        profile.join(name)
    } else {
        profile.join(dir).join(name)
    };
    path.is_file().then_some(path)
}
