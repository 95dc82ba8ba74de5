//! `cargo xtask new-family <id>`: scaffold a family crate and register it.
//!
//! It writes `crates/family-<id>/` from `xtask/templates/family/` and makes the
//! four edits that register it, and no other: the workspace member (plus its
//! `[workspace.dependencies]` path), the host-adapter feature (its optional
//! dependency, `all-families` and `testing`), the registry line in
//! `host_adapter::standard_registry`, and its row in README.md's families table. Then it runs the new crate's tests once
//! with `INSTA_UPDATE=always`, so its fixture snapshots exist and the whole
//! workspace's tests pass right away.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};
use clap::Args;

/// `cargo xtask new-family`.
#[derive(Debug, Args)]
pub struct NewFamilyArgs {
    /// The family id, lowercase kebab-case (e.g. `dns-blocked`).
    pub id: String,
    /// Do not run the new crate's tests (its snapshots are then not written).
    #[arg(long)]
    pub no_test: bool,
    /// An agent host whose failures the family knows: `dsh` (the default),
    /// `claude-code` or `codex`; repeat for several. The fixtures run under the first.
    #[arg(long = "host", value_parser = parse_host)]
    pub hosts: Vec<advisor_core::Host>,
}

fn parse_host(raw: &str) -> Result<advisor_core::Host, String> {
    raw.parse()
        .map_err(|e: advisor_core::UnknownHost| e.to_string())
}

/// The template files, relative to `xtask/templates/family`, with their contents.
const TEMPLATES: &[(&str, &str)] = &[
    (
        "Cargo.toml",
        include_str!("../templates/family/Cargo.toml.tmpl"),
    ),
    (
        "README.md",
        include_str!("../templates/family/README.md.tmpl"),
    ),
    (
        "mutations.toml",
        include_str!("../templates/family/mutations.toml.tmpl"),
    ),
    (
        "src/lib.rs",
        include_str!("../templates/family/src/lib.rs.tmpl"),
    ),
    (
        "src/recognize.rs",
        include_str!("../templates/family/src/recognize.rs.tmpl"),
    ),
    (
        "src/gate.rs",
        include_str!("../templates/family/src/gate.rs.tmpl"),
    ),
    (
        "src/advise.rs",
        include_str!("../templates/family/src/advise.rs.tmpl"),
    ),
    (
        "src/testing.rs",
        include_str!("../templates/family/src/testing.rs.tmpl"),
    ),
    (
        "tests/fixtures.rs",
        include_str!("../templates/family/tests/fixtures.rs.tmpl"),
    ),
    (
        "tests/fixtures/pos-producer-sentence.toml",
        include_str!("../templates/family/tests/fixtures/pos-producer-sentence.toml.tmpl"),
    ),
    (
        "tests/fixtures/ctl-quoted-in-a-longer-line.toml",
        include_str!("../templates/family/tests/fixtures/ctl-quoted-in-a-longer-line.toml.tmpl"),
    ),
    (
        "tests/fixtures/ctl-unconfined-mode.toml",
        include_str!("../templates/family/tests/fixtures/ctl-unconfined-mode.toml.tmpl"),
    ),
];

/// The names a family id gives rise to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Names {
    /// `dns-blocked`: the family id, the crate suffix and the host-adapter feature.
    pub id: String,
    /// `dns_blocked`: the crate's Rust name after `family_`.
    pub snake: String,
    /// `DnsBlocked`: the family struct.
    pub ident: String,
    /// The hosts it declares, first the one its fixtures run under.
    pub hosts: Vec<advisor_core::Host>,
}

impl Names {
    /// Checks the id (lowercase kebab-case, starting with a letter) and derives the names.
    pub fn new(id: &str) -> anyhow::Result<Self> {
        let well_formed = id.split('-').all(|part| {
            !part.is_empty()
                && part
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        }) && id.starts_with(|c: char| c.is_ascii_lowercase());
        if !well_formed || id.len() > 48 {
            bail!(
                "family id `{id}` must be lowercase kebab-case (a-z, 0-9, `-`), starting with a letter, at most 48 characters"
            );
        }
        let ident = id
            .split('-')
            .map(|part| {
                let mut chars = part.chars();
                chars.next().map_or_else(String::new, |first| {
                    first.to_ascii_uppercase().to_string() + chars.as_str()
                })
            })
            .collect();
        Ok(Self {
            id: id.to_owned(),
            snake: id.replace('-', "_"),
            ident,
            hosts: vec![advisor_core::Host::Dsh],
        })
    }

