//! Arms already caught on these very sources (`target/inject/caught.json`).
//!
//! An arm's verdict is a function of what its tests are built from and read,
//! so an arm CAUGHT once need not run again while none of that changed. Its
//! key is a 128-bit SipHash (fixed keys) of:
//! - this format's version, `rustc -vV`, the user id, and every
//!   `SANDBOX_ADVISOR_*` variable (tests skip or insist on Redis and a
//!   second user by them);
//! - the arm as catalogued: id, package, packages, file, find, replace, tests;
//! - every file of the workspace outside `crates/`: the manifests and
//!   `Cargo.lock`, `.cargo/`, `docs/` (the recorded payloads tests read),
//!   `scan-fixtures/`, `examples/`, `xtask/` (this runner and its verdicts),
//!   `.ci/`, the plugins, the clients' lockfiles, the fuzz corpus;
//! - every file of each package under `crates/` in the dependency closure of
//!   the packages whose tests the arm runs, the mutated one included.
//!
//! Skipped at any depth: `target/`, `.git/`, `node_modules/`. A link is
//! hashed as its target's path, never followed.
//!
//! What the key leaves out is a package under `crates/` that the arm's tests
//! do not build: a test that reads another crate's files as data would not
//! see them change (none named by an arm does). Only CAUGHT is remembered: a
//! SILENT or BROKEN arm, or one whose key is new, runs. `--fresh` runs every
//! arm and records anew. The file is written only when the tree was restored.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::hash::Hasher;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use siphasher::sip128::{Hasher128, SipHasher13};

use crate::catalogue::Entry;
use crate::report::{EntryResult, Status};
use crate::targets::{self, Workspace};

/// The cache's file name in inject's state directory.
pub(super) const FILE: &str = "caught.json";

/// Bumped when the key's inputs change.
const VERSION: &str = "inject-cache 1";

/// The largest cache file read (about 950 arms take 200 KB).
const FILE_MAX_BYTES: u64 = 16 << 20;

/// Names never hashed, at any depth.
const SKIPPED: [&str; 3] = ["target", ".git", "node_modules"];

/// What is remembered of an arm that was CAUGHT.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(super) struct Caught {
    /// The key it was caught under.
    pub key: String,
    /// The named tests that failed.
    pub failed: Vec<String>,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct Stored {
    version: String,
    arms: BTreeMap<String, Caught>,
}

/// The remembered arms by id; empty (with a line saying why) when the file
/// is missing, too large, unreadable or of another version.
pub(super) fn load(path: &Path) -> BTreeMap<String, Caught> {
    match read(path) {
        Ok(Some(stored)) if stored.version == VERSION => stored.arms,
        Ok(Some(_)) => {
            eprintln!(
                "xtask inject: {} is of another version; every arm runs",
                path.display()
            );
            BTreeMap::new()
        }
        Ok(None) => BTreeMap::new(),
        Err(e) => {
            eprintln!("xtask inject: {e:#}; every arm runs");
            BTreeMap::new()
        }
    }
}

fn read(path: &Path) -> Result<Option<Stored>> {
    let file = match fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("opening {}", path.display())),
    };
    let mut text = String::new();
    file.take(FILE_MAX_BYTES + 1)
        .read_to_string(&mut text)
        .with_context(|| format!("reading {}", path.display()))?;
    if text.len() as u64 > FILE_MAX_BYTES {
        bail!("{} is over {FILE_MAX_BYTES} bytes", path.display());
    }
    serde_json::from_str(&text)
        .map(Some)
        .with_context(|| format!("parsing {}", path.display()))
}

/// Writes `arms` to `path` (a temporary file renamed over it).
pub(super) fn save(path: &Path, arms: &BTreeMap<String, Caught>) -> Result<()> {
    let stored = Stored {
        version: VERSION.to_owned(),
        arms: arms.clone(),
    };
    let temporary = path.with_extension("json.new");
    fs::write(&temporary, serde_json::to_vec_pretty(&stored)?)
        .with_context(|| format!("writing {}", temporary.display()))?;
    fs::rename(&temporary, path).with_context(|| format!("replacing {}", path.display()))
}

/// The result an arm remembered under `key` stands for.
pub(super) fn result(entry: &Entry, caught: &Caught) -> EntryResult {
    EntryResult {
        id: entry.id.clone(),
        package: entry.package.clone(),
        packages: entry.packages.clone(),
        file: entry.file.clone(),
        status: Status::Caught,
        failed: caught.failed.clone(),
        silent: Vec::new(),
        detail: "caught before on these same sources".to_owned(),
        seconds: 0.0,
        log: None,
        cached: true,
    }
}

