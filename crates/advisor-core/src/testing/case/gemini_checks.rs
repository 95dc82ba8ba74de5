//! A fixture's `[checks]` keys for Gemini CLI's session.

/// Gemini CLI's session, from `gemini_approval`, `gemini_run`, `gemini_sandbox_policy`,
/// and its settings' `gemini_tool_sandbox`, `gemini_cli_sandbox`, `gemini_yolo` (absent: unknown).
pub(super) fn gemini(
    spec: &super::super::fixture::ChecksSpec,
) -> Result<Option<crate::GeminiSession>, String> {
    let Some(approval) = spec.gemini_approval.as_deref() else {
        if spec.gemini_run.is_some()
            || spec.gemini_sandbox_policy.is_some()
            || spec.gemini_tool_sandbox.is_some()
            || spec.gemini_cli_sandbox.is_some()
            || spec.gemini_yolo.is_some()
        {
            return Err(
                "checks: `gemini_run`, `gemini_sandbox_policy` and the settings' \
                 `gemini_*` keys need `gemini_approval`"
                    .into(),
            );
        }
        return Ok(None);
    };
    let approval = match approval {
        "unknown" => None,
        other => Some(
            crate::GeminiApproval::parse(other)
                .ok_or_else(|| format!("checks.gemini_approval: unknown `{other}`"))?,
        ),
    };
    let run = match spec.gemini_run.as_deref() {
        Some("headless") => crate::GeminiRun::Headless,
        Some("interactive") | None => crate::GeminiRun::MaybeInteractive,
        Some(other) => return Err(format!("checks.gemini_run: unknown `{other}`")),
    };
    use crate::{GeminiCliSandbox as Cli, GeminiToolSandbox as Tool, GeminiYolo as Yolo};
    let tool_sandbox = spelled(
        "gemini_tool_sandbox",
        &spec.gemini_tool_sandbox,
        Tool::Unknown,
        &[("on", Tool::On), ("off", Tool::Off)],
    )?;
    let cli_sandbox = spelled(
        "gemini_cli_sandbox",
        &spec.gemini_cli_sandbox,
        Cli::OnOrUnknown,
        &[("off", Cli::Off)],
    )?;
    let yolo = spelled(
        "gemini_yolo",
        &spec.gemini_yolo,
        Yolo::Unknown,
        &[("disabled", Yolo::Disabled), ("allowed", Yolo::Allowed)],
    )?;
    Ok(Some(crate::GeminiSession {
        approval,
        run,
        sandbox_policy: spec.gemini_sandbox_policy,
        settings: crate::GeminiSettings {
            tool_sandbox,
            cli_sandbox,
            yolo,
        },
    }))
}

/// A fixture key's spelling in `table`; `absent` when the key is not given.
fn spelled<T: Copy>(
    key: &str,
    value: &Option<String>,
    absent: T,
    table: &[(&str, T)],
) -> Result<T, String> {
    let Some(value) = value.as_deref() else {
        return Ok(absent);
    };
    let found = table.iter().find(|(spelling, _)| *spelling == value);
    found
        .map(|(_, v)| *v)
        .ok_or_else(|| format!("checks.{key}: unknown `{value}`"))
}
