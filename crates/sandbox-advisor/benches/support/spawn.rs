//! Spawning a hook as a host does, shared by the `hook` and `hook_paired`
//! benches (a subdirectory, so cargo does not take it for a bench target).

use std::io::Write as _;
use std::process::{Command, Output, Stdio};

/// Runs `command` with piped stdio, writes `payload` to its stdin, closes it,
/// and waits for the exit with stdout and stderr read.
pub fn with_stdin(command: &mut Command, payload: &[u8]) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn sandbox-advisor");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(payload).expect("write the payload");
    drop(stdin);
    child.wait_with_output().expect("wait")
}