    /// The same names for a family of `hosts` (none: the DeepSeek harness).
    pub fn on_hosts(mut self, hosts: &[advisor_core::Host]) -> Self {
        let mut seen = Vec::new();
        for host in hosts {
            if !seen.contains(host) {
                seen.push(*host);
            }
        }
        if !seen.is_empty() {
            self.hosts = seen;
        }
        self
    }

    fn fill(&self, template: &str) -> String {
        let hosts: Vec<String> = self
            .hosts
            .iter()
            .map(|h| format!("advisor_core::Host::{h:?}"))
            .collect();
        let first = self.hosts.first().copied().unwrap_or_default();
        let (host_kind, host_table) = match first {
            advisor_core::Host::Dsh => (String::new(), String::new()),
            other => (
                format!("kind = \"{other}\"\n"),
                format!("[host]\nkind = \"{other}\"\nplatform = \"linux\"\n\n"),
            ),
        };
        template
            .replace("{{id}}", &self.id)
            .replace("{{snake}}", &self.snake)
            .replace("{{ident}}", &self.ident)
            .replace("{{hosts}}", &hosts.join(", "))
            .replace(
                "{{host_names}}",
                &self
                    .hosts
                    .iter()
                    .map(|h| format!("{} (`{h}`)", h.name()))
                    .collect::<Vec<_>>()
                    .join(", "),
            )
            .replace("{{host_kind}}", &host_kind)
            .replace("{{host_table}}", &host_table)
    }
}

mod readme;
mod taken;

/// Runs the task from the workspace root.
pub fn main(args: NewFamilyArgs) -> anyhow::Result<std::process::ExitCode> {
    let names = Names::new(&args.id)?.on_hosts(&args.hosts);
    let root = workspace_root()?;
    scaffold(&root, &names)?;
    println!("scaffolded crates/family-{} and registered it", names.id);
    if !args.no_test {
        let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args([
                "test",
                "-p",
                &format!("sandbox-advisor-family-{}", names.id),
                "--test",
                "fixtures",
            ])
            .env("INSTA_UPDATE", "always")
            .env_remove("CI")
            .current_dir(&root)
            .status()
            .context("running the new crate's fixture test")?;
        if !status.success() {
            bail!("the new crate's fixture test failed");
        }
    }
    println!(
        "next: docs/adding-a-family.md (replace the sentence, write the fixtures and the README row, run cargo xtask inject)"
    );
    Ok(std::process::ExitCode::SUCCESS)
}

fn workspace_root() -> anyhow::Result<PathBuf> {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest
        .parent()
        .map(Path::to_path_buf)
        .context("xtask has no parent directory")
}

/// Writes the crate and makes the four registering edits under `root`.
pub fn scaffold(root: &Path, names: &Names) -> anyhow::Result<()> {
    let dir = root.join("crates").join(format!("family-{}", names.id));
    if dir.exists() {
        bail!("{} already exists", dir.display());
    }
    if let Some((package, file)) = taken::id_taken(root, &names.id)? {
        bail!(
            "family id `{}` is already used by crate `{package}` ({}): two families with one id make the registry refuse to build (DuplicateId); choose another id",
            names.id,
            file.display()
        );
    }
    // Compute every edit first, so a refusal leaves the tree as it was.
    let edits = [
        (
            "Cargo.toml",
            edit_workspace(&read(root, "Cargo.toml")?, names)?,
        ),
        (
            "crates/host-adapter/Cargo.toml",
            edit_adapter_manifest(&read(root, "crates/host-adapter/Cargo.toml")?, names)?,
        ),
        (
            "crates/host-adapter/src/registry.rs",
            edit_registry(&read(root, "crates/host-adapter/src/registry.rs")?, names)?,
        ),
        (
            "README.md",
            readme::edit_readme(&read(root, "README.md")?, names)?,
        ),
    ];
    for (rel, text) in TEMPLATES {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).with_context(|| parent.display().to_string())?;
        }
        std::fs::write(&path, names.fill(text)).with_context(|| path.display().to_string())?;
    }
    for (rel, text) in edits {
        std::fs::write(root.join(rel), text).with_context(|| rel.to_owned())?;
    }
    Ok(())
}

