//! The npm packages of the prebuilt binary (npm/) agree with each other, with
//! this binary's version and with the release workflow that builds them: one
//! platform package per directory, each an optional dependency of the launcher
//! at this version, each known to the launcher's table and built by one entry
//! of the workflow's matrix. (`.ci/npm-package.sh test` installs and runs them.)

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::repo_root;
use serde_json::Value;

fn json(path: &std::path::Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn the_npm_packages_agree_with_the_binary_the_launcher_and_the_release_matrix() {
    let root = repo_root();
    let version = env!("CARGO_PKG_VERSION");
    let main = json(&root.join("npm/sandbox-advisor/package.json"));
    assert_eq!(main["version"], version);
    assert_eq!(main["license"], env!("CARGO_PKG_LICENSE"));
    assert_eq!(main["bin"]["sandbox-advisor"], "bin/sandbox-advisor.js");
    let launcher =
        std::fs::read_to_string(root.join("npm/sandbox-advisor/bin/sandbox-advisor.js")).unwrap();
    let workflow = std::fs::read_to_string(root.join(".github/workflows/release.yml")).unwrap();
    let optional = main["optionalDependencies"].as_object().unwrap();
    let mut dirs: Vec<String> = std::fs::read_dir(root.join("npm/platforms"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    dirs.sort();
    assert_eq!(optional.len(), dirs.len(), "{optional:?} {dirs:?}");
    for dir in &dirs {
        let package = json(&root.join(format!("npm/platforms/{dir}/package.json")));
        let name = format!("@sandbox-advisor/{dir}");
        assert_eq!(package["name"], name.as_str());
        assert_eq!(package["version"], version, "{name}");
        assert_eq!(optional[&name], version, "{name}");
        let (os, cpu) = dir.split_once('-').unwrap();
        assert_eq!(package["os"], serde_json::json!([os]), "{name}");
        assert_eq!(package["cpu"], serde_json::json!([cpu]), "{name}");
        let exe = if os == "win32" {
            "bin/sandbox-advisor.exe"
        } else {
            "bin/sandbox-advisor"
        };
        assert_eq!(package["files"], serde_json::json!([exe]), "{name}");
        assert!(
            launcher.contains(&format!("'{os} {cpu}': '{name}',")),
            "the launcher has no entry for {name}"
        );
        assert_eq!(
            workflow
                .matches(&format!("- {{ npm: {dir}, target: "))
                .count(),
            1,
            "the release matrix builds {name} once"
        );
    }
    assert_eq!(
        workflow.matches("- { npm: ").count(),
        dirs.len(),
        "the release matrix builds a package npm/platforms has not"
    );
}
