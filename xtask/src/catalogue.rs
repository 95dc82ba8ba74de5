//! The mutation catalogue: every `crates/*/mutations.toml` and
//! `examples/*/mutations.toml`, in the format of `docs/mutations.md`.
//!
//! Loading never fails on a bad entry: a catalogue that does not parse, an id
//! used twice, a missing file or a `find` text that does not occur exactly once
//! makes the entry BROKEN (`Entry::broken`), and the run reports it.

use std::collections::HashMap;
use std::fs;
use std::path::{Component, Path, PathBuf};

use anyhow::{Context, Result};
use serde::Deserialize;

/// The directories (relative to the workspace root) whose children may hold a
/// `mutations.toml`.
pub const CATALOGUE_DIRS: [&str; 2] = ["crates", "examples"];

/// One `mutations.toml` as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CatalogueFile {
    #[serde(default)]
    mutation: Vec<RawEntry>,
}

/// One `[[mutation]]` as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawEntry {
    /// Unique kebab-case id.
    pub id: String,
    /// File to mutate, relative to the catalogue's directory.
    pub file: String,
    /// Exact source text, which must occur exactly once.
    pub find: String,
    /// Replacement text.
    pub replace: String,
    /// libtest names that must all FAIL under the mutation.
    pub tests: Vec<String>,
    /// What the mutation breaks.
    pub description: String,
    /// Packages whose tests run (default: the catalogue's own package).
    #[serde(default)]
    pub packages: Option<Vec<String>>,
    /// Why the mutation cannot be told apart from the original code.
    #[serde(default)]
    pub equivalent: Option<String>,
}

/// A validated (or BROKEN) catalogue entry.
#[derive(Debug, Clone)]
pub struct Entry {
    /// Unique id (for an unparsable catalogue: its path).
    pub id: String,
    /// Package of the catalogue (`package.name` of the Cargo.toml beside it).
    pub package: String,
    /// Packages whose tests run.
    pub packages: Vec<String>,
    /// The catalogue, relative to the workspace root.
    pub catalogue: PathBuf,
    /// The file to mutate, relative to the workspace root.
    pub file: PathBuf,
    /// Exact text to find.
    pub find: String,
    /// Its replacement.
    pub replace: String,
    /// Tests that must all FAIL.
    pub tests: Vec<String>,
    /// What the mutation breaks.
    pub description: String,
    /// Equivalence claim, if any.
    pub equivalent: Option<String>,
    /// Why the entry cannot be run, if it cannot.
    pub broken: Option<String>,
}

impl Entry {
    /// Whether this stands for a whole catalogue that does not parse (its
    /// ids are unknown, so no filter by id can hide it).
    pub fn is_unparsable_catalogue(&self) -> bool {
        self.id == self.catalogue.display().to_string()
    }
}

/// Parses the text of one `mutations.toml`.
pub fn parse_catalogue(text: &str) -> Result<Vec<RawEntry>, String> {
    toml::from_str::<CatalogueFile>(text)
        .map(|c| c.mutation)
        .map_err(|e| e.to_string().trim_end().replace('\n', " "))
}

/// Reads `package.name` from a Cargo.toml text.
pub fn parse_package_name(text: &str) -> Result<String, String> {
    #[derive(Deserialize)]
    struct Manifest {
        package: Option<Package>,
    }
    #[derive(Deserialize)]
    struct Package {
        name: String,
    }
    let manifest: Manifest = toml::from_str(text).map_err(|e| e.to_string())?;
    manifest
        .package
        .map(|p| p.name)
        .ok_or_else(|| "no [package] table".to_owned())
}

/// Counts occurrences of `needle` in `haystack`, overlapping ones included
/// (`aa` occurs twice in `aaa`: the replacement site would be ambiguous).
pub fn count_occurrences(haystack: &str, needle: &str) -> usize {
    if needle.is_empty() {
        return 0;
    }
    let mut count = 0;
    let mut start = 0;
    while let Some(pos) = haystack[start..].find(needle) {
        count += 1;
        let at = start + pos;
        // Advance by one character, so overlapping matches are counted.
        start = at + haystack[at..].chars().next().map_or(1, char::len_utf8);
    }
    count
}

