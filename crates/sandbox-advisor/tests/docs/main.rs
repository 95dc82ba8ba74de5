//! Every command and code block in README.md and docs/ is executed or
//! checked against what it shows, so the documentation cannot drift from
//! the build.
//!
//! A block's check is written on the line above it as
//! `<!-- check: … -->` (the kinds: `checks.rs`); a `sh` block needs none:
//! each of its commands runs in a private sandbox (`sandbox-advisor`, and
//! the programs this build made), or, when running it would install a tool
//! or take minutes (a benchmark, a fuzz run, `npm ci`), has every name it
//! uses checked: the package, target, feature, script or pinned version.
//! `cargo xtask …` lines are parsed by xtask's own test, `docs_commands_parse`.
//!
//! Unix only: the documented commands are POSIX shell lines (`$HOME`, `/`
//! paths, `sh` blocks), and the sandbox links the repository's directories
//! in with symbolic links, which an unprivileged Windows user cannot make.
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod answers;
mod checks;
mod markdown;
mod sandbox;
mod shell;
mod workspace;

use std::path::PathBuf;

use markdown::Block;
use shell::Session;
use workspace::Workspace;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Checks one block in a fresh sandbox; `Err` names what is wrong.
fn check(block: &Block, ws: &Workspace) -> Result<Vec<String>, String> {
    let root = root();
    let (check, with) = checks::of(block)?;
    let mut session = Session::new(&root, ws);
    for (name, content) in &with {
        session.sandbox.write(name, content)?;
    }
    checks::run(block, &check, &mut session)?;
    Ok(session.skipped)
}

/// Checks a command named in prose: its names exist, and a `sandbox-advisor`
/// one parses (`--help` appended).
fn mention(command: &str, ws: &Workspace) -> Result<(), String> {
    let root = root();
    let mut session = Session::new(&root, ws);
    session.mention = true;
    session.check(&shell::parse(command)?)
}

