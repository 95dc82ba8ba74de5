//! The settings rules, each with the case that must not pass for it.

use super::*;

/// A scratch home, workspace and system directory, and Gemini's environment.
struct Scratch {
    root: PathBuf,
    env: Env,
}

impl Scratch {
    fn new(name: &str) -> Self {
        let root =
            std::env::temp_dir().join(format!("sa-gemini-settings-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for dir in ["home/.gemini", "proj/.gemini", "etc"] {
            std::fs::create_dir_all(root.join(dir)).expect("mkdir");
        }
        let mut env = Env::new();
        env.insert("HOME".into(), root.join("home").display().to_string());
        env.insert(
            "GEMINI_CLI_SYSTEM_SETTINGS_PATH".into(),
            root.join("etc/settings.json").display().to_string(),
        );
        Self { root, env }
    }

    fn write(&self, file: &str, text: &str) -> &Self {
        std::fs::write(self.root.join(file), text).expect("write");
        self
    }

    fn user(&self, text: &str) -> &Self {
        self.write("home/.gemini/settings.json", text)
    }

    fn workspace(&self, text: &str) -> &Self {
        self.write("proj/.gemini/settings.json", text)
    }

    fn read(&self) -> GeminiSettings {
        read(&self.env, None, Some(&self.root.join("proj")), false)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

const ON: &str = r#"{"security": {"toolSandboxing": true}}"#;

#[test]
#[cfg_attr(
    not(unix),
    ignore = "off Unix no file is read: see off_unix_nothing_is_known"
)]
fn the_user_file_turns_the_tool_sandbox_on_with_comments() {
    let s = Scratch::new("user");
    assert_eq!(s.read().tool_sandbox, GeminiToolSandbox::Off, "the default");
    s.user("// mine\n{\"security\": {/* here */ \"toolSandboxing\": true}, \"x\": \"a//b\"}");
    let got = s.read();
    assert_eq!(got.tool_sandbox, GeminiToolSandbox::On);
    assert_eq!(got.cli_sandbox, GeminiCliSandbox::Off);
    assert_eq!(got.yolo, GeminiYolo::Allowed);
    s.user(r#"{"security": {"toolSandboxing": false}}"#);
    assert_eq!(s.read().tool_sandbox, GeminiToolSandbox::Off);
    s.user(r#"{"security": {"toolSandboxing": "$ON"}}"#);
    assert_eq!(s.read().tool_sandbox, GeminiToolSandbox::Unknown);
}

#[test]
fn an_unreadable_or_linked_file_is_unknown() {
    let s = Scratch::new("unreadable");
    s.user("{\"security\": {\"toolSandboxing\": true,}}");
    assert_eq!(
        s.read(),
        GeminiSettings {
            cli_sandbox: GeminiCliSandbox::OnOrUnknown,
            ..GeminiSettings::UNKNOWN
        }
    );
    s.user("[1]");
    assert_eq!(s.read().tool_sandbox, GeminiToolSandbox::Unknown);
    s.write("elsewhere.json", ON);
    std::fs::remove_file(s.root.join("home/.gemini/settings.json")).expect("rm");
    #[cfg(unix)]
    std::os::unix::fs::symlink(
        s.root.join("elsewhere.json"),
        s.root.join("home/.gemini/settings.json"),
    )
    .expect("link");
    assert_eq!(
        s.read().tool_sandbox,
        GeminiToolSandbox::Unknown,
        "a link is not followed"
    );
}

#[test]
#[cfg_attr(
    not(unix),
    ignore = "off Unix no file is read: see off_unix_nothing_is_known"
)]
fn the_system_file_overrides_the_user_and_defaults_lie_beneath() {
    let s = Scratch::new("system");
    s.user(ON);
    s.write(
        "etc/settings.json",
        r#"{"security": {"toolSandboxing": false}}"#,
    );
    assert_eq!(s.read().tool_sandbox, GeminiToolSandbox::Off);
    s.write("etc/settings.json", "{}");
    s.write(
        "etc/system-defaults.json",
        r#"{"security": {"toolSandboxing": false, "disableYoloMode": true}}"#,
    );
    let got = s.read();
    assert_eq!(
        (got.tool_sandbox, got.yolo),
        (GeminiToolSandbox::On, GeminiYolo::Disabled)
    );
}

#[test]
#[cfg_attr(
    not(unix),
    ignore = "off Unix no file is read: see off_unix_nothing_is_known"
)]
fn an_untrusted_workspace_cannot_turn_it_on() {
    let s = Scratch::new("untrusted");
    s.workspace(ON);
    // No trustedFolders.json: untrusted, the file is ignored.
    assert_eq!(s.read().tool_sandbox, GeminiToolSandbox::Off);
    // A trustedFolders.json the advisor does not evaluate: the workspace decides, unknown.
    s.write("home/.gemini/trustedFolders.json", "{}");
    assert_eq!(s.read().tool_sandbox, GeminiToolSandbox::Unknown);
    // Trusted: folder trust off in the user's settings, or Gemini's environment.
    s.user(r#"{"security": {"folderTrust": {"enabled": false}}}"#);
    assert_eq!(s.read().tool_sandbox, GeminiToolSandbox::On);
    // The workspace's own file cannot turn folder trust off.
    s.user("{}");
    s.workspace(r#"{"security": {"toolSandboxing": true, "folderTrust": {"enabled": false}}}"#);
    assert_eq!(s.read().tool_sandbox, GeminiToolSandbox::Unknown);
    let mut trusted = Scratch::new("trusted-env");
    trusted.workspace(ON);
    trusted
        .env
        .insert("GEMINI_CLI_TRUST_WORKSPACE".into(), "true".into());
    assert_eq!(trusted.read().tool_sandbox, GeminiToolSandbox::On);
    trusted
        .env
        .insert("GEMINI_RESTRICTED_MODE".into(), "true".into());
    assert_eq!(trusted.read().tool_sandbox, GeminiToolSandbox::Off);
}

#[test]
#[cfg_attr(
    not(unix),
    ignore = "off Unix no file is read: see off_unix_nothing_is_known"
)]
fn a_whole_cli_sandbox_in_any_form() {
    let s = Scratch::new("cli");
    s.user(ON);
    assert_eq!(s.read().cli_sandbox, GeminiCliSandbox::Off);
    for setting in [r#"true"#, r#""docker""#, r#"{"enabled": true}"#, r#""$S""#] {
        s.user(&format!(
            r#"{{"security": {{"toolSandboxing": true}}, "tools": {{"sandbox": {setting}}}}}"#
        ));
        assert_eq!(
            s.read().cli_sandbox,
            GeminiCliSandbox::OnOrUnknown,
            "{setting}"
        );
    }
    for setting in [
        r#"false"#,
        r#"null"#,
        r#"{"enabled": false, "command": "docker"}"#,
    ] {
        s.user(&format!(r#"{{"tools": {{"sandbox": {setting}}}}}"#));
        assert_eq!(s.read().cli_sandbox, GeminiCliSandbox::Off, "{setting}");
    }
    assert_eq!(
        read(&s.env, None, Some(&s.root.join("proj")), true).cli_sandbox,
        GeminiCliSandbox::OnOrUnknown,
        "-s on the command line"
    );
    for var in ["GEMINI_SANDBOX", "SANDBOX"] {
        let mut env = s.env.clone();
        env.insert(var.into(), "docker".into());
        assert_eq!(
            read(&env, None, Some(&s.root.join("proj")), false).cli_sandbox,
            GeminiCliSandbox::OnOrUnknown,
            "{var}"
        );
    }
}

#[test]
#[cfg_attr(
    not(unix),
    ignore = "off Unix no file is read: see off_unix_nothing_is_known"
)]
fn yolo_forbidden_only_by_the_security_setting() {
    let s = Scratch::new("yolo");
    s.user(r#"{"security": {"disableYoloMode": true}}"#);
    assert_eq!(s.read().yolo, GeminiYolo::Disabled);
    s.user(r#"{"admin": {"secureModeEnabled": true}}"#);
    assert_eq!(
        s.read().yolo,
        GeminiYolo::Allowed,
        "remote admin settings replace `admin`"
    );
    s.user(r#"{"security": {"disableYoloMode": 1}}"#);
    assert_eq!(s.read().yolo, GeminiYolo::Unknown);
}

#[test]
fn comments_are_blanked_outside_strings_only() {
    assert_eq!(
        strip_comments(r#"{"a": "//x", /* c */ "b": 1} // t"#),
        r#"{"a": "//x",   "b": 1} "#
    );
    assert_eq!(strip_comments(r#"{"a": "\"//"}"#), r#"{"a": "\"//"}"#);
}

/// Off Unix the no-follow read is not written (files.rs), so a file that
/// would turn the tool sandbox on leaves every fact unknown.
#[cfg(not(unix))]
#[test]
fn off_unix_nothing_is_known() {
    let s = Scratch::new("off-unix");
    s.user(ON);
    assert_eq!(s.read(), GeminiSettings::UNKNOWN);
}

/// A settings file over [`SETTINGS_MAX_BYTES`] is not read: what it says is
/// unknown, though the same text one byte shorter turns the sandbox on.
#[test]
#[cfg_attr(
    not(unix),
    ignore = "off Unix no file is read: see off_unix_nothing_is_known"
)]
fn a_settings_file_over_its_bound_is_unknown() {
    let s = Scratch::new("bound");
    let fits = ON.to_owned() + &" ".repeat(SETTINGS_MAX_BYTES as usize - ON.len());
    s.user(&fits);
    assert_eq!(s.read().tool_sandbox, GeminiToolSandbox::On, "at the bound");
    s.user(&format!("{fits} "));
    assert_eq!(s.read().tool_sandbox, GeminiToolSandbox::Unknown, "over it");
}

/// Gemini's environment is read up to [`ENVIRON_MAX_BYTES`]; a process whose
/// environment is larger gives none, never a part of it.
#[cfg(target_os = "linux")]
#[test]
fn an_environment_over_its_bound_is_not_read() {
    // One variable may hold at most 128 KiB (MAX_ARG_STRLEN): pad with several.
    let spawn = |pads: usize| {
        let mut cmd = std::process::Command::new("sleep");
        cmd.arg("5").env_clear().env("GEMINI_SANDBOX", "false");
        for i in 0..pads {
            cmd.env(format!("PAD{i}"), "x".repeat(64 * 1024));
        }
        cmd.spawn().expect("spawn sleep")
    };
    let mut small = spawn(1);
    let got = environ(small.id());
    let _ = small.kill();
    let _ = small.wait();
    assert_eq!(
        got.as_ref()
            .and_then(|env| env.get("GEMINI_SANDBOX"))
            .map(String::as_str),
        Some("false")
    );
    let mut big = spawn(ENVIRON_MAX_BYTES as usize / (64 * 1024) + 1);
    let got = environ(big.id());
    let _ = big.kill();
    let _ = big.wait();
    assert_eq!(got, None, "over the bound");
}
