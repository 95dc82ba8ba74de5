//! Gemini CLI's tool sandbox (`security.toolSandboxing`, bubblewrap on
//! Linux), as `@google/gemini-cli@0.61.0` builds it (read in its bundle,
//! `bwrapArgsBuilder` and `GOVERNANCE_FILES`; run in
//! `docs/hooks/gemini-cli/`):
//!
//! | path | inside the sandbox |
//! |---|---|
//! | `/` | read-only |
//! | the workspace (the hook's `cwd`) | writable (read-only in plan mode) |
//! | the workspace's `.git` | read-only, unless one of the command's roots is `git` |
//! | `/tmp` | a fresh tmpfs, emptied after every command |
//! | `tools.sandboxAllowedPaths`, an approved expansion's paths | writable |
//!
//! **Provenance.** Gemini marks a refusal its keyword match recognizes:
//! `tool_response.error.type` is `sandbox_expansion_required`, a field no
//! command's output reaches; `hook --dialect gemini-cli` carries it as the
//! failure's code ([`GEMINI_MARK`](crate::recognize::GEMINI_MARK)). The mark says the sandbox ran the command and
//! Gemini read a refusal in its output; the host's own mount at the path
//! (writable, the hook looked) says it was not a real read-only mount.
//! Without the mark the family declines ([`NOT_MARKED`](crate::facts::NOT_MARKED)): an unmarked
//! `Read-only file system` is a command Gemini ran without its sandbox
//! (`docs/hooks/gemini-cli/control-readonly-mount`), or a program's text.
//!
//! A path under a root added by `tools.sandboxAllowedPaths` is not seen by
//! the advisor (it does not read Gemini's settings); a write there is not
//! refused by the sandbox, so a refusal there is a real read-only mount,
//! which the mount check declines first.
//!
//! The root table and the `.git` rule are in [`crate::facts`] (with the
//! other clients'), which the gate, the brief and the detail all read; this
//! module holds Gemini's own brief.

pub mod brief;
