//! Properties of containment and of the path scan, over generated commands.

use advisor_core::testing::{self, resolved};
use advisor_core::{Family, Gate, Platform, SandboxMode};
use family_workspace_denial::{NamedPaths, WorkspaceDenial};
use proptest::prelude::*;
use serde_json::json;

/// The gate's verdict for one `pwsh` command denied under `workspace-write`, root `D:\ws`.
fn verdict(command: &str, root: &str) -> Option<Gate> {
    let value = testing::foreground(
        1,
        "",
        "Access is denied.\r\n",
        Some(json!({"mode": "workspace-write", "denied": true, "enforcement": "partial"})),
    );
    let mut observation = testing::success(value, "[exit code: 1]");
    observation.arguments = json!({ "command": command });
    let finding = WorkspaceDenial.recognize(&observation)?;
    let env = resolved(Platform::Win32, SandboxMode::WorkspaceWrite, Some(root));
    Some(WorkspaceDenial.gate(&finding, &env))
}

/// Flips the case of the letters selected by `mask` (bit i → char i).
fn recase(s: &str, mask: u64) -> String {
    s.chars()
        .enumerate()
        .map(|(i, c)| {
            if mask >> (i % 64) & 1 == 1 {
                c.to_ascii_uppercase()
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect()
}

fn component() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9_-]{1,8}(\\.[a-z]{1,3})?"
}

fn separator() -> impl Strategy<Value = &'static str> {
    prop_oneof![Just("\\"), Just("/"), Just("\\\\")]
}

proptest! {
    #[test]
    fn any_spelling_of_a_descendant_is_inside(
        tail in prop::collection::vec((component(), separator()), 1..5),
        mask in any::<u64>(),
        first in separator(),
    ) {
        let mut path = recase(r"D:\ws", mask).replace('\\', first);
        for (name, sep) in &tail {
            path.push_str(sep);
            path.push_str(name);
        }
        prop_assert_eq!(verdict(&format!("Set-Content -Path {path} -Value x"), r"D:\ws"), Some(Gate::Speak));
    }

    #[test]
    fn a_sibling_sharing_the_prefix_is_outside(
        suffix in "[a-zA-Z0-9_-]{1,4}",
        tail in prop::collection::vec(component(), 1..4),
    ) {
        let path = format!(r"D:\ws{suffix}\{}", tail.join("\\"));
        prop_assert_eq!(
            verdict(&format!("Set-Content -Path {path} -Value x"), r"D:\ws"),
            Some(Gate::Decline("outside-root"))
        );
    }

    #[test]
    fn climbing_out_with_dot_dot_is_outside(
        depth in 1usize..4,
        tail in prop::collection::vec(component(), 1..3),
    ) {
        let down: Vec<String> = (0..depth).map(|i| format!("d{i}")).collect();
        let up = vec![".."; depth + 1];
        let path = format!(r"D:\ws\{}\{}\other\{}", down.join("\\"), up.join("\\"), tail.join("\\"));
        prop_assert_eq!(
            verdict(&format!("type {path}"), r"D:\ws"),
            Some(Gate::Decline("outside-root"))
        );
    }

    #[test]
    fn one_outside_path_anywhere_declines(
        inside in prop::collection::vec(component(), 1..4),
        at in 0usize..4,
    ) {
        let mut words: Vec<String> = inside.iter().map(|c| format!(r"D:\ws\{c}")).collect();
        let at = at.min(words.len());
        words.insert(at, r"C:\Windows\Temp\x".to_owned());
        prop_assert_eq!(
            verdict(&format!("Copy-Item {}", words.join(" ")), r"D:\ws"),
            Some(Gate::Decline("outside-root"))
        );
    }

    #[test]
    fn the_scan_never_panics(command in any::<String>()) {
        let mut named = NamedPaths::default();
        named.command(&command);
        named.argument(&command);
        named.word(&command);
        let _ = verdict(&command, r"D:\ws");
    }

    #[test]
    fn the_scan_never_panics_on_path_shaped_noise(command in r#"[A-Za-z:\\/ "'.;,&|<>()=\-]{0,64}"#) {
        let mut named = NamedPaths::default();
        named.command(&command);
        prop_assert!(named.paths.iter().all(|p| p.path.is_absolute()));
        let _ = verdict(&command, r"D:\ws");
    }
}
