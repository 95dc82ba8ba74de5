//! `sandbox_advisor::cli` as a library: the same commands run in process over
//! any registry, with the streams injected and the exit status returned.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use advisor_core::RegistryBuilder;
use sandbox_advisor::cli::{Exit, Io, run_with_args};
use third_party_family::EgressBlocked;

/// What one in-process run produced.
struct Ran {
    exit: Exit,
    stdout: String,
    stderr: String,
}

/// Runs `sandbox-advisor <args>` in process with `registry` and `stdin`.
fn check(registry: RegistryBuilder, args: &[&str], stdin: &str) -> Ran {
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let exit = run_with_args(
        registry,
        std::iter::once("sandbox-advisor").chain(args.iter().copied()),
        Io {
            stdin: Box::new(stdin.as_bytes()),
            stdout: Box::new(&mut stdout),
            stderr: Box::new(&mut stderr),
            stdout_is_terminal: false,
        },
    );
    Ran {
        exit,
        stdout: String::from_utf8(stdout).unwrap(),
        stderr: String::from_utf8(stderr).unwrap(),
    }
}

fn with_egress() -> RegistryBuilder {
    host_adapter::standard_registry().family(EgressBlocked)
}

#[test]
fn an_added_family_is_listed_and_explained() {
    let ran = check(with_egress(), &["families", "--format", "json"], "");
    assert_eq!(ran.exit, Exit::Success, "{}", ran.stderr);
    let listed: Vec<serde_json::Value> = serde_json::from_str(&ran.stdout).unwrap();
    assert_eq!(listed.last().unwrap()["id"], "egress-blocked");

    let ran = check(
        with_egress(),
        &[
            "explain",
            "--mode",
            "workspace-write",
            "egress-guard: blocked example.org",
        ],
        "",
    );
    assert_eq!(ran.exit, Exit::Success, "{}", ran.stderr);
    assert!(
        ran.stdout
            .starts_with("egress-blocked recognizes this and speaks"),
        "{}",
        ran.stdout
    );
    // Without the family nothing recognizes the line.
    let ran = check(
        host_adapter::standard_registry(),
        &[
            "explain",
            "--mode",
            "workspace-write",
            "egress-guard: blocked example.org",
        ],
        "",
    );
    assert_eq!(ran.exit, Exit::NothingToReport);
}

#[test]
fn serve_reads_the_injected_stdin_and_writes_the_injected_stdout() {
    let input = concat!(
        r#"{"type":"hello","protocol":1}"#,
        "\n",
        r#"{"type":"sandbox-mode","session":"s1","mode":"workspace-write"}"#,
        "\n",
        r#"{"type":"post","agent":"a1","session":"s1","call":"c1","tool":"fetch","error":{"message":"egress-guard: blocked example.org"}}"#,
        "\n",
    );
    let ran = check(with_egress(), &["--log", "off", "serve"], input);
    assert_eq!(ran.exit, Exit::Success, "{}", ran.stderr);
    let lines: Vec<serde_json::Value> = ran
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{}", ran.stdout);
    assert_eq!(lines[1]["advisories"][0]["family"], "egress-blocked");
}

#[test]
fn help_is_an_answer_and_a_usage_error_is_exit_2_on_stderr() {
    let help = check(host_adapter::standard_registry(), &["--help"], "");
    assert_eq!(help.exit, Exit::Success);
    assert!(
        help.stdout.contains("Usage: sandbox-advisor"),
        "{}",
        help.stdout
    );
    assert!(help.stderr.is_empty());

    let wrong = check(
        host_adapter::standard_registry(),
        &["explain", "--mode", "full", "x"],
        "",
    );
    assert_eq!((wrong.exit, wrong.exit.code()), (Exit::Usage, 2));
    assert!(wrong.stdout.is_empty());
    assert!(wrong.stderr.contains("full"), "{}", wrong.stderr);
}

#[test]
fn a_registry_that_cannot_be_built_is_a_usage_error_naming_the_family() {
    for command in [
        &["families"][..],
        &["explain", "x"],
        &["replay", "-"],
        &["serve"],
    ] {
        let ran = check(with_egress().family(EgressBlocked), command, "");
        assert_eq!(ran.exit, Exit::Usage, "{command:?}");
        assert!(ran.stdout.is_empty(), "{command:?}: {}", ran.stdout);
        assert!(
            ran.stderr
                .contains("registry: family id `egress-blocked` is registered twice"),
            "{command:?}: {}",
            ran.stderr
        );
    }
}