fn read(root: &Path, rel: &str) -> anyhow::Result<String> {
    std::fs::read_to_string(root.join(rel)).with_context(|| rel.to_owned())
}

/// Inserts `line` after the last line of `text` that starts with `prefix`.
fn insert_after_last(text: &str, prefix: &str, line: &str, file: &str) -> anyhow::Result<String> {
    let mut lines: Vec<&str> = text.split('\n').collect();
    let at = lines
        .iter()
        .rposition(|l| l.starts_with(prefix))
        .with_context(|| format!("{file}: no line starts with `{prefix}`"))?;
    lines.insert(at + 1, line);
    Ok(lines.join("\n"))
}

/// Adds the member and the `[workspace.dependencies]` path.
pub fn edit_workspace(text: &str, n: &Names) -> anyhow::Result<String> {
    let member = format!("    \"crates/family-{}\",", n.id);
    let dep = format!(
        "family-{0} = {{ package = \"sandbox-advisor-family-{0}\", version = \"0.1.0\", path = \"crates/family-{0}\" }}",
        n.id
    );
    let text = insert_after_last(text, "    \"crates/family-", &member, "Cargo.toml")?;
    insert_after_last(&text, "family-", &dep, "Cargo.toml")
}

/// Adds the feature, its optional dependency, and the family to `all-families` and `testing`.
pub fn edit_adapter_manifest(text: &str, n: &Names) -> anyhow::Result<String> {
    const FILE: &str = "crates/host-adapter/Cargo.toml";
    let feature = format!("{0} = [\"dep:family-{0}\"]", n.id);
    let dep = format!("family-{} = {{ workspace = true, optional = true }}", n.id);
    let mut out = Vec::new();
    let mut lists = 0;
    for line in text.split('\n') {
        if let Some(rest) = line.strip_prefix("all-families = [") {
            out.push(format!("all-families = [{rest}").replacen(
                ']',
                &format!(", \"{}\"]", n.id),
                1,
            ));
            lists += 1;
        } else if let Some(rest) = line.strip_prefix("testing = [") {
            out.push(format!("testing = [{rest}").replacen(
                ']',
                &format!(", \"family-{}?/testing\"]", n.id),
                1,
            ));
            lists += 1;
        } else {
            out.push(line.to_owned());
        }
    }
    if lists != 2 {
        bail!("{FILE}: expected one `all-families = [` line and one `testing = [` line");
    }
    let text = insert_after_last(&out.join("\n"), "acl-aggregate = [", &feature, FILE)
        .or_else(|_| insert_after_last(&out.join("\n"), "all-families = [", &feature, FILE))?;
    insert_after_last(&text, "family-", &dep, FILE)
}

