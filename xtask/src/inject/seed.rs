//! What an empty slot starts from: the libraries, build-script outputs and
//! fingerprints another build compiled (`target/debug`, or another slot's).
//!
//! Cargo reuses a unit whenever its fingerprint says it is fresh; it cannot
//! tell a library that does not fit the others from one that does. So a slot
//! takes, of another build:
//! - only units whose sources lie outside the slot's source tree (registry
//!   and git crates, path crates elsewhere). A workspace crate keeps its unit
//!   hash in every copy of the tree (cargo hashes its path relative to the
//!   workspace root), but each copy compiles it against its own builds of
//!   the workspace crates below it, whose crate hashes differ (their paths
//!   differ). Taken into another tree it looks fresh there and fails to load:
//!   ``error[E0463]: can't find crate for `advisor_core` ``. A slot working
//!   in the tree that built the seed takes the workspace crates too;
//! - only whole units: a fingerprint is taken with the library, build script
//!   or build-script output it names, never without it;
//! - only a build made the way the slots build (same profile, compiler and
//!   flags), which [`probe_specs`] lets cargo itself check (`fresh` in its
//!   JSON messages) on a few dependency-free crates.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};
use serde::Deserialize;

/// The command that builds a seed the slots start from (what CI runs before
/// `cargo xtask inject`).
pub const SEED_COMMAND: &str = "CARGO_PROFILE_DEV_DEBUG=0 cargo test --workspace --no-run";

/// Dependency-free crates probed at most (each is compiled when the seed
/// does not fit, so they stay few and small).
const PROBES: usize = 6;

/// What `cargo metadata` says about the packages a seed may hold.
#[derive(Debug, Default)]
pub struct Crates {
    /// Packages whose sources lie in the workspace tree (by name).
    pub local: BTreeSet<String>,
    /// Crates from elsewhere with no dependencies and no features enabled:
    /// `(package spec name@version, library crate name)`. Their unit hash
    /// depends only on how they are compiled.
    pub leaves: Vec<(String, String)>,
}

#[derive(Deserialize)]
struct Metadata {
    packages: Vec<MetaPackage>,
    #[serde(default)]
    workspace_members: Vec<String>,
    resolve: Option<Resolve>,
}

#[derive(Deserialize)]
struct MetaPackage {
    id: String,
    name: String,
    version: String,
    manifest_path: PathBuf,
    targets: Vec<MetaTarget>,
}

#[derive(Deserialize)]
struct MetaTarget {
    name: String,
    kind: Vec<String>,
}

#[derive(Deserialize)]
struct Resolve {
    nodes: Vec<Node>,
}

#[derive(Deserialize)]
struct Node {
    id: String,
    #[serde(default)]
    deps: Vec<NodeDep>,
    #[serde(default)]
    features: Vec<String>,
}

#[derive(Deserialize)]
struct NodeDep {
    pkg: String,
    #[serde(default)]
    dep_kinds: Vec<DepKind>,
}

#[derive(Deserialize)]
struct DepKind {
    /// `None` for a normal dependency, `"dev"`, `"build"`.
    kind: Option<String>,
}

/// Runs `cargo metadata` (with dependencies, for the host platform) in `root`.
pub fn crates(root: &Path) -> Result<Crates> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let version = Command::new(rustc)
        .arg("-vV")
        .output()
        .context("running `rustc -vV`")?;
    let version = String::from_utf8_lossy(&version.stdout);
    let Some(host) = version.lines().find_map(|l| l.strip_prefix("host: ")) else {
        bail!("`rustc -vV` names no host");
    };
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--offline"])
        .args(["--filter-platform", host.trim()])
        .current_dir(root)
        .output()
        .context("running `cargo metadata`")?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        bail!(
            "`cargo metadata` failed: {}",
            stderr.lines().next().unwrap_or("")
        );
    }
    parse_crates(&String::from_utf8_lossy(&output.stdout), root)
}

/// Parses `cargo metadata --format-version 1` output for [`crates`].
pub fn parse_crates(json: &str, root: &Path) -> Result<Crates> {
    let metadata: Metadata = serde_json::from_str(json).context("parsing `cargo metadata`")?;
    let package = |id: &str| metadata.packages.iter().find(|p| p.id == id);
    let kinds = |p: &MetaPackage| {
        p.targets
            .iter()
            .flat_map(|t| &t.kind)
            .cloned()
            .collect::<Vec<_>>()
    };
    let mut crates = Crates::default();
    for p in &metadata.packages {
        if p.manifest_path.starts_with(root) {
            crates.local.insert(p.name.clone());
        }
    }
    let nodes: Vec<&Node> = metadata.resolve.iter().flat_map(|r| &r.nodes).collect();
    // Packages built for the target: reached from a member by normal
    // dependencies, not through a proc macro (its dependencies are built for
    // the host). `cargo build -p` on a package built only for the host
    // panics (cargo 1.95: "did not find features for …").
    let mut target_side: BTreeSet<&str> = BTreeSet::new();
    let mut todo: Vec<&str> = metadata
        .workspace_members
        .iter()
        .map(String::as_str)
        .collect();
    while let Some(id) = todo.pop() {
        if !target_side.insert(id) {
            continue;
        }
        let Some(node) = nodes.iter().find(|n| n.id == id) else {
            continue;
        };
        for dep in &node.deps {
            let normal = dep.dep_kinds.iter().any(|k| k.kind.is_none());
            let macro_ =
                package(&dep.pkg).is_some_and(|p| kinds(p).iter().any(|k| k == "proc-macro"));
            if normal && !macro_ {
                todo.push(&dep.pkg);
            }
        }
    }
    for node in nodes {
        let Some(p) = package(&node.id) else {
            continue;
        };
        let kinds = kinds(p);
        let plain = !kinds
            .iter()
            .any(|k| k == "custom-build" || k == "proc-macro");
        let lib = p
            .targets
            .iter()
            .find(|t| t.kind.iter().any(|k| k == "lib" || k == "rlib"));
        let leaf = node.deps.is_empty() && node.features.is_empty();
        let elsewhere = !crates.local.contains(&p.name) && target_side.contains(node.id.as_str());
        if let Some(lib) = lib.filter(|_| plain && leaf && elsewhere) {
            let spec = format!("{}@{}", p.name, p.version);
            crates.leaves.push((spec, lib.name.replace('-', "_")));
        }
    }
    Ok(crates)
}

