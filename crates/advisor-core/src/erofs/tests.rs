//! Every shape as the real programs printed it under the real clients
//! (`docs/hooks/`, `<run>` spelled `/srv/run`), and the look-alikes.

use super::*;

fn read(line: &str) -> Option<(Producer, &str)> {
    parse_line(line).map(|r| (r.producer, r.path))
}

#[test]
fn each_recorded_line_names_its_producer_and_path() {
    let cases: &[(&str, Producer, &str)] = &[
        (
            "touch: cannot touch '/srv/run/outside': Read-only file system",
            Producer::Coreutils("touch"),
            "/srv/run/outside",
        ),
        (
            "touch: cannot touch '../outside': Read-only file system",
            Producer::Coreutils("touch"),
            "../outside",
        ),
        (
            "mkdir: cannot create directory ‘/srv/run/outside’: Read-only file system",
            Producer::Coreutils("mkdir"),
            "/srv/run/outside",
        ),
        (
            "mkdir: cannot create directory ‘.codex/skills’: Read-only file system",
            Producer::Coreutils("mkdir"),
            ".codex/skills",
        ),
        (
            "cp: cannot create regular file '.agents/README': Read-only file system",
            Producer::Coreutils("cp"),
            ".agents/README",
        ),
        (
            "ln: failed to create symbolic link '/srv/run/lnk': Read-only file system",
            Producer::Coreutils("ln"),
            "/srv/run/lnk",
        ),
        (
            "/bin/bash: line 1: /srv/run/outside: Read-only file system",
            Producer::Shell(Shell::Bash),
            "/srv/run/outside",
        ),
        (
            "/usr/bin/bash: line 1: .git/description: Read-only file system",
            Producer::Shell(Shell::Bash),
            ".git/description",
        ),
        (
            "sh: 1: cannot create /srv/run/outside: Read-only file system",
            Producer::Shell(Shell::Dash),
            "/srv/run/outside",
        ),
        (
            "zsh:1: read-only file system: /srv/run/outside",
            Producer::Shell(Shell::Zsh),
            "/srv/run/outside",
        ),
        (
            "fatal: Unable to create '/srv/run/proj/.git/index.lock': Read-only file system",
            Producer::Git,
            "/srv/run/proj/.git/index.lock",
        ),
        (
            "fatal: cannot lock ref 'refs/tags/v1': Unable to create \
             '/srv/run/proj/.git/refs/tags/v1.lock': Read-only file system",
            Producer::Git,
            "/srv/run/proj/.git/refs/tags/v1.lock",
        ),
        (
            "error: could not lock config file /srv/run/home/.gitconfig: Read-only file system",
            Producer::Git,
            "/srv/run/home/.gitconfig",
        ),
        (
            "error: could not lock config file .git/config: Read-only file system",
            Producer::Git,
            ".git/config",
        ),
        (
            "fatal: cannot mkdir /srv/run/outside: Read-only file system",
            Producer::Git,
            "/srv/run/outside",
        ),
        (
            "fatal: could not create work tree dir '/srv/run/clone': Read-only file system",
            Producer::Git,
            "/srv/run/clone",
        ),
        (
            "OSError: [Errno 30] Read-only file system: '/srv/run/outside'",
            Producer::Python,
            "/srv/run/outside",
        ),
        (
            "OSError: [Errno 30] Read-only file system: 'notes.txt'",
            Producer::Python,
            "notes.txt",
        ),
        (
            "Error: EROFS: read-only file system, open '/srv/run/outside'",
            Producer::Node,
            "/srv/run/outside",
        ),
        (
            "Error: EROFS: read-only file system, mkdir '/srv/run/nd'",
            Producer::Node,
            "/srv/run/nd",
        ),
        (
            "error: could not create home directory: '/srv/run/home/.rustup': \
             Read-only file system (os error 30)",
            Producer::Rust,
            "/srv/run/home/.rustup",
        ),
        (
            "sandbox-advisor: hook install: /srv/run/.claude: Read-only file system (os error 30)",
            Producer::Rust,
            "/srv/run/.claude",
        ),
    ];
    for (line, producer, path) in cases {
        assert_eq!(read(line), Some((*producer, *path)), "{line}");
    }
}

