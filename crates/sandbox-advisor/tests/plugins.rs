//! The client plugins this repository publishes (`hook::install::plugin`):
//! the committed files are the generator's, the launcher finds the binary
//! the way its doc says and lets a call through without one, and the
//! plugin's run of `hook` leaves an event to `hook install`'s handler.
//! `UPDATE_DOCS=1 cargo test -p sandbox-advisor --test plugins` rewrites the
//! committed files.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg(unix)]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use common::{BIN, repo_root, run_in};
use sandbox_advisor::hook::install::plugin::{self, MISSING};

const REGENERATE: &str = "UPDATE_DOCS=1 cargo test -p sandbox-advisor --test plugins";

/// Every file under the plugins' directories and the catalogues, relative to
/// the repository root.
fn committed(root: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut dirs = vec![root.join("plugins")];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                found.push(
                    path.strip_prefix(root)
                        .unwrap()
                        .to_string_lossy()
                        .into_owned(),
                );
            }
        }
    }
    for catalogue in [
        ".claude-plugin/marketplace.json",
        ".agents/plugins/marketplace.json",
    ] {
        if root.join(catalogue).exists() {
            found.push(catalogue.to_owned());
        }
    }
    found.sort();
    found
}

#[test]
fn the_committed_plugins_are_what_the_generator_writes() {
    let root = repo_root();
    let files = plugin::files();
    let update = std::env::var_os("UPDATE_DOCS").is_some_and(|v| v == "1");
    let mut stale = Vec::new();
    for file in &files {
        let path = root.join(&file.path);
        let old = std::fs::read_to_string(&path).unwrap_or_default();
        if old != file.text {
            if update {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, &file.text).unwrap();
            } else {
                stale.push(file.path.clone());
            }
        }
    }
    let mut generated: Vec<String> = files.iter().map(|f| f.path.clone()).collect();
    generated.sort();
    let extra: Vec<String> = committed(&root)
        .into_iter()
        .filter(|p| !generated.contains(p))
        .collect();
    assert!(
        stale.is_empty(),
        "the generated plugin files differ from the committed ones: {stale:?}; run `{REGENERATE}`"
    );
    assert!(
        extra.is_empty(),
        "files no generator writes lie among the plugins: {extra:?}"
    );
    // Each client has a plugin (Gemini CLI: an extension), each with its
    // manifest, hooks and launcher, and a catalogue where the client takes one.
    for needed in [
        ".claude-plugin/marketplace.json",
        "plugins/claude-code/.claude-plugin/plugin.json",
        "plugins/claude-code/hooks/hooks.json",
        "plugins/claude-code/hooks/sandbox-advisor.sh",
        ".agents/plugins/marketplace.json",
        "plugins/codex/.codex-plugin/plugin.json",
        "plugins/codex/hooks/hooks.json",
        "plugins/codex/hooks/sandbox-advisor.sh",
        "plugins/gemini-cli/gemini-extension.json",
        "plugins/gemini-cli/hooks/hooks.json",
        "plugins/gemini-cli/hooks/sandbox-advisor.sh",
    ] {
        assert!(generated.iter().any(|g| g == needed), "{needed}");
    }
}

