//! The commands of a `sh` block: split the way a shell would, then each one
//! run (`sandbox-advisor`, and programs this build made) or, where a run
//! would take minutes or install something, checked for every name it uses.

use std::path::{Path, PathBuf};

use super::sandbox::{Output, Sandbox, built};
use super::workspace::Workspace;

/// One simple command: its words, and where its stdin and stdout go.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Simple {
    /// `NAME=value` words before the program.
    pub env: Vec<(String, String)>,
    pub words: Vec<String>,
    pub input: Option<String>,
    pub output: Option<String>,
}

/// Splits one line of shell into words: single and double quotes, a `#`
/// comment after white space, and `<` / `>` redirections.
pub fn parse(line: &str) -> Result<Simple, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, '#') if !in_word => break,
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(format!("unclosed quote in `{line}`"));
    }
    if in_word {
        words.push(word);
    }
    let mut simple = Simple::default();
    let mut rest = words.into_iter();
    while let Some(w) = rest.next() {
        match w.as_str() {
            "<" => simple.input = Some(rest.next().ok_or("`<` names no file")?),
            ">" => simple.output = Some(rest.next().ok_or("`>` names no file")?),
            _ if simple.words.is_empty() && is_assignment(&w) => {
                let (k, v) = w.split_once('=').unwrap_or_default();
                simple.env.push((k.to_owned(), v.to_owned()));
            }
            _ => simple.words.push(w),
        }
    }
    Ok(simple)
}

fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(k, _)| {
        !k.is_empty()
            && k.chars()
                .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit())
    })
}

/// The simple commands of a block: continuation lines joined, comments
/// dropped, `&&` lists split.
pub fn commands(body: &str) -> Result<Vec<Simple>, String> {
    let joined = body.replace("\\\n", " ");
    let mut out = Vec::new();
    for line in joined.lines() {
        for part in line.split(" && ") {
            let simple = parse(part)?;
            if !simple.words.is_empty() || !simple.env.is_empty() {
                out.push(simple);
            }
        }
    }
    Ok(out)
}

/// What a block's commands share: the sandbox they run in, the directory a
/// `cd` moved to (relative to the repository), and shell variables set.
pub struct Session<'a> {
    pub root: &'a Path,
    pub ws: &'a Workspace,
    pub sandbox: Sandbox,
    pub cwd: PathBuf,
    pub vars: Vec<(String, String)>,
    /// Commands skipped because a service they need is missing (said once).
    pub skipped: Vec<String>,
    /// A command named in prose: a mention may leave out what a full command
    /// needs, and a `sandbox-advisor` one is parsed (`--help`), not run.
    pub mention: bool,
}

impl<'a> Session<'a> {
    pub fn new(root: &'a Path, ws: &'a Workspace) -> Self {
        Self {
            root,
            ws,
            sandbox: Sandbox::new(root),
            cwd: PathBuf::new(),
            vars: Vec::new(),
            skipped: Vec::new(),
            mention: false,
        }
    }

    /// Runs `sandbox-advisor ARGS` the way a reader would, from the root.
    pub fn advisor(&mut self, c: &Simple, args: &[String]) -> Result<Option<Output>, String> {
        let bin = Path::new(env!("CARGO_BIN_EXE_sandbox-advisor"));
        let out = self
            .sandbox
            .run(bin, args, c.input.as_deref(), c.output.as_deref())?;
        if out.is_none() {
            self.skipped.push(args.join(" "));
        }
        Ok(out)
    }