#[test]
fn look_alikes_and_other_errors_are_not_read() {
    for line in [
        // Another errno, or the words inside a longer line.
        "touch: cannot touch '/etc/x': Permission denied",
        "[log] touch: cannot touch '/x': Read-only file system",
        "touch: cannot touch '/x': Read-only file system.",
        " touch: cannot touch '/x': Read-only file system",
        // A program that is not in the table, and a head it never prints.
        "tar: /x: Cannot open: Read-only file system",
        "touch: cannot open '/x': Read-only file system",
        // Escaped, two-path and empty quoting.
        "touch: cannot touch '/w'\\''s': Read-only file system",
        "touch: cannot touch \"/w's\": Read-only file system",
        "touch: cannot touch '': Read-only file system",
        "mkdir: cannot create directory ‘/a’b’: Read-only file system",
        "OSError: [Errno 30] Read-only file system: '/a' -> '/b'",
        "Error: EROFS: read-only file system, symlink '/a' -> '/b'",
        "Error: EROFS: read-only file system, Open '/x'",
        // A shell line whose name or number is not a shell's.
        "my shell: line 1: /x: Read-only file system",
        "bash: line one: /x: Read-only file system",
        "sh: x: cannot create /x: Read-only file system",
        "zsh: read-only file system: /x",
        // git: a lock path that is relative or not a lock; another git error.
        "fatal: Unable to create 'ws/.git/index.lock': Read-only file system",
        "fatal: Unable to create '/ws/.git/index': Read-only file system",
        "fatal: Unable to create '/ws/.git/index.lock': File exists.",
        "fatal: could not read '/x': Read-only file system",
        // Rust: the context's last word is not an absolute path.
        "error: failed to write config: Read-only file system (os error 30)",
        "Read-only file system (os error 30)",
        "PermissionError: [Errno 1] Operation not permitted",
    ] {
        assert_eq!(read(line), None, "{line}");
    }
    let control = format!("touch: cannot touch '/{}': Read-only file system", "\u{7}");
    assert_eq!(read(&control), None);
    let long = format!(
        "touch: cannot touch '/{}': Read-only file system",
        "a".repeat(PATH_MAX_BYTES)
    );
    assert_eq!(read(&long), None);
}

const NODE: &str = "node:fs:2380
    return binding.writeFileUtf8(
                   ^

Error: EROFS: read-only file system, open '/srv/run/outside'
    at Object.writeFileSync (node:fs:2380:20)
    at [eval]:1:15
    at node:internal/main/eval_string:51:3 {
  errno: -30,
  code: 'EROFS',
  syscall: 'open',
  path: '/srv/run/outside'
}

Node.js v20.20.2
";

const CARGO: &str = "    Creating binary (application) `outside` package
error: failed to create package `outside` at `/srv/run/outside`

Caused by:
  failed to create directory `/srv/run/outside`

Caused by:
  Read-only file system (os error 30)
";

#[test]
fn the_producer_line_counts_only_where_the_producer_leaves_it() {
    let touch = "touch: cannot touch '/x': Read-only file system";
    assert_eq!(
        find(&format!("Exit code 1\n{touch}\n\n")).map(|r| r.path),
        Some("/x")
    );
    assert_eq!(find(&format!("{touch}\r\n")).map(|r| r.line), Some(touch));
    assert_eq!(find(&format!("{touch}\nmore output")), None);
    assert_eq!(find(" \n\n"), None);

    let node = find(NODE).expect("node's uncaught error");
    assert_eq!(
        (node.producer, node.path),
        (Producer::Node, "/srv/run/outside")
    );
    // Without the version trailer (console.error), and without the block.
    let printed = NODE.split("\nNode.js").next().unwrap_or_default();
    assert_eq!(find(printed).map(|r| r.path), Some("/srv/run/outside"));
    let bare = "Error: EROFS: read-only file system, open '/x'\n    at f (a.js:1:1)\n";
    assert_eq!(find(bare).map(|r| r.path), Some("/x"));
    // Anything else between the error and its trailer is someone else's output.
    let mixed = NODE.replace("    at [eval]:1:15\n", "    at [eval]:1:15\nrebuilding…\n");
    assert_eq!(find(&mixed), None);
    let no_stack = "Error: EROFS: read-only file system, open '/x'\n  errno: -30,\n}\n";
    assert_eq!(find(no_stack), None);

    let cargo = find(CARGO).expect("cargo's chain");
    assert_eq!(
        (cargo.producer, cargo.path),
        (Producer::Rust, "/srv/run/outside")
    );
    assert_eq!(cargo.line, "  Read-only file system (os error 30)");
    let uncaused = CARGO.replace("Caused by:\n  Read", "Also:\n  Read");
    assert_eq!(find(&uncaused), None);
    let relative = CARGO.replace("directory `/srv/run/outside`", "directory `outside`");
    assert_eq!(find(&relative), None);
}

#[test]
fn a_text_without_the_needle_is_not_read() {
    assert_eq!(find("touch: cannot touch '/x': Permission denied"), None);
    assert!(STRERROR.contains(NEEDLE) && "read-only file system".contains(NEEDLE));
}

#[test]
fn directory_changes_are_words() {
    for command in [
        "cd /tmp && touch x",
        "(cd sub; touch ../x)",
        "cd sub && echo x > .git/y",
        "git -C ../other commit",
        "make --directory=build",
        "npm --prefix ../x install",
        "python3 -c 'import os; os.chdir(\"/\"); open(\"x\",\"w\")'",
    ] {
        assert!(changes_directory(command), "{command}");
    }
    for command in [
        "touch ../x",
        "echo cdrom > x",
        "git commit -Cx",
        "abcd x",
        "git tag v1",
        "echo abcd > .git/description",
    ] {
        assert!(!changes_directory(command), "{command}");
    }
}
