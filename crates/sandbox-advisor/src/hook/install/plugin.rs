//! This repository as a plugin marketplace for each client that installs
//! hooks as plugins (Claude Code: `claude plugin marketplace add`, `claude
//! plugin install`; Codex: `codex plugin marketplace add`, `codex plugin
//! add`) or extensions (Gemini CLI: `gemini extensions install|link
//! plugins/gemini-cli`).
//!
//! **One definition.** A client's plugin mounts the advisor on the events
//! and the matcher its [`HookClient`] module names, and runs the binary with
//! the words [`Handler::arguments`] gives: what `hook install` writes, so the
//! two cannot drift. [`files`] is every file of every plugin; a test holds
//! the committed files equal to it (`UPDATE_DOCS=1 cargo test -p
//! sandbox-advisor --test plugins` rewrites them). A client has a plugin
//! when its module returns a [`PluginForm`]; adding one is that method.
//!
//! **The launcher.** Each hook runs `sh "<plugin root>/hooks/sandbox-advisor.sh"`,
//! a POSIX shell script written here with the client's dialect in it. It
//! looks for the binary in `PATH`'s absolute directories (a relative entry
//! would let the project's own files answer), then in cargo's bin directory (`$CARGO_HOME/bin`, else `~/.cargo/bin`), and runs `<bin>
//! hook --dialect <d> --plugin`. No `--mode`: a plugin cannot carry one, so
//! the mode comes from the client's own configuration when the hook can read
//! it, and a family that needs it withholds otherwise.
//!
//! **Without the binary** every event exits 0 with nothing on stdout, so
//! the call goes ahead, and the client's session-start event (a new session
//! only) answers `{"systemMessage": MISSING}`, which each interactive client
//! shows the user as one line (Claude Code: `SessionStart:startup says: …`;
//! Codex: `Hook · …`; Gemini CLI: an info line, its Markdown rendered;
//! measured with each client's interface). Headless Gemini CLI prints it only
//! on stderr. None shows it to the model.
//!
//! **Not twice.** With `--plugin`, `hook` stays silent for an event whose
//! settings file (the user's or the project's, the files `hook install`
//! writes) also holds the advisor's handler for that event: the client runs
//! both, and the user's own install (which may carry `--mode` and
//! `--config`) answers. `hook install` and `--check` say when the plugin is
//! enabled too.

use std::path::{Path, PathBuf};

use advisor_core::quote::escaped;
use serde_json::{Value, json};

use super::client::{CLIENTS, HookClient};
use super::handler::Handler;
use super::{Scope, mounted};

/// The plugin's name in every client, and the marketplace's.
pub const NAME: &str = "sandbox-advisor";

/// The plugin's hooks file, relative to its directory (both clients' default).
pub const HOOKS_FILE: &str = "hooks/hooks.json";

/// The launcher, relative to the plugin's directory.
pub const LAUNCHER: &str = "hooks/sandbox-advisor.sh";

/// The launcher's argument on the session-start event.
pub const SESSION_START_ARG: &str = "session-start";

/// The one line a session shows when no binary is found.
pub const MISSING: &str = "sandbox-advisor: the plugin found no sandbox-advisor binary on PATH or \
     in ~/.cargo/bin, so this session runs without the advisor. Install it with `npm install -g \
     sandbox-advisor`, then start a new session.";

/// What the manifests say about the plugin.
#[derive(Debug, Clone, Copy)]
pub struct Meta {
    /// The plugin's and the marketplace's name.
    pub name: &'static str,
    /// The plugin's version: the binary's.
    pub version: &'static str,
    /// One sentence.
    pub description: &'static str,
    /// An SPDX expression.
    pub license: &'static str,
    /// Who publishes it.
    pub author: &'static str,
}

/// The plugin's facts, once for every client.
pub const META: Meta = Meta {
    name: NAME,
    version: env!("CARGO_PKG_VERSION"),
    description: "When a sandboxed command fails because of the sandbox, tells the model the \
                  cause, the check that confirms it and the remedy, once per kind of failure.",
    license: env!("CARGO_PKG_LICENSE"),
    author: "sandbox-advisor contributors",
};

/// How one client takes a plugin from this repository.
#[derive(Debug, Clone, Copy)]
pub struct PluginForm {
    /// The plugin's directory, relative to the repository root.
    pub dir: &'static str,
    /// The environment variable the client sets, in a plugin's hook, to the
    /// installed plugin's root.
    pub root_var: &'static str,
    /// The client's session-start event and the matcher that selects a new
    /// session's start (not a resumed or compacted one).
    pub session_start: (&'static str, &'static str),
    /// The client's catalogue and manifest: each path (relative to the
    /// repository root) and its JSON.
    pub manifests: fn(&Meta, &PluginForm) -> Vec<(String, Value)>,
}