/// Each entry's key by id, from the sources under `root` now.
pub(super) fn keys(
    root: &Path,
    workspace: &Workspace,
    entries: &[&Entry],
) -> Result<BTreeMap<String, String>> {
    let crates = root.join("crates");
    let package_dirs: BTreeMap<&str, PathBuf> = workspace
        .iter()
        .map(|(name, p)| (name.as_str(), absolute(root, &p.dir)))
        .filter(|(_, dir)| dir.starts_with(&crates) && *dir != crates)
        .collect();
    let skipped_dirs: BTreeSet<&Path> = package_dirs.values().map(PathBuf::as_path).collect();
    let mut context = Sip::new();
    context.text(VERSION);
    context.text(&toolchain()?);
    context.text(&uid());
    let mut vars: Vec<(String, String)> = std::env::vars_os()
        .filter_map(|(k, v)| Some((k.into_string().ok()?, v.to_string_lossy().into_owned())))
        .filter(|(k, _)| k.starts_with("SANDBOX_ADVISOR_"))
        .collect();
    vars.sort();
    for (k, v) in &vars {
        context.text(k);
        context.text(v);
    }
    tree(root, root, &skipped_dirs, &mut context)?;
    let context = context.hex();

    let mut digests: BTreeMap<&str, String> = BTreeMap::new();
    let mut keys = BTreeMap::new();
    for entry in entries {
        let wanted = entry
            .packages
            .iter()
            .map(String::as_str)
            .chain([entry.package.as_str()]);
        let mut key = Sip::new();
        key.text(&context);
        for field in [
            &entry.id,
            &entry.package,
            &entry.file.to_string_lossy().into_owned(),
            &entry.find,
            &entry.replace,
        ] {
            key.text(field);
        }
        for list in [&entry.packages, &entry.tests] {
            key.text(&list.len().to_string());
            list.iter().for_each(|t| key.text(t));
        }
        for name in targets::closure(workspace, wanted) {
            let Some(dir) = package_dirs.get(name) else {
                continue;
            };
            if !digests.contains_key(name) {
                let mut sip = Sip::new();
                tree(root, dir, &BTreeSet::new(), &mut sip)?;
                digests.insert(name, sip.hex());
            }
            key.text(name);
            key.text(&digests[name]);
        }
        keys.insert(entry.id.clone(), key.hex());
    }
    Ok(keys)
}

fn absolute(root: &Path, dir: &Path) -> PathBuf {
    if dir.is_absolute() {
        dir.to_path_buf()
    } else {
        root.join(dir)
    }
}

/// Hashes every file under `dir` (names relative to `root`, in name order),
/// skipping [`SKIPPED`] and the directories in `skip`; a link is its target.
fn tree(root: &Path, dir: &Path, skip: &BTreeSet<&Path>, sip: &mut Sip) -> Result<()> {
    let mut children: Vec<_> = fs::read_dir(dir)
        .with_context(|| format!("listing {}", dir.display()))?
        .collect::<std::io::Result<_>>()?;
    children.sort_by_key(fs::DirEntry::file_name);
    for child in children {
        let path = child.path();
        let name = child.file_name();
        if SKIPPED.iter().any(|s| name == *s) || skip.contains(path.as_path()) {
            continue;
        }
        let relative = path.strip_prefix(root).unwrap_or(&path);
        let kind = child.file_type()?;
        if kind.is_dir() {
            tree(root, &path, skip, sip)?;
        } else if kind.is_symlink() {
            sip.text(&format!("link {}", relative.display()));
            sip.text(&fs::read_link(&path)?.to_string_lossy());
        } else if kind.is_file() {
            sip.text(&format!("file {}", relative.display()));
            sip.bytes(&fs::read(&path).with_context(|| format!("reading {}", path.display()))?);
        }
    }
    Ok(())
}

fn toolchain() -> Result<String> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let output = Command::new(rustc)
        .arg("-vV")
        .output()
        .context("running `rustc -vV`")?;
    if !output.status.success() {
        bail!("`rustc -vV` failed");
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

#[cfg(unix)]
fn uid() -> String {
    use std::os::unix::fs::MetadataExt;
    fs::metadata("/proc/self").map_or_else(|_| "unknown".to_owned(), |m| m.uid().to_string())
}

#[cfg(not(unix))]
fn uid() -> String {
    "unknown".to_owned()
}

/// SipHash-1-3, 128 bits, fixed keys; every field length-prefixed.
struct Sip(SipHasher13);

impl Sip {
    fn new() -> Self {
        Self(SipHasher13::new_with_keys(
            0x7861_736b_2069_6e6a,
            0x6563_7420_6361_6368,
        ))
    }

    fn bytes(&mut self, bytes: &[u8]) {
        self.0.write_u64(bytes.len() as u64);
        self.0.write(bytes);
    }

    fn text(&mut self, text: &str) {
        self.bytes(text.as_bytes());
    }

    fn hex(&self) -> String {
        format!("{:032x}", self.0.finish128().as_u128())
    }
}

#[cfg(test)]
mod tests;
