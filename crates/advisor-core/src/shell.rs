//! A read-only view of the shipped shell tools' canonical value.
//!
//! `tool-pwsh` and `tool-bash` return, for a finished foreground command,
//! `{ kind: "foreground", exitCode, signal, timedOut, aborted, timeoutMs,
//! stdout: { text, truncated, spillPath? }, stderr: { … }, sandbox?: { mode,
//! denied, enforcement?, runnerFailed? } }`. Several families and the
//! registry's prefilter read that shape; this module is the one place that
//! knows it, borrowing from the value and allocating nothing.
//!
//! [`Foreground`] reads each field only when asked (the prefilter's common
//! case asks for `kind` and `exitCode` alone); [`ForegroundRun`] is every
//! field read at once, for a recognizer that needs them all.

use serde_json::{Map, Value};

/// A finished foreground command, as the shell tools project it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ForegroundRun<'a> {
    /// The exit code, when the value reports one. `None` means "not reported":
    /// `exitCode` absent, null (killed by a signal) or not an integer. A
    /// family reads `None` as neither 0 nor a failure, and writes no number for it.
    pub exit_code: Option<i64>,
    /// The captured stderr text.
    pub stderr: Option<&'a str>,
    /// The captured stdout text.
    pub stdout: Option<&'a str>,
    /// The sandbox executor's stamp, when a sandboxing executor ran the command.
    pub sandbox: Option<SandboxStamp<'a>>,
}

/// What the sandboxing executor stamped on a finished command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SandboxStamp<'a> {
    /// The mode the call actually ran under, as written by the executor.
    pub mode: &'a str,
    /// Non-zero exit and the backend's refusal dialect in stderr.
    pub denied: bool,
    /// `full` or `partial` (`partial` for the Windows ACL backend).
    pub enforcement: Option<&'a str>,
    /// Set on background values when the runner itself failed.
    pub runner_failed: bool,
}

/// A finished foreground command's value, its fields read on demand.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Foreground<'a> {
    object: &'a Map<String, Value>,
}

impl<'a> Foreground<'a> {
    /// The value as the shell projection; `None` unless `kind` is `"foreground"`.
    #[inline]
    pub fn of(value: &'a Value) -> Option<Self> {
        let object = value.as_object()?;
        if object.get("kind")?.as_str()? != "foreground" {
            return None;
        }
        Some(Self { object })
    }

    /// The exit code, when the value reports one: absent, null, not an
    /// integer, or out of `i64` range is `None`, not a reason to refuse.
    #[inline]
    pub fn exit_code(&self) -> Option<i64> {
        self.object.get("exitCode").and_then(Value::as_i64)
    }

    /// True when the command exited with a non-zero code.
    #[inline]
    pub fn failed(&self) -> bool {
        matches!(self.exit_code(), Some(code) if code != 0)
    }

    /// The captured stderr text.
    #[inline]
    pub fn stderr(&self) -> Option<&'a str> {
        self.text("stderr")
    }

    /// The captured stdout text.
    #[inline]
    pub fn stdout(&self) -> Option<&'a str> {
        self.text("stdout")
    }

    #[inline]
    fn text(&self, stream: &str) -> Option<&'a str> {
        self.object.get(stream)?.get("text")?.as_str()
    }

    /// The sandbox executor's stamp; `None` unless it carries a string `mode`
    /// and a boolean `denied`.
    #[inline]
    pub fn sandbox(&self) -> Option<SandboxStamp<'a>> {
        let s = self.object.get("sandbox")?.as_object()?;
        Some(SandboxStamp {
            mode: s.get("mode")?.as_str()?,
            denied: s.get("denied")?.as_bool()?,
            enforcement: s.get("enforcement").and_then(Value::as_str),
            runner_failed: s
                .get("runnerFailed")
                .and_then(Value::as_bool)
                .unwrap_or(false),
        })
    }

    /// True when the executor stamped the command `denied: true`.
    #[inline]
    pub fn denied(&self) -> bool {
        self.sandbox().is_some_and(|stamp| stamp.denied)
    }

    /// Every field, read now.
    #[inline]
    pub fn run(&self) -> ForegroundRun<'a> {
        ForegroundRun {
            exit_code: self.exit_code(),
            stderr: self.stderr(),
            stdout: self.stdout(),
            sandbox: self.sandbox(),
        }
    }
}