/// One generated file: its path relative to the repository root, and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct File {
    /// Where it goes, `/`-separated.
    pub path: String,
    /// What it holds.
    pub text: String,
}

/// Every file of every client's plugin.
pub fn files() -> Vec<File> {
    let mut out = Vec::new();
    for client in CLIENTS {
        let Some(form) = client.plugin() else {
            continue;
        };
        for (path, value) in (form.manifests)(&META, &form) {
            out.push(File {
                path,
                text: pretty(&value),
            });
        }
        out.push(File {
            path: format!("{}/{HOOKS_FILE}", form.dir),
            text: pretty(&hooks(client, &form)),
        });
        out.push(File {
            path: format!("{}/{LAUNCHER}", form.dir),
            text: launcher(client),
        });
    }
    out
}

fn pretty(value: &Value) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

/// The command a hook of the plugin runs, with `arg` after the launcher.
pub fn hook_command(form: &PluginForm, arg: Option<&str>) -> String {
    let mut command = format!("sh \"${{{}}}/{LAUNCHER}\"", form.root_var);
    if let Some(arg) = arg {
        command.push(' ');
        command.push_str(arg);
    }
    command
}

/// The hooks file: the session-start hint, then one group per event
/// `hook install` writes, in its shape.
fn hooks(client: &dyn HookClient, form: &PluginForm) -> Value {
    let group = |matcher: &str, command: String| json!([{ "matcher": matcher, "hooks": [{ "type": "command", "command": command }] }]);
    let mut events = serde_json::Map::new();
    let (start, new_session) = form.session_start;
    events.insert(
        start.to_owned(),
        group(new_session, hook_command(form, Some(SESSION_START_ARG))),
    );
    for event in client.events() {
        events.insert(
            (*event).to_owned(),
            group(client.matcher(), hook_command(form, None)),
        );
    }
    json!({ "hooks": events })
}

