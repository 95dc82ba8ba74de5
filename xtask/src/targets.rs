//! Which test target each test lives in, so that a mutation builds and runs
//! only the targets holding its named tests.
//!
//! Before each test binary's results cargo prints its label:
//! `Running unittests src/lib.rs (…)`, `Running tests/foo.rs (…)` (the target's
//! source file, relative to the package root). `libtest::parse` files every
//! `test <name> ... ok` under the label of the binary that printed it, so the
//! baseline (unmutated) run of a package says which labels hold a test.
//! `cargo metadata` says which target has that source file, hence the cargo
//! selector: `--lib`, `--test foo`, `--bin x`, ...

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};
use serde::Deserialize;

use crate::libtest::Outcomes;

/// The selection that builds and runs every test target of a package (what
/// the baseline runs).
pub const ALL_TARGETS: [&str; 2] = ["--lib", "--tests"];

/// One target of a package.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Target {
    /// The selector flag: `--lib`, `--bin`, `--test`, `--example`, `--bench`.
    pub flag: &'static str,
    /// The target's name (unused for `--lib`).
    pub name: String,
    /// Its source file relative to the package root, `/`-separated.
    pub src: String,
}

impl Target {
    /// The cargo arguments selecting this target.
    pub fn args(&self) -> Vec<String> {
        if self.flag == "--lib" {
            vec![self.flag.to_owned()]
        } else {
            vec![self.flag.to_owned(), self.name.clone()]
        }
    }
}

/// What `cargo metadata` says about one workspace package.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Package {
    /// Its targets.
    pub targets: Vec<Target>,
    /// The workspace packages it depends on (any kind of dependency).
    pub deps: BTreeSet<String>,
    /// Its directory (the manifest's), as `cargo metadata` gives it.
    pub dir: PathBuf,
}

/// Every workspace package, by name.
pub type Workspace = BTreeMap<String, Package>;

#[derive(Deserialize)]
struct Metadata {
    packages: Vec<MetaPackage>,
}

#[derive(Deserialize)]
struct MetaPackage {
    name: String,
    manifest_path: PathBuf,
    targets: Vec<MetaTarget>,
    #[serde(default)]
    dependencies: Vec<MetaDependency>,
}

#[derive(Deserialize)]
struct MetaTarget {
    name: String,
    kind: Vec<String>,
    src_path: PathBuf,
}

#[derive(Deserialize)]
struct MetaDependency {
    name: String,
}

/// Runs `cargo metadata --no-deps` in `root`.
pub fn load(root: &Path) -> Result<Workspace> {
    let program = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(program)
        .args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--offline",
        ])
        .current_dir(root)
        .output()
        .context("running `cargo metadata`")?;
    if !output.status.success() {
        bail!(
            "`cargo metadata` failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    parse_metadata(&String::from_utf8_lossy(&output.stdout))
}

/// Parses the JSON of `cargo metadata --format-version 1`.
pub fn parse_metadata(json: &str) -> Result<Workspace> {
    let metadata: Metadata = serde_json::from_str(json).context("parsing `cargo metadata`")?;
    let names: BTreeSet<String> = metadata.packages.iter().map(|p| p.name.clone()).collect();
    let mut workspace = Workspace::new();
    for package in metadata.packages {
        let dir = package.manifest_path.parent().unwrap_or(Path::new(""));
        let targets = package
            .targets
            .into_iter()
            .filter_map(|t| {
                let flag = t.kind.iter().find_map(|k| flag_of_kind(k))?;
                let src = t.src_path.strip_prefix(dir).unwrap_or(&t.src_path);
                let src = src
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy())
                    .collect::<Vec<_>>()
                    .join("/");
                Some(Target {
                    flag,
                    name: t.name,
                    src,
                })
            })
            .collect();
        let deps = package
            .dependencies
            .into_iter()
            .map(|d| d.name)
            .filter(|d| names.contains(d) && *d != package.name)
            .collect();
        let dir = dir.to_path_buf();
        workspace.insert(package.name, Package { targets, deps, dir });
    }
    Ok(workspace)
}