impl<'a> ForegroundRun<'a> {
    /// Reads the shell projection; `None` unless `kind` is `"foreground"`.
    /// An exit code the value does not report (absent, null, not an integer,
    /// or out of `i64` range) is `exit_code: None`, not a reason to refuse.
    pub fn read(value: &'a Value) -> Option<Self> {
        Foreground::of(value).map(|fg| fg.run())
    }

    /// True when the command exited with a non-zero code.
    pub fn failed(&self) -> bool {
        matches!(self.exit_code, Some(code) if code != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_the_foreground_projection() {
        let v = json!({"kind":"foreground","exitCode":1,"stderr":{"text":"e","truncated":false},
            "stdout":{"text":"o","truncated":false},
            "sandbox":{"mode":"workspace-write","denied":true,"enforcement":"partial"}});
        let run = ForegroundRun::read(&v).unwrap();
        assert_eq!(run.exit_code, Some(1));
        assert_eq!(run.stderr, Some("e"));
        assert!(run.sandbox.unwrap().denied);
        assert!(run.failed());
    }

    #[test]
    fn refuses_other_shapes() {
        assert!(ForegroundRun::read(&json!({"kind":"background","jobId":"j"})).is_none());
        assert!(ForegroundRun::read(&json!({"exitCode":1})).is_none());
        assert!(ForegroundRun::read(&json!({"kind":"exec","exitCode":1})).is_none());
        assert!(ForegroundRun::read(&json!("foreground")).is_none());
    }

    #[test]
    fn an_exit_code_the_value_does_not_report_is_none() {
        for value in [
            json!({"kind":"foreground","stderr":{"text":"e"}}),
            json!({"kind":"foreground","exitCode":null,"stderr":{"text":"e"}}),
            json!({"kind":"foreground","exitCode":"1","stderr":{"text":"e"}}),
            json!({"kind":"foreground","exitCode":1.5,"stderr":{"text":"e"}}),
            json!({"kind":"foreground","exitCode":true,"stderr":{"text":"e"}}),
            json!({"kind":"foreground","exitCode":18446744072635810114u64,"stderr":{"text":"e"}}),
        ] {
            let run = ForegroundRun::read(&value).unwrap();
            assert_eq!(run.exit_code, None, "{value}");
            assert_eq!(run.stderr, Some("e"), "{value}");
            assert!(!run.failed(), "{value}");
        }
    }

    /// The lazy view answers exactly what the whole read answers.
    #[test]
    fn the_lazy_view_agrees_with_the_whole_read() {
        for value in [
            json!({"kind":"foreground","exitCode":1,"stderr":{"text":"e"},"stdout":{"text":"o"},
                "sandbox":{"mode":"workspace-write","denied":true,"runnerFailed":true}}),
            json!({"kind":"foreground","exitCode":0,"sandbox":{"denied":true}}),
            json!({"kind":"foreground","exitCode":null,"sandbox":{"mode":"read-only","denied":false}}),
            json!({"kind":"foreground","stderr":"not an object"}),
        ] {
            let fg = Foreground::of(&value).unwrap();
            let run = ForegroundRun::read(&value).unwrap();
            assert_eq!(fg.run(), run, "{value}");
            assert_eq!(fg.failed(), run.failed(), "{value}");
            assert_eq!(
                fg.denied(),
                run.sandbox.is_some_and(|s| s.denied),
                "{value}"
            );
        }
        assert!(Foreground::of(&json!({"kind":"background"})).is_none());
    }

    #[test]
    fn keeps_the_unsigned_spelling() {
        let v = json!({"kind":"foreground","exitCode":3221225794u64});
        assert_eq!(ForegroundRun::read(&v).unwrap().exit_code, Some(3221225794));
    }
}