#[test]
fn every_documented_command_and_block_holds() {
    let root = root();
    let ws = Workspace::load(&root);
    let mut failures = Vec::new();
    let mut count = 0;
    for file in markdown::doc_files(&root) {
        let name = file
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let text = std::fs::read_to_string(&file).unwrap();
        for (line, command) in markdown::prose_commands(&text) {
            count += 1;
            if let Err(e) = mention(&command, &ws) {
                failures.push(format!("{name}:{line}: `{command}`: {e}"));
            }
        }
        for block in markdown::blocks(&name, &text) {
            count += 1;
            match check(&block, &ws) {
                Ok(skipped) => {
                    for s in skipped {
                        eprintln!(
                            "{}: skipped `sandbox-advisor {s}`: no redis-server",
                            block.at
                        );
                    }
                }
                Err(e) => failures.push(format!("{}: {e}", block.at)),
            }
        }
    }
    assert!(count >= 30, "only {count} blocks found");
    assert!(
        failures.is_empty(),
        "{} of {count} blocks and commands fail:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// A stale or unchecked block is refused: each case is a document whose one
/// block must fail, with the words the failure must contain.
#[test]
fn a_block_that_no_longer_holds_fails() {
    let ws = Workspace::load(&root());
    let cases = [
        ("```sh\nsandbox-advisor explain --mdoe x\n```\n", "exited 2"),
        (
            "```sh\ncargo bench -p sandbox-advisor-host-adapter --bench nothing\n```\n",
            "no bench target `nothing`",
        ),
        (
            "```sh\ncargo test -p no-such-package\n```\n",
            "no workspace package",
        ),
        (
            "```sh\ncargo run -p sandbox-advisor-host-adapter --example gone\n```\n",
            "no example target `gone`",
        ),
        (
            "```sh\ncurl https://example.org\n```\n",
            "no check runs `curl`",
        ),
        (
            "```sh\ncd bindings/node && npm run nothing\n```\n",
            "no script `nothing`",
        ),
        (
            "```sh\ncargo install --locked gungraun-runner --version 0.1.0\n```\n",
            "pins another version",
        ),
        (
            "```sh\nRUSTC_BOOTSTRAP=1 cargo fuzz run -s none nothing\n```\n",
            "no fuzz target `nothing`",
        ),
        ("```sh\nif then\n```\n", "not valid shell"),
        ("```text\nanything\n```\n", "needs a `<!-- check: … -->`"),
        (
            "<!-- check: output of `sandbox-advisor families` -->\n```text\nno-such-family\n```\n",
            "no longer prints this",
        ),
        (
            "<!-- check: part of bindings/node/cordis.patch.yml -->\n```yaml\nenforceAfter: 7\n```\n",
            "does not hold",
        ),
        (
            "<!-- check: file crates/host-adapter/examples/acl.rs -->\n```rust\nfn main() {}\n```\n",
            "differs",
        ),
        (
            "<!-- check: api of crates/host-adapter/src/dsh -->\n```rust,ignore\nadvisor.no_such_method();\n```\n",
            "`no_such_method`",
        ),
        (
            "<!-- check: config -->\n```json\n{\"maxDenial\": 2}\n```\n",
            "--config refuses it",
        ),
        (
            "<!-- check: lines of examples/sessions -->\n```json\n{\"type\":\"host\",\"platform\":\"plan9\"}\n```\n",
            "no such line",
        ),
        (
            "<!-- check: answers of `sandbox-advisor replay examples/sessions/windows-acl.jsonl` -->\n```json\n{\"seq\":1,\"type\":\"post\",\"advisories\":[…]}\n```\n",
            "no printed line of this type",
        ),
        (
            "<!-- check: keys of `sandbox-advisor scan --format json examples/transcripts` -->\n```text\n\"schema\", \"nope\"\n```\n",
            "`nope`",
        ),
        ("```json\n{\"a\": 1,}\n```\n", "not JSON"),
        (
            "<!-- check: checked by crates/sandbox-advisor/tests/scan.rs::no_such_test -->\n```json\n{}\n```\n",
            "no test",
        ),
    ];
    for (doc, want) in cases {
        let blocks = markdown::blocks("case.md", doc);
        assert_eq!(blocks.len(), 1, "{doc}");
        match check(&blocks[0], &ws) {
            Ok(_) => panic!("passed, but must fail with `{want}`:\n{doc}"),
            Err(e) => assert!(e.contains(want), "failed with\n{e}\nnot `{want}`:\n{doc}"),
        }
    }
}

/// A command named in prose is held to its names too, and parsed.
#[test]
fn a_command_in_prose_is_checked() {
    let ws = Workspace::load(&root());
    for (command, ok) in [
        ("sandbox-advisor families --host codex", true),
        ("sandbox-advisor families --hots codex", false),
        ("sandbox-advisor no-such-command", false),
        (
            "cargo test -p sandbox-advisor-host-adapter --features dsh",
            true,
        ),
        (
            "cargo test -p sandbox-advisor-host-adapter --features nope",
            false,
        ),
        ("cargo fuzz cmin", true),
        (
            "cargo run -p sandbox-advisor-host-adapter --example nope",
            false,
        ),
    ] {
        assert_eq!(
            mention(command, &ws).is_ok(),
            ok,
            "{command}: {:?}",
            mention(command, &ws)
        );
    }
    let prose = "Run `cargo test -p a` and `cargo test -p family-<id>`.\n```sh\ncargo x\n```\n<!-- `cargo y` -->\n";
    let found: Vec<String> = markdown::prose_commands(prose)
        .into_iter()
        .map(|(_, c)| c)
        .collect();
    assert_eq!(found, ["cargo test -p a"]);
}

/// The same blocks, as they are now, pass: the cases above fail for the
/// reason they name, not because the checker refuses everything.
#[test]
fn a_block_that_holds_passes() {
    let ws = Workspace::load(&root());
    let cases = [
        "```sh\nsandbox-advisor families   # a comment\n```\n",
        "```sh\ncargo bench -p sandbox-advisor-host-adapter --bench hot_path\n```\n",
        "```sh\ncd bindings/node && npm ci && npm run build\n```\n",
        "```sh\nB=target/release\nmkdir /tmp/min && $B/recognize -merge=1 /tmp/min corpus/recognize\n```\n",
        "<!-- check: output of `sandbox-advisor families` -->\n```text\n1. acl-provisioning  [fail-fast]\n```\n",
        "<!-- check: config -->\n```toml\nmaxDenials = 2\n```\n",
        "<!-- check: lines of examples/transcripts/codex -->\n```text\nProcess exited with code <N>\n```\n",
    ];
    for doc in cases {
        let blocks = markdown::blocks("case.md", doc);
        if let Err(e) = check(&blocks[0], &ws) {
            panic!("{e}\n{doc}");
        }
    }
}