/// Adds the registry line, last in precedence, before the builder is returned.
pub fn edit_registry(text: &str, n: &Names) -> anyhow::Result<String> {
    let anchor = "\n    builder\n}";
    if text.matches(anchor).count() != 1 {
        bail!("crates/host-adapter/src/registry.rs: expected one `    builder` return line");
    }
    let line = format!(
        "\n    #[cfg(feature = \"{}\")]\n    let builder = builder.family(family_{}::{});",
        n.id, n.snake, n.ident
    );
    Ok(text.replacen(anchor, &format!("{line}{anchor}"), 1))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    fn names() -> Names {
        Names::new("dns-blocked").unwrap()
    }

    #[test]
    fn names_follow_the_id() {
        assert_eq!(
            names(),
            Names {
                id: "dns-blocked".into(),
                snake: "dns_blocked".into(),
                ident: "DnsBlocked".into(),
                hosts: vec![advisor_core::Host::Dsh],
            }
        );
        for bad in [
            "",
            "Dns",
            "dns_blocked",
            "-dns",
            "dns-",
            "dns--x",
            "9dns",
            "dns blocked",
        ] {
            assert!(Names::new(bad).is_err(), "{bad:?} accepted");
        }
    }

    /// The edits for an id this workspace does not use yet: not the guide's
    /// example, which a reader following the guide has just scaffolded.
    #[test]
    fn the_three_edits_land_on_this_workspace() {
        let root = workspace_root().unwrap();
        let workspace = read(&root, "Cargo.toml").unwrap();
        let n = (1..)
            .map(|i| Names::new(&format!("edit-probe-{i}")).unwrap())
            .find(|n| {
                !workspace.contains(&format!("family-{}", n.id))
                    && taken::id_taken(&root, &n.id).unwrap().is_none()
            })
            .unwrap();
        let (id, snake, ident) = (&n.id, &n.snake, &n.ident);
        let ws = edit_workspace(&workspace, &n).unwrap();
        assert!(ws.contains(&format!("    \"crates/family-{id}\",\n")));
        assert!(ws.contains(&format!(
            "family-{id} = {{ package = \"sandbox-advisor-family-{id}\", version = \"0.1.0\", path = \"crates/family-{id}\" }}\n"
        )));
        let manifest = read(&root, "crates/host-adapter/Cargo.toml").unwrap();
        let edited = edit_adapter_manifest(&manifest, &n).unwrap();
        assert!(edited.contains(&format!("{id} = [\"dep:family-{id}\"]\n")));
        assert!(edited.contains(&format!(", \"{id}\"]\n")));
        assert!(edited.contains(&format!(", \"family-{id}?/testing\"]\n")));
        assert!(edited.contains(&format!(
            "family-{id} = {{ workspace = true, optional = true }}\n"
        )));
        let registry = read(&root, "crates/host-adapter/src/registry.rs").unwrap();
        let edited = edit_registry(&registry, &n).unwrap();
        assert!(edited.contains(&format!(
            "    #[cfg(feature = \"{id}\")]\n    let builder = builder.family(family_{snake}::{ident});\n    builder\n}}"
        )));
    }

    #[test]
    fn every_template_placeholder_is_filled() {
        for (rel, text) in TEMPLATES {
            let filled = names().fill(text);
            assert!(!filled.contains("{{"), "{rel} keeps a placeholder");
        }
    }

    /// A family of another host declares it, names it in its README, and
    /// runs its fixtures under it (on Linux, where those clients sandbox).
    #[test]
    fn a_family_of_another_host_is_scaffolded_for_it() {
        use advisor_core::Host;
        let codex = names().on_hosts(&[Host::Codex, Host::ClaudeCode, Host::Codex]);
        assert_eq!(codex.hosts, [Host::Codex, Host::ClaudeCode]);
        let filled = |rel: &str| {
            let (_, text) = TEMPLATES.iter().find(|(r, _)| *r == rel).unwrap();
            codex.fill(text)
        };
        assert!(
            filled("src/lib.rs")
                .contains("hosts: &[advisor_core::Host::Codex, advisor_core::Host::ClaudeCode],")
        );
        assert!(
            filled("README.md")
                .contains("**Hosts:** Codex (`codex`), Claude Code (`claude-code`).")
        );
        let fixture = filled("tests/fixtures/pos-producer-sentence.toml");
        assert!(
            fixture.contains("[host]\nkind = \"codex\"\nplatform = \"linux\"\n"),
            "{fixture}"
        );
        assert!(
            names().fill(TEMPLATES[0].1).contains("family-dns-blocked"),
            "the default stays the harness's"
        );
        assert!(
            names()
                .fill(filled_src())
                .contains("hosts: &[advisor_core::Host::Dsh],")
        );
    }

    fn filled_src() -> &'static str {
        TEMPLATES
            .iter()
            .find(|(r, _)| *r == "src/lib.rs")
            .unwrap()
            .1
    }

    #[test]
    fn a_refused_edit_leaves_the_tree_untouched() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("Cargo.toml"), "[workspace]\n").unwrap();
        assert!(scaffold(dir.path(), &names()).is_err());
        assert!(!dir.path().join("crates/family-dns-blocked").exists());
    }
}
