//! Whether a family id is already declared by a crate of the workspace.

use std::path::{Path, PathBuf};

use anyhow::Context;

/// The package, and its source file, that already declares family id `id`:
/// `const ID: FamilyId = FamilyId::new("<id>")` in a `src/*.rs` of a crate
/// under `crates/` or `examples/`, as the scaffold writes it and every family
/// (the third-party example's included) does.
pub(super) fn id_taken(root: &Path, id: &str) -> anyhow::Result<Option<(String, PathBuf)>> {
    let declaration = format!("const ID: FamilyId = FamilyId::new(\"{id}\")");
    for parent in ["crates", "examples"] {
        let Ok(dirs) = std::fs::read_dir(root.join(parent)) else {
            continue;
        };
        let mut dirs: Vec<PathBuf> = dirs.filter_map(|d| d.ok().map(|d| d.path())).collect();
        dirs.sort();
        for dir in dirs {
            let Ok(files) = std::fs::read_dir(dir.join("src")) else {
                continue;
            };
            let mut files: Vec<PathBuf> = files.filter_map(|f| f.ok().map(|f| f.path())).collect();
            files.sort();
            for file in files
                .into_iter()
                .filter(|f| f.extension().is_some_and(|e| e == "rs"))
            {
                let text = std::fs::read_to_string(&file).unwrap_or_default();
                if text.contains(&declaration) {
                    let manifest: toml::Table = std::fs::read_to_string(dir.join("Cargo.toml"))
                        .with_context(|| format!("reading {}", dir.join("Cargo.toml").display()))?
                        .parse()
                        .with_context(|| format!("parsing {}", dir.join("Cargo.toml").display()))?;
                    let package = manifest
                        .get("package")
                        .and_then(|p| p.get("name"))
                        .and_then(|n| n.as_str())
                        .unwrap_or_default()
                        .to_owned();
                    let shown = file.strip_prefix(root).unwrap_or(&file).to_path_buf();
                    return Ok(Some((package, shown)));
                }
            }
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(id: &str, want: Option<(&str, &str)>) {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let got = id_taken(&root, id).expect("the tree reads");
        let got = got
            .as_ref()
            .map(|(p, f)| (p.as_str(), f.to_str().expect("utf-8")));
        assert_eq!(got, want, "{id}");
    }

    #[test]
    fn an_id_a_crate_declares_is_named_with_its_crate() {
        check(
            "egress-blocked",
            Some((
                "third-party-family",
                "examples/third-party-family/src/lib.rs",
            )),
        );
        check(
            "acl-provisioning",
            Some(("sandbox-advisor-family-acl", "crates/family-acl/src/lib.rs")),
        );
        // Not the guide's example (`dns-blocked`): .ci/new-family.sh scaffolds
        // it and then runs these tests.
        check("never-declared-by-any-family", None);
        // A prefix of a declared id is another id.
        check("egress", None);
    }
}