/// Whether `id` is kebab-case: lowercase ASCII letters and digits in
/// non-empty words joined by single hyphens.
pub fn is_kebab_case(id: &str) -> bool {
    !id.is_empty()
        && id.split('-').all(|word| {
            !word.is_empty()
                && word
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// Lexically normalises `path` (resolving `.` and `..`); `None` if it climbs
/// above its start or is absolute.
pub fn normalize_relative(path: &Path) -> Option<PathBuf> {
    let mut out: Vec<&std::ffi::OsStr> = Vec::new();
    for component in path.components() {
        match component {
            Component::Normal(part) => out.push(part),
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop()?;
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out.iter().collect())
}

/// Finds every catalogue under `root`, sorted, as paths relative to `root`.
pub fn find_catalogues(root: &Path) -> Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    for dir in CATALOGUE_DIRS {
        let Ok(children) = fs::read_dir(root.join(dir)) else {
            continue;
        };
        for child in children {
            let child = child.with_context(|| format!("listing {}", root.join(dir).display()))?;
            let relative = Path::new(dir)
                .join(child.file_name())
                .join("mutations.toml");
            if root.join(&relative).is_file() {
                found.push(relative);
            }
        }
    }
    found.sort();
    Ok(found)
}

/// Loads and validates every catalogue under `root`.
pub fn load(root: &Path) -> Result<Vec<Entry>> {
    let mut entries = Vec::new();
    for catalogue in find_catalogues(root)? {
        entries.extend(load_one(root, &catalogue));
    }
    validate_unique_ids(&mut entries);
    Ok(entries)
}

/// Loads one catalogue (`catalogue` relative to `root`); problems become
/// BROKEN entries.
pub fn load_one(root: &Path, catalogue: &Path) -> Vec<Entry> {
    let dir = catalogue.parent().unwrap_or(Path::new(""));
    let package = fs::read_to_string(root.join(dir).join("Cargo.toml"))
        .map_err(|e| e.to_string())
        .and_then(|text| parse_package_name(&text));
    let package_name = package
        .clone()
        .unwrap_or_else(|_| format!("<{}>", dir.display()));
    let raw = fs::read_to_string(root.join(catalogue))
        .map_err(|e| e.to_string())
        .and_then(|text| parse_catalogue(&text));
    let raw = match raw {
        Ok(raw) => raw,
        Err(e) => {
            return vec![Entry {
                id: catalogue.display().to_string(),
                package: package_name.clone(),
                packages: vec![package_name],
                catalogue: catalogue.to_path_buf(),
                file: catalogue.to_path_buf(),
                find: String::new(),
                replace: String::new(),
                tests: Vec::new(),
                description: "catalogue does not parse".to_owned(),
                equivalent: None,
                broken: Some(format!("catalogue does not parse: {e}")),
            }];
        }
    };
    raw.into_iter()
        .map(|raw| {
            let mut entry = validate_entry(root, catalogue, &package_name, raw);
            if let (Err(e), None) = (&package, &entry.broken) {
                entry.broken = Some(format!(
                    "no package name in {}/Cargo.toml: {e}",
                    dir.display()
                ));
            }
            entry
        })
        .collect()
}

/// Validates one entry against the tree; the result carries `broken` when it
/// cannot be run.
pub fn validate_entry(root: &Path, catalogue: &Path, package: &str, raw: RawEntry) -> Entry {
    let dir = catalogue.parent().unwrap_or(Path::new(""));
    let file = normalize_relative(&dir.join(&raw.file));
    let mut entry = Entry {
        id: raw.id,
        package: package.to_owned(),
        packages: raw.packages.unwrap_or_else(|| vec![package.to_owned()]),
        catalogue: catalogue.to_path_buf(),
        file: file.clone().unwrap_or_else(|| PathBuf::from(&raw.file)),
        find: raw.find,
        replace: raw.replace,
        tests: raw.tests,
        description: raw.description,
        equivalent: raw.equivalent,
        broken: None,
    };
    entry.broken = check_entry(root, &entry, file.is_some()).err();
    entry
}

fn check_entry(root: &Path, entry: &Entry, file_inside_root: bool) -> Result<(), String> {
    if !is_kebab_case(&entry.id) {
        return Err(format!("id `{}` is not kebab-case", entry.id));
    }
    if entry.tests.is_empty() && entry.equivalent.is_none() {
        return Err("names no tests".to_owned());
    }
    if entry.packages.is_empty() {
        return Err("`packages` is empty".to_owned());
    }
    if entry.find.is_empty() {
        return Err("`find` is empty".to_owned());
    }
    if entry.find == entry.replace {
        return Err("`replace` equals `find`: the mutation changes nothing".to_owned());
    }
    if !file_inside_root {
        return Err(format!(
            "file `{}` is outside the workspace",
            entry.file.display()
        ));
    }
    let path = root.join(&entry.file);
    if !path.is_file() {
        return Err(format!("file `{}` does not exist", entry.file.display()));
    }
    let text = fs::read_to_string(&path)
        .map_err(|e| format!("cannot read `{}`: {e}", entry.file.display()))?;
    match count_occurrences(&text, &entry.find) {
        1 => Ok(()),
        n => Err(format!(
            "`find` occurs {n} times in {} (must be exactly once)",
            entry.file.display()
        )),
    }
}

/// Marks every entry whose id is used more than once as BROKEN.
pub fn validate_unique_ids(entries: &mut [Entry]) {
    let mut seen: HashMap<String, Vec<String>> = HashMap::new();
    for entry in entries.iter() {
        seen.entry(entry.id.clone())
            .or_default()
            .push(entry.catalogue.display().to_string());
    }
    for entry in entries.iter_mut() {
        if let Some(places) = seen.get(&entry.id).filter(|p| p.len() > 1) {
            entry.broken = Some(format!("duplicate id (in {})", places.join(", ")));
        }
    }
}

#[cfg(test)]
impl Entry {
    /// A runnable entry of `package` whose `tests` live in `packages`, for
    /// the tests of what reads entries (id `m`, file `crates/<package>/src/lib.rs`).
    pub fn sample(package: &str, packages: &[&str], tests: &[&str]) -> Self {
        Entry {
            id: "m".to_owned(),
            package: package.to_owned(),
            packages: packages.iter().map(|p| (*p).to_owned()).collect(),
            catalogue: PathBuf::from(format!("crates/{package}/mutations.toml")),
            file: PathBuf::from(format!("crates/{package}/src/lib.rs")),
            find: "a".to_owned(),
            replace: "b".to_owned(),
            tests: tests.iter().map(|t| (*t).to_owned()).collect(),
            description: String::new(),
            equivalent: None,
            broken: None,
        }
    }
}

#[cfg(test)]
mod tests;