/// The hooks each plugin mounts are the events and the matcher `hook install`
/// writes for that client, plus a new session's start.
#[test]
fn each_plugin_mounts_what_hook_install_mounts() {
    use sandbox_advisor::hook::install::CLIENTS;
    let with_plugin: Vec<_> = CLIENTS
        .iter()
        .copied()
        .filter(|c| c.plugin().is_some())
        .collect();
    let names: Vec<&str> = with_plugin.iter().map(|c| c.name()).collect();
    assert_eq!(
        names,
        ["Claude Code", "Codex", "Gemini CLI"],
        "the clients this repository ships a plugin for"
    );
    for client in with_plugin {
        let form = client.plugin().unwrap();
        let file = plugin::files()
            .into_iter()
            .find(|f| f.path == format!("{}/hooks/hooks.json", form.dir))
            .unwrap();
        let hooks: serde_json::Value = serde_json::from_str(&file.text).unwrap();
        let hooks = hooks["hooks"].as_object().unwrap();
        let mut events: Vec<&str> = hooks.keys().map(String::as_str).collect();
        let mut want: Vec<&str> = client.events().to_vec();
        want.push(form.session_start.0);
        events.sort_unstable();
        want.sort_unstable();
        assert_eq!(events, want, "{}", client.name());
        for event in client.events() {
            let group = &hooks[*event][0];
            assert_eq!(group["matcher"], client.matcher());
            assert_eq!(
                group["hooks"][0]["command"],
                format!("sh \"${{{}}}/hooks/sandbox-advisor.sh\"", form.root_var)
            );
        }
        let launcher = plugin::launcher(client);
        let dialect = client.dialect().as_str();
        assert!(
            launcher.contains(&format!(
                "exec \"$bin\" hook --dialect {dialect} --plugin\n"
            )),
            "{launcher}"
        );
    }
}