/// The units of one build directory (`…/debug`) a slot may take.
#[derive(Debug, Default)]
pub struct Selection {
    /// Files of `deps/`.
    libraries: Vec<PathBuf>,
    /// Directories of `.fingerprint/`.
    fingerprints: Vec<PathBuf>,
    /// Directories of `build/`.
    build: Vec<PathBuf>,
    /// Crate names with a library in the selection.
    pub crates: BTreeSet<String>,
    /// Fingerprints left out because what they name is missing (`serde-0123…`).
    pub incomplete: Vec<String>,
}

impl Selection {
    /// Units taken (fingerprint directories).
    pub fn len(&self) -> usize {
        self.fingerprints.len()
    }
}

/// Chooses the units of `built` a slot may take: every fingerprint with what
/// it names, except those of the packages in `skip` (by name).
pub fn select(built: &Path, skip: &BTreeSet<String>) -> Result<Selection> {
    let mut selection = Selection::default();
    let dir = built.join(".fingerprint");
    let Ok(units) = fs::read_dir(&dir) else {
        return Ok(selection);
    };
    let mut names: Vec<String> = units
        .flatten()
        .map(|u| u.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for unit in names {
        let Some((package, hash)) = unit.rsplit_once('-') else {
            continue;
        };
        if skip.contains(package) {
            continue;
        }
        let Ok(files) = fs::read_dir(dir.join(&unit)) else {
            continue;
        };
        let files: Vec<String> = files
            .flatten()
            .map(|f| f.file_name().to_string_lossy().into_owned())
            .collect();
        let has = |name: &str| files.iter().any(|f| f == name);
        let build_dir = built.join("build").join(&unit);
        let lib = files
            .iter()
            .find_map(|f| f.strip_prefix("lib-").filter(|l| !l.contains('.')));
        if let Some(lib) = lib {
            let lib = lib.to_owned();
            let found: Vec<PathBuf> = ["rlib", "rmeta", "so"]
                .iter()
                .map(|ext| built.join("deps").join(format!("lib{lib}-{hash}.{ext}")))
                .filter(|p| p.is_file())
                .collect();
            if found.is_empty() {
                selection.incomplete.push(unit);
                continue;
            }
            selection.libraries.extend(found);
            selection.crates.insert(lib);
        } else if has("build-script-build-script-build") {
            if !build_dir.join("build-script-build").is_file() {
                selection.incomplete.push(unit);
                continue;
            }
            selection.build.push(build_dir);
        } else if has("run-build-script-build-script-build") {
            if !build_dir.join("output").is_file() {
                selection.incomplete.push(unit);
                continue;
            }
            selection.build.push(build_dir);
        } else {
            // Test, binary and example executables: a slot builds its own.
            continue;
        }
        selection.fingerprints.push(dir.join(&unit));
    }
    selection.build.dedup();
    Ok(selection)
}

/// Copies `selection` into the build directory `into`, times kept, over
/// nothing `into` already has (a unit both built is the same unit).
/// Libraries go first, so that an interrupted copy never leaves a
/// fingerprint without what it names.
pub fn copy(selection: &Selection, into: &Path) -> Result<()> {
    let parts = [
        (&selection.libraries, "deps"),
        (&selection.build, "build"),
        (&selection.fingerprints, ".fingerprint"),
    ];
    for (from, dir) in parts {
        let to = into.join(dir);
        fs::create_dir_all(&to)?;
        for chunk in from.chunks(256) {
            let status = Command::new("cp")
                .args(["-a", "-n"])
                .args(chunk)
                .arg(&to)
                .status()
                .context("starting cp")?;
            if !status.success() {
                bail!("cp -a into {} failed: {status}", to.display());
            }
        }
    }
    Ok(())
}

/// The leaves to probe: those whose library the selection holds.
pub fn probe_specs<'a>(crates: &'a Crates, selection: &Selection) -> Vec<&'a (String, String)> {
    crates
        .leaves
        .iter()
        .filter(|(_, lib)| selection.crates.contains(lib))
        .take(PROBES)
        .collect()
}

/// From the JSON messages of `cargo build -p <probes>`: the probed crates
/// cargo did not find fresh (it compiled them), or `Err` when it reported on
/// none of them.
pub fn unfit(lines: &[String], probes: &[&(String, String)]) -> Result<Vec<String>> {
    let mut seen = Vec::new();
    let mut rebuilt = Vec::new();
    for line in lines.iter().filter(|l| l.starts_with('{')) {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if message["reason"] != "compiler-artifact" {
            continue;
        }
        let name = message["target"]["name"].as_str().unwrap_or("");
        let name = name.replace('-', "_");
        if probes.iter().any(|(_, lib)| *lib == name) {
            if message["fresh"] == false {
                rebuilt.push(name.clone());
            }
            seen.push(name);
        }
    }
    if seen.is_empty() {
        bail!("cargo reported on none of the probed crates");
    }
    Ok(rebuilt)
}

#[cfg(test)]
mod tests;
