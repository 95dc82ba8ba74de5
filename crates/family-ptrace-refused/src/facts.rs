//! What the recognizer, the gate, the brief and the detail all read.

/// Gemini CLI's own mark on a result its sandbox refused (`tool_response.error.type`),
/// carried as the failure's code by `hook --dialect gemini-cli`.
pub const MARKER: &str = "sandbox_expansion_required";

/// strace's line when its `PTRACE_TRACEME` is refused (strace 6.1, recorded
/// in Gemini CLI 0.61.0's tool sandbox: `docs/hooks/gemini-cli/ptrace`).
pub const TRACEME: &str = "strace: ptrace(PTRACE_TRACEME, ...): Operation not permitted";

/// The tracers whose refusal is recognized, by the command's first word's
/// file name (only strace's line was recorded).
pub const TRACERS: [&str; 1] = ["strace"];

/// The read-only check: inside the sandbox the filter shows as mode 2.
pub const CHECK: &str = "grep Seccomp: /proc/self/status";

/// What the check prints inside Gemini CLI's tool sandbox.
pub const CHECK_SHOWS: &str = "Seccomp:\t2";