/// What the launcher did with one payload.
struct Launched {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs a plugin's launcher as the client does (`sh <launcher> [arg]`, the
/// payload on stdin) with only `path` on PATH and `home` as HOME.
fn launch(client: &str, arg: Option<&str>, path: &str, home: &Path, cwd: &Path) -> Launched {
    let launcher = repo_root().join(format!("plugins/{client}/hooks/sandbox-advisor.sh"));
    let mut command = Command::new("/bin/sh");
    command.arg(&launcher).args(arg);
    let out = command
        .current_dir(cwd)
        .env_clear()
        .env("PATH", path)
        .env("HOME", home)
        .env("XDG_STATE_HOME", home.join("state"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            // Not a payload the advisor can use: a run of the binary says so on stderr.
            let _ = child.stdin.take().unwrap().write_all(b"{}");
            child.wait_with_output()
        })
        .unwrap();
    Launched {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn link_binary(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    std::os::unix::fs::symlink(BIN, dir.join("sandbox-advisor")).unwrap();
}

#[test]
fn the_launcher_finds_the_binary_on_path_then_in_cargos_bin_and_lets_the_call_through_without_it() {
    let tmp = tempfile::tempdir().unwrap();
    let (home, cwd) = (tmp.path().join("home"), tmp.path().join("proj"));
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&cwd).unwrap();
    let system = "/usr/bin:/bin";
    for client in ["claude-code", "codex", "gemini-cli"] {
        let ran_binary = |l: &Launched| {
            l.code == 1
                && l.stdout.is_empty()
                && l.stderr
                    .contains(&format!("sandbox-advisor: {client} payload"))
        };
        // No binary anywhere: the call goes ahead (exit 0, nothing said)...
        let none = launch(client, None, system, &home, &cwd);
        assert_eq!(
            (none.code, none.stdout.as_str(), none.stderr.as_str()),
            (0, "", "")
        );
        // ...and a new session's start shows one line naming the install command.
        let start = launch(client, Some("session-start"), system, &home, &cwd);
        assert_eq!(start.code, 0);
        let said: serde_json::Value = serde_json::from_str(start.stdout.trim()).unwrap();
        assert_eq!(said, serde_json::json!({ "systemMessage": MISSING }));
        assert_eq!(start.stdout.lines().count(), 1);
        assert!(MISSING.contains("npm install -g sandbox-advisor"));
        // A relative PATH entry holding a `sandbox-advisor` (the project's own file) is not run.
        link_binary(&cwd.join("bin"));
        let relative = launch(client, None, &format!("bin:{system}"), &home, &cwd);
        assert_eq!(
            (relative.code, relative.stdout.as_str()),
            (0, ""),
            "{}",
            relative.stderr
        );
        // In cargo's bin directory: found.
        link_binary(&home.join(".cargo/bin"));
        let cargo = launch(client, None, system, &home, &cwd);
        assert!(ran_binary(&cargo), "{}", cargo.stderr);
        // Found, a session's start says nothing.
        let quiet = launch(client, Some("session-start"), system, &home, &cwd);
        assert_eq!((quiet.code, quiet.stdout.as_str()), (0, ""));
        std::fs::remove_dir_all(home.join(".cargo")).unwrap();
        // On PATH: found.
        let on_path = tmp.path().join("path-bin");
        if !on_path.exists() {
            link_binary(&on_path);
        }
        let path = launch(
            client,
            None,
            &format!("{}:{system}", on_path.display()),
            &home,
            &cwd,
        );
        assert!(ran_binary(&path), "{}", path.stderr);
        std::fs::remove_dir_all(cwd.join("bin")).unwrap();
    }
}

/// A Claude Code payload of `event` for a session in `cwd`.
fn claude_payload(event: &str, cwd: &Path) -> String {
    let mut payload = serde_json::json!({
        "session_id": "s-plugin",
        "cwd": cwd,
        "hook_event_name": event,
        "tool_name": "Bash",
        "tool_use_id": "toolu_1",
        "tool_input": { "command": "echo hi" },
    });
    match event {
        "PostToolUse" => {
            payload["tool_response"] = serde_json::json!({ "stdout": "hi", "stderr": "", "interrupted": false, "isImage": false });
        }
        "PostToolUseFailure" => payload["error"] = "Exit code 1\nno".into(),
        _ => {}
    }
    payload.to_string()
}

const DEFERS: &str = "silent: hook install's handler in this settings file answers this event too";

fn hook_with_home(home: &Path, cwd: &Path, args: &[&str], payload: String) -> common::Run {
    let mut command = Command::new(BIN);
    command
        .current_dir(cwd)
        .env("HOME", home)
        .env_remove("CLAUDE_PROJECT_DIR")
        .env_remove("CODEX_HOME")
        .env("XDG_STATE_HOME", home.join("state"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().unwrap();
    {
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(payload.as_bytes())
            .unwrap();
    }
    let out = child.wait_with_output().unwrap();
    common::Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[test]
fn the_plugins_hook_leaves_an_event_to_hook_installs_handler_and_install_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let (home, proj) = (tmp.path().join("home"), tmp.path().join("proj"));
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&proj).unwrap();
    let plugin_run = |event: &str| {
        hook_with_home(
            &home,
            &proj,
            &[
                "hook",
                "--dialect",
                "claude-code",
                "--plugin",
                "--log",
                "debug",
            ],
            claude_payload(event, &proj),
        )
    };
    // Alone, the plugin's hook decides.
    let alone = plugin_run("PostToolUse");
    assert_eq!(alone.code, 0, "{}", alone.stderr);
    assert!(!alone.stderr.contains(DEFERS), "{}", alone.stderr);
    // hook install in the project: the plugin's run of every event it mounted is silent, and says why.
    let installed = run_in(
        &proj,
        &[
            "hook",
            "install",
            "--client",
            "claude-code",
            "--project",
            proj.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(installed.code, 0, "{}", installed.stderr);
    for event in ["PreToolUse", "PostToolUse", "PostToolUseFailure"] {
        let deferred = plugin_run(event);
        assert_eq!((deferred.code, deferred.stdout.as_str()), (0, ""));
        assert!(
            deferred.stderr.contains(DEFERS),
            "{event}: {}",
            deferred.stderr
        );
    }
    // The same hook without --plugin (hook install's own) never defers.
    let own = hook_with_home(
        &home,
        &proj,
        &["hook", "--dialect", "claude-code", "--log", "debug"],
        claude_payload("PostToolUse", &proj),
    );
    assert!(!own.stderr.contains(DEFERS), "{}", own.stderr);
    // In the user's settings instead of the project's: the same.
    std::fs::remove_file(proj.join(".claude/settings.json")).unwrap();
    assert!(!plugin_run("PostToolUse").stderr.contains(DEFERS));
    let user = hook_with_home(
        &home,
        &proj,
        &["hook", "install", "--client", "claude-code", "--user"],
        String::new(),
    );
    assert_eq!(user.code, 0, "{}", user.stderr);
    assert!(plugin_run("PostToolUse").stderr.contains(DEFERS));
    // The plugin enabled too: install and --check say so, and where.
    let settings = home.join(".claude/settings.json");
    let mut value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    value["enabledPlugins"] = serde_json::json!({ "sandbox-advisor@sandbox-advisor": true });
    std::fs::write(&settings, value.to_string()).unwrap();
    for extra in [None, Some("--check")] {
        let mut args = vec!["hook", "install", "--client", "claude-code", "--user"];
        args.extend(extra);
        let said = hook_with_home(&home, &proj, &args, String::new());
        assert_eq!(said.code, 0, "{}", said.stderr);
        assert!(
            said.stdout
                .contains("plugin: the sandbox-advisor plugin is enabled too")
                && said.stdout.contains("sandbox-advisor@sandbox-advisor"),
            "{extra:?}: {}",
            said.stdout
        );
    }
}

#[test]
fn codex_install_check_names_the_enabled_plugin() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let codex_home: PathBuf = home.join(".codex");
    std::fs::create_dir_all(&codex_home).unwrap();
    std::fs::write(
        codex_home.join("config.toml"),
        "[plugins.\"sandbox-advisor@sandbox-advisor\"]\nenabled = true\n\n[plugins.\"other@x\"]\nenabled = true\n",
    )
    .unwrap();
    let check = hook_with_home(
        &home,
        tmp.path(),
        &[
            "hook",
            "install",
            "--client",
            "codex",
            "--user",
            "--check",
            "--codex",
            "/nonexistent/codex",
        ],
        String::new(),
    );
    assert!(
        check
            .stdout
            .contains("plugin: the sandbox-advisor plugin is enabled too")
            && check
                .stdout
                .contains("config.toml: sandbox-advisor@sandbox-advisor")
            && !check.stdout.contains("other@x"),
        "{}",
        check.stdout
    );
    // Turned off: not named.
    std::fs::write(
        codex_home.join("config.toml"),
        "[plugins.\"sandbox-advisor@sandbox-advisor\"]\nenabled = false\n",
    )
    .unwrap();
    let off = hook_with_home(
        &home,
        tmp.path(),
        &[
            "hook",
            "install",
            "--client",
            "codex",
            "--user",
            "--check",
            "--codex",
            "/nonexistent/codex",
        ],
        String::new(),
    );
    assert!(!off.stdout.contains("plugin:"), "{}", off.stdout);
}

/// README.md's install blocks name what this repository ships: each client's
/// commands with the marketplace's and the plugin's own names, the Gemini
/// extension's directory, the npm package's name and the CLI crate's.
#[test]
fn the_readme_installs_each_plugin() {
    let root = repo_root();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let json = |path: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(root.join(path)).unwrap()).unwrap()
    };
    let name = |v: &serde_json::Value| v["name"].as_str().unwrap().to_owned();
    let claude = json(".claude-plugin/marketplace.json");
    let codex = json(".agents/plugins/marketplace.json");
    let gemini = json("plugins/gemini-cli/gemini-extension.json");
    let npm = json("npm/sandbox-advisor/package.json");
    assert_eq!(name(&gemini), "sandbox-advisor");
    let want = [
        "claude plugin marketplace add <repo>".to_owned(),
        format!(
            "claude plugin install {}@{}",
            name(&claude["plugins"][0]),
            name(&claude)
        ),
        "codex plugin marketplace add <repo>".to_owned(),
        format!(
            "codex plugin add {}@{}",
            name(&codex["plugins"][0]),
            name(&codex)
        ),
        "gemini extensions install <repo>/plugins/gemini-cli".to_owned(),
        format!("npm install -g {}", name(&npm)),
        "cargo install sandbox-advisor --locked".to_owned(),
        "cargo install --path crates/sandbox-advisor --locked".to_owned(),
    ];
    for line in &want {
        assert!(
            readme.lines().any(|l| l == line),
            "README.md does not show `{line}`"
        );
    }
    let cli = std::fs::read_to_string(root.join("crates/sandbox-advisor/Cargo.toml")).unwrap();
    assert!(cli.contains("name = \"sandbox-advisor\""));
    assert!(
        root.join("plugins/gemini-cli/gemini-extension.json")
            .is_file()
    );
}