    /// Checks one simple command; `Err` says what is wrong with it.
    pub fn check(&mut self, c: &Simple) -> Result<(), String> {
        let Some(program) = c.words.first() else {
            // `B=…` on its own: a shell variable for the lines below.
            self.vars.extend(c.env.iter().cloned());
            return Ok(());
        };
        let args = &c.words[1..];
        match program.as_str() {
            "sandbox-advisor" => self.ran(c, args.to_vec()),
            "cargo" => self.cargo(c, args),
            "cd" => {
                let dir = self
                    .cwd
                    .join(args.first().ok_or("`cd` names no directory")?);
                if !self.root.join(&dir).is_dir() {
                    return Err(format!("`cd {}`: no such directory", dir.display()));
                }
                self.cwd = dir;
                Ok(())
            }
            "npm" => self.npm(args),
            "bash" => self.script(
                args.first().map(String::as_str).unwrap_or(""),
                &args[1.min(args.len())..],
            ),
            p if p.starts_with(".ci/") => self.script(p, args),
            "mkdir" | "rm" | "mv" => Ok(()),
            p if p.starts_with('$') => self.fuzz_binary(p),
            other => Err(format!(
                "no check runs `{other}`: add one to tests/docs/shell.rs"
            )),
        }
    }

    fn ran(&mut self, c: &Simple, mut args: Vec<String>) -> Result<(), String> {
        if self.mention {
            args.push("--help".into());
        }
        match self.advisor(c, &args)? {
            Some(out) if out.code != 0 => Err(format!(
                "`sandbox-advisor {}` exited {}: {}",
                args.join(" "),
                out.code,
                out.stderr
            )),
            _ => Ok(()),
        }
    }

    fn cargo(&mut self, c: &Simple, args: &[String]) -> Result<(), String> {
        let sub = args.first().map(String::as_str).unwrap_or("");
        let flags = Flags::new(&args[1.min(args.len())..]);
        match sub {
            "run" => {
                let package = flags
                    .value(&["-p", "--package"])
                    .ok_or("`cargo run` without -p")?;
                let pkg = self.ws.package(package)?;
                if let Some(example) = flags.value(&["--example"]) {
                    pkg.target("example", example)?;
                    if self.mention {
                        return Ok(());
                    }
                    return self.run_built("examples", example, flags.after_dashes());
                }
                let bin = pkg.only_bin()?;
                if bin == "sandbox-advisor" {
                    return self.ran(c, flags.after_dashes().to_vec());
                }
                self.run_built("", &bin, flags.after_dashes())
            }
            "test" | "bench" | "build" => {
                for package in flags.values(&["-p", "--package"]) {
                    let pkg = self.ws.package(package)?;
                    for (flag, kind) in [
                        ("--test", "test"),
                        ("--bench", "bench"),
                        ("--example", "example"),
                    ] {
                        if let Some(name) = flags.value(&[flag]) {
                            pkg.target(kind, name)?;
                        }
                    }
                    for feature in flags.values(&["--features", "-F"]) {
                        pkg.feature(feature)?;
                    }
                }
                Ok(())
            }
            "install" => match flags.value(&["--path"]) {
                Some(path) => self.ws.package_at(&self.root.join(path)).map(drop),
                None => self.ws.tool(
                    flags.first_positional().unwrap_or(""),
                    flags.value(&["--version"]),
                ),
            },
            // `cargo xtask …`: xtask's own test parses each (`docs_commands_parse`).
            "xtask" => Ok(()),
            "insta" => self.ws.tool("cargo-insta", None),
            "fuzz" => match flags.positional(1) {
                Some(target) => self.ws.fuzz_target(target),
                None if self.mention => Ok(()),
                None => Err("`cargo fuzz` names no target".into()),
            },
            // Run by CI as written (`.ci/run`).
            "fmt" | "clippy" => Ok(()),
            other => Err(format!("no check runs `cargo {other}`")),
        }
    }

    /// Runs a program `cargo test` built, when it did; else its name was checked.
    fn run_built(&mut self, dir: &str, name: &str, args: &[String]) -> Result<(), String> {
        let Some(exe) = built(dir, name) else {
            return Ok(());
        };
        let out = self
            .sandbox
            .run(&exe, args, None, None)?
            .ok_or("no output")?;
        if out.code != 0 {
            return Err(format!(
                "`{name} {}` exited {}: {}",
                args.join(" "),
                out.code,
                out.stderr
            ));
        }
        Ok(())
    }

