//! The names a documented cargo command may use: the workspace's packages,
//! their targets and features (from `cargo metadata`), the fuzz targets, and
//! the tools CI installs at the versions it pins.

use std::path::Path;

/// The workspace as `cargo metadata --no-deps` describes it.
pub struct Workspace {
    packages: Vec<serde_json::Value>,
    fuzz_targets: Vec<String>,
    ci: String,
}

/// One package of the workspace.
pub struct Package<'a>(&'a serde_json::Value);

impl Workspace {
    /// Reads the workspace at `root`.
    pub fn load(root: &Path) -> Self {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let out = std::process::Command::new(cargo)
            .args([
                "metadata",
                "--no-deps",
                "--format-version",
                "1",
                "--offline",
            ])
            .current_dir(root)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "cargo metadata: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let fuzz: toml::Value = std::fs::read_to_string(root.join("fuzz/Cargo.toml"))
            .unwrap()
            .parse()
            .unwrap();
        let fuzz_targets = fuzz["bin"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|b| b["name"].as_str().map(str::to_owned))
            .collect();
        Self {
            packages: meta["packages"].as_array().unwrap().clone(),
            fuzz_targets,
            ci: [
                ".ci/run",
                "fuzz/smoke.sh",
                "xtask/src/mutants.rs",
                "xtask/src/instructions.rs",
            ]
            .iter()
            .map(|f| std::fs::read_to_string(root.join(f)).unwrap_or_default())
            .collect(),
        }
    }

    /// The package named `name`.
    pub fn package(&self, name: &str) -> Result<Package<'_>, String> {
        self.packages
            .iter()
            .find(|p| p["name"] == name)
            .map(Package)
            .ok_or_else(|| format!("no workspace package `{name}`"))
    }

    /// The package whose manifest is in `dir`.
    pub fn package_at(&self, dir: &Path) -> Result<Package<'_>, String> {
        let manifest = dir
            .join("Cargo.toml")
            .canonicalize()
            .map_err(|e| format!("{}: {e}", dir.display()))?;
        self.packages
            .iter()
            .find(|p| {
                p["manifest_path"]
                    .as_str()
                    .is_some_and(|m| Path::new(m) == manifest)
            })
            .map(Package)
            .ok_or_else(|| format!("{} holds no workspace package", dir.display()))
    }

    /// A fuzz target of `fuzz/Cargo.toml`.
    pub fn fuzz_target(&self, name: &str) -> Result<(), String> {
        self.fuzz_targets
            .iter()
            .any(|t| t == name)
            .then_some(())
            .ok_or_else(|| format!("no fuzz target `{name}` in fuzz/Cargo.toml"))
    }

    /// A tool installed with `cargo install NAME`: CI or a task of xtask
    /// installs or runs it, at the version the document gives when it gives one.
    pub fn tool(&self, name: &str, version: Option<&str>) -> Result<(), String> {
        let used = match name {
            "cargo-insta" => self.packages.iter().any(|p| {
                p["dependencies"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .any(|d| d["name"] == "insta")
            }),
            "cargo-fuzz" => self.ci.contains("cargo fuzz") || self.ci.contains("cargo-fuzz"),
            other => self.ci.contains(other),
        };
        if !used {
            return Err(format!(
                "`cargo install {name}`: nothing in CI or xtask uses it"
            ));
        }
        match version {
            Some(v) if !self.ci.contains(&format!("{name} --version {v}")) => {
                Err(format!("`{name}` {v}: CI pins another version"))
            }
            _ => Ok(()),
        }
    }
}

impl Package<'_> {
    fn name(&self) -> &str {
        self.0["name"].as_str().unwrap_or("")
    }

    /// Its target of `kind` (`test`, `bench`, `example`, `bin`) named `name`.
    pub fn target(&self, kind: &str, name: &str) -> Result<(), String> {
        self.targets(kind)
            .iter()
            .any(|t| t == name)
            .then_some(())
            .ok_or_else(|| format!("package `{}` has no {kind} target `{name}`", self.name()))
    }

    fn targets(&self, kind: &str) -> Vec<String> {
        self.0["targets"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|t| {
                t["kind"]
                    .as_array()
                    .is_some_and(|k| k.iter().any(|k| k == kind))
            })
            .filter_map(|t| t["name"].as_str().map(str::to_owned))
            .collect()
    }

    /// Its only binary.
    pub fn only_bin(&self) -> Result<String, String> {
        match self.targets("bin").as_slice() {
            [one] => Ok(one.clone()),
            other => Err(format!(
                "package `{}` has {} binaries; name one",
                self.name(),
                other.len()
            )),
        }
    }

    /// A feature it declares.
    pub fn feature(&self, name: &str) -> Result<(), String> {
        for feature in name.split(',') {
            if self.0["features"].get(feature).is_none() {
                return Err(format!(
                    "package `{}` has no feature `{feature}`",
                    self.name()
                ));
            }
        }
        Ok(())
    }
}
