//! What the recognizer, the provenance test, the brief and the detail read.

/// The line: Gemini CLI 0.61.0 starts each sandboxed command as
/// `sh -c 'exec bwrap --args 8 "$@" 8< … 9< …' _ …`, and with no `bwrap` on
/// `PATH` the shell (dash, `/bin/sh` on Debian) prints this and exits 127
/// (recorded: `docs/hooks/gemini-cli/no-bwrap`).
pub const LINE: &str = "_: 1: exec: bwrap: not found";

/// What the prefilter looks for.
pub const NEEDLE: &str = "exec: bwrap: not found";

/// The exit code the shell gives a command it cannot find.
pub const EXIT_CODE: &str = "127";

/// The read-only check, outside Gemini CLI.
pub const CHECK: &str = "command -v bwrap";