/// The launcher for `client` (module doc).
pub fn launcher(client: &dyn HookClient) -> String {
    let handler = Handler {
        bin: String::new(),
        dialect: client.dialect(),
        mode: None,
        config: None,
    };
    let run = handler.arguments().join(" ");
    let hint = serde_json::to_string(&json!({ "systemMessage": MISSING })).unwrap_or_default();
    format!(
        r#"#!/bin/sh
# The sandbox-advisor plugin's hook for {name}. Generated by
# crates/sandbox-advisor/src/hook/install/plugin.rs; edit that, not this.
#
# Finds the binary in PATH's absolute directories, then in cargo's bin
# directory. Without one the call goes ahead: nothing on stdout, exit 0, and
# the session's start shows one line naming the install command.
bin=
set -f
IFS=:
for dir in $PATH; do
  case $dir in
    /*) if [ -f "$dir/sandbox-advisor" ] && [ -x "$dir/sandbox-advisor" ]; then
          bin=$dir/sandbox-advisor
          break
        fi ;;
  esac
done
unset IFS
if [ -z "$bin" ]; then
  bin=${{CARGO_HOME:-$HOME/.cargo}}/bin/sandbox-advisor
  [ -f "$bin" ] && [ -x "$bin" ] || bin=
fi
if [ "${{1:-}}" = {start} ]; then
  [ -n "$bin" ] || printf '%s\n' '{hint}'
  exit 0
fi
[ -n "$bin" ] || exit 0
exec "$bin" {run} --plugin
"#,
        name = client.name(),
        start = SESSION_START_ARG,
    )
}

/// For the plugin's run of `hook`: the settings file where `hook install`'s
/// handler answers this payload's event too, if any.
pub fn install_answers(
    dialect: crate::hook::Dialect,
    payload: &crate::hook::payload::Payload,
) -> Option<std::path::PathBuf> {
    let client = super::client::of(dialect)?;
    let projects = client.project_dirs(payload.cwd.as_deref());
    mounted_by_install(client, payload.event.name, &projects)
}

/// When `hook install`'s handler for `event` is mounted in a settings file
/// the client reads for a session in `project`: that file. The plugin's run
/// of `hook` then stays silent (module doc). A file that cannot be read
/// counts as not holding it.
pub fn mounted_by_install(
    client: &dyn HookClient,
    event: &str,
    project: &[PathBuf],
) -> Option<PathBuf> {
    let scopes = std::iter::once(Scope::User).chain(project.iter().cloned().map(Scope::Project));
    scopes.into_iter().find_map(|scope| {
        let place = client.place(&scope).ok()?;
        let found = mounted(client, &place).ok()?;
        found
            .events
            .iter()
            .any(|(e, commands)| *e == event && !commands.is_empty())
            .then_some(found.path)
    })
}

/// The plugin's id as a client lists it: `sandbox-advisor@<marketplace>`.
pub fn is_ours(id: &str) -> bool {
    id.split_once('@').is_some_and(|(name, _)| name == NAME)
}

/// The manifest files of a Claude Code plugin directory in this repository.
pub fn claude_code_manifests(meta: &Meta, form: &PluginForm) -> Vec<(String, Value)> {
    vec![
        (
            ".claude-plugin/marketplace.json".into(),
            json!({
                "name": meta.name,
                "description": "sandbox-advisor's plugin for Claude Code.",
                "owner": { "name": meta.author },
                "plugins": [{
                    "name": meta.name,
                    "source": format!("./{}", form.dir),
                    "description": meta.description,
                    "version": meta.version,
                }],
            }),
        ),
        (
            format!("{}/.claude-plugin/plugin.json", form.dir),
            json!({
                "name": meta.name,
                "version": meta.version,
                "description": meta.description,
                "author": { "name": meta.author },
                "license": meta.license,
                "keywords": ["sandbox", "hooks", "bubblewrap"],
            }),
        ),
    ]
}

/// The manifest files of a Codex plugin directory in this repository.
pub fn codex_manifests(meta: &Meta, form: &PluginForm) -> Vec<(String, Value)> {
    vec![
        (
            ".agents/plugins/marketplace.json".into(),
            json!({
                "name": meta.name,
                "interface": { "displayName": meta.name },
                "plugins": [{
                    "name": meta.name,
                    "source": { "source": "local", "path": format!("./{}", form.dir) },
                    "policy": { "installation": "AVAILABLE", "authentication": "ON_INSTALL" },
                    "category": "Coding",
                }],
            }),
        ),
        (
            format!("{}/.codex-plugin/plugin.json", form.dir),
            json!({
                "name": meta.name,
                "version": meta.version,
                "description": meta.description,
                "author": { "name": meta.author },
                "license": meta.license,
                "keywords": ["sandbox", "hooks", "bubblewrap"],
            }),
        ),
    ]
}

/// The manifest of a Gemini CLI extension directory in this repository
/// (its hooks are the directory's `hooks/hooks.json`).
pub fn gemini_cli_manifests(meta: &Meta, form: &PluginForm) -> Vec<(String, Value)> {
    vec![(
        format!("{}/gemini-extension.json", form.dir),
        json!({
            "name": meta.name,
            "version": meta.version,
            "description": meta.description,
        }),
    )]
}

/// The project directories whose settings a client reads for a hook run in
/// `cwd`: `cwd`, and `extra` (a client's own variable) when set and other.
pub fn project_dirs(cwd: Option<&str>, extra: Option<PathBuf>) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = cwd.map(PathBuf::from).into_iter().collect();
    if let Some(extra) = extra.filter(|e| !dirs.iter().any(|d| d == e)) {
        dirs.push(extra);
    }
    dirs.retain(|d| d.is_absolute());
    dirs
}

/// `path` shown for people.
pub fn shown(path: &Path) -> String {
    escaped(&path.to_string_lossy()).to_string()
}

/// The ids of this repository's plugin that the JSON settings file at
/// `place` enables (`"enabledPlugins": {"sandbox-advisor@…": true}`), each
/// as `<file>: <id>`. Nothing when the file is absent or cannot be read.
pub fn enabled_in_settings(place: &super::Place) -> Vec<String> {
    let Ok(opened) = super::file::open(place) else {
        return Vec::new();
    };
    let Some(value) = opened
        .text()
        .and_then(|t| serde_json::from_str::<Value>(t).ok())
    else {
        return Vec::new();
    };
    let Some(enabled) = value.get("enabledPlugins").and_then(Value::as_object) else {
        return Vec::new();
    };
    enabled
        .iter()
        .filter(|(id, on)| is_ours(id) && on.as_bool() == Some(true))
        .map(|(id, _)| format!("{}: {}", shown(opened.path()), escaped(id)))
        .collect()
}

/// The ids of this repository's plugin that Codex's `config.toml` at
/// `place` enables (`[plugins."sandbox-advisor@…"]` without `enabled =
/// false`), each as `<file>: <id>`. Nothing when absent or unreadable.
pub fn enabled_in_codex_config(place: &super::Place) -> Vec<String> {
    let Ok(opened) = super::file::open(place) else {
        return Vec::new();
    };
    let Some(table) = opened.text().and_then(|t| t.parse::<toml::Table>().ok()) else {
        return Vec::new();
    };
    let Some(plugins) = table.get("plugins").and_then(toml::Value::as_table) else {
        return Vec::new();
    };
    plugins
        .iter()
        .filter(|(id, entry)| {
            is_ours(id) && entry.get("enabled").and_then(toml::Value::as_bool) != Some(false)
        })
        .map(|(id, _)| format!("{}: {}", shown(opened.path()), escaped(id)))
        .collect()
}