    fn npm(&self, args: &[String]) -> Result<(), String> {
        let manifest = self.root.join(&self.cwd).join("package.json");
        let text = std::fs::read_to_string(&manifest)
            .map_err(|e| format!("{}: {e}", manifest.display()))?;
        let json: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
        let script = match args.first().map(String::as_str) {
            Some("ci") => {
                let lock = self.root.join(&self.cwd).join("package-lock.json");
                return lock
                    .is_file()
                    .then_some(())
                    .ok_or_else(|| format!("`npm ci` without {}", lock.display()));
            }
            Some("run") => args.get(1).map(String::as_str).unwrap_or(""),
            Some("test") => "test",
            other => return Err(format!("no check runs `npm {}`", other.unwrap_or(""))),
        };
        json["scripts"][script]
            .as_str()
            .map(drop)
            .ok_or_else(|| format!("{} has no script `{script}`", manifest.display()))
    }

    /// A script of the repository, run by CI (`.ci/run`) with an argument it handles.
    fn script(&self, path: &str, args: &[String]) -> Result<(), String> {
        let file = self.root.join(&self.cwd).join(path);
        let text = std::fs::read_to_string(&file).map_err(|e| format!("{path}: {e}"))?;
        let ci = std::fs::read_to_string(self.root.join(".ci/run")).unwrap_or_default();
        let name = Path::new(path)
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or(path);
        if !ci.contains(name) {
            return Err(format!("{path}: CI (.ci/run) never runs it"));
        }
        for arg in args {
            if !text.contains(arg.as_str()) {
                return Err(format!("{path} does not handle `{arg}`"));
            }
        }
        Ok(())
    }

    fn fuzz_binary(&self, word: &str) -> Result<(), String> {
        let (var, target) = word[1..]
            .split_once('/')
            .ok_or("a `$VAR/…` word without a file")?;
        if !self.vars.iter().any(|(k, _)| k == var) {
            return Err(format!("`${var}` is set by no line above"));
        }
        self.ws.fuzz_target(target)
    }
}

/// A cargo command's flags, read without knowing every flag cargo has.
struct Flags<'a>(&'a [String]);

impl<'a> Flags<'a> {
    fn new(args: &'a [String]) -> Self {
        Self(args)
    }

    fn before_dashes(&self) -> &'a [String] {
        let end = self
            .0
            .iter()
            .position(|a| a == "--")
            .unwrap_or(self.0.len());
        &self.0[..end]
    }

    fn after_dashes(&self) -> &'a [String] {
        self.0
            .iter()
            .position(|a| a == "--")
            .map_or(&[], |i| &self.0[i + 1..])
    }

    fn values(&self, names: &[&str]) -> Vec<&'a str> {
        let args = self.before_dashes();
        args.windows(2)
            .filter(|w| names.contains(&w[0].as_str()))
            .map(|w| w[1].as_str())
            .collect()
    }

    fn value(&self, names: &[&str]) -> Option<&'a str> {
        self.values(names).into_iter().next()
    }

    /// The `n`th word that is neither a flag nor a flag's value.
    fn positional(&self, n: usize) -> Option<&'a str> {
        let args = self.before_dashes();
        let mut found = Vec::new();
        let mut skip = false;
        for a in args {
            if skip {
                skip = false;
            } else if a.starts_with('-') {
                // `-s none`, `--path x`, `--version v`: these take a value.
                skip = matches!(
                    a.as_str(),
                    "-s" | "--sanitizer" | "--path" | "--version" | "-p" | "--package"
                );
            } else {
                found.push(a.as_str());
            }
        }
        found.get(n).copied()
    }

    fn first_positional(&self) -> Option<&'a str> {
        self.positional(0)
    }
}