fn flag_of_kind(kind: &str) -> Option<&'static str> {
    Some(match kind {
        "lib" | "rlib" | "dylib" | "cdylib" | "staticlib" | "proc-macro" => "--lib",
        "bin" => "--bin",
        "test" => "--test",
        "example" => "--example",
        "bench" => "--bench",
        _ => return None,
    })
}

/// The target whose binary cargo labelled `label` (`unittests src/lib.rs`,
/// `tests/foo.rs`); `None` when no target, or more than one, fits.
pub fn target_of_label<'a>(label: &str, targets: &'a [Target]) -> Option<&'a Target> {
    let (unit, src) = match label.strip_prefix("unittests ") {
        Some(src) => (true, src),
        None => (false, label),
    };
    let mut fits = targets.iter().filter(|t| {
        // cargo labels test and bench targets by path alone, the unit tests
        // of every other kind with `unittests `.
        let harness_target = matches!(t.flag, "--test" | "--bench");
        t.src == src && harness_target != unit
    });
    let target = fits.next()?;
    fits.next().is_none().then_some(target)
}

/// What one mutation builds and runs of one package.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pick {
    /// No named test lives in this package.
    Nothing,
    /// Only these targets (cargo arguments, e.g. `--lib --test foo`).
    Targets(Vec<String>),
    /// Every test target (no baseline, or a label no target fits).
    Everything,
}

impl Pick {
    /// The cargo arguments; `None` for `Nothing`.
    pub fn args(&self) -> Option<Vec<String>> {
        match self {
            Pick::Nothing => None,
            Pick::Targets(args) => Some(args.clone()),
            Pick::Everything => Some(ALL_TARGETS.iter().map(|&a| a.to_owned()).collect()),
        }
    }
}

/// The targets of one package that hold any of `tests`, by the package's
/// baseline outcomes. `targets` is `None` when `cargo metadata` was not
/// available: everything runs then.
pub fn pick(tests: &[String], baseline: &Outcomes, targets: Option<&[Target]>) -> Pick {
    let labels: BTreeSet<&str> = tests
        .iter()
        .filter_map(|t| baseline.get(t))
        .flatten()
        .map(|(label, _)| label.as_str())
        .collect();
    if labels.is_empty() {
        return Pick::Nothing;
    }
    let Some(targets) = targets else {
        return Pick::Everything;
    };
    let mut picked = BTreeSet::new();
    for label in labels {
        match target_of_label(label, targets) {
            Some(target) => picked.insert(target),
            None => return Pick::Everything,
        };
    }
    // `--lib` sorts first: `BTreeSet` orders by flag, then name.
    Pick::Targets(picked.into_iter().flat_map(Target::args).collect())
}

/// How many workspace packages building `packages` also builds (their
/// dependency closure, themselves included).
pub fn closure_size(workspace: &Workspace, packages: &[String]) -> usize {
    closure(workspace, packages.iter().map(String::as_str)).len()
}

/// Whether `package` depends on the workspace package `on`, directly or
/// through other workspace packages.
pub fn depends_on(workspace: &Workspace, package: &str, on: &str) -> bool {
    package != on && closure(workspace, [package]).contains(on)
}

/// The workspace packages building `packages` builds (their dependency
/// closure, themselves included).
pub fn closure<'a>(
    workspace: &'a Workspace,
    packages: impl IntoIterator<Item = &'a str>,
) -> BTreeSet<&'a str> {
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    let mut todo: Vec<&str> = packages.into_iter().collect();
    while let Some(name) = todo.pop() {
        if seen.insert(name) {
            if let Some(package) = workspace.get(name) {
                todo.extend(package.deps.iter().map(String::as_str));
            }
        }
    }
    seen
}

#[cfg(test)]
mod tests;
