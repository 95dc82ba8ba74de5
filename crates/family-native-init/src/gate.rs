//! Whether the advisor may speak: the call must have run under a confining mode.
//!
//! Two facts name the mode. The session's resolved policy (approved mode for
//! the call, else the session's last `sandbox/mode` event, else the deployment
//! default) is the one every family gates on; the executor's `sandbox` stamp on
//! the value is the mode the call actually ran under. The stamp is the better
//! fact, so it is the mode the advisory names; but both must be known and
//! neither may be `danger-full-access`, because a command that was not spawned
//! through the sandbox cannot be explained by it. There is no platform gate:
//! the evidence is a 32-bit status inside a value, and a recorded session or a
//! remote runner can deliver it to a host on another OS.

use advisor_core::{Environment, Gate, SandboxMode, WithholdReason};

use crate::recognize::{Finding, Stamp};

/// The withhold code for a stamp whose mode is outside the harness's vocabulary.
pub const UNRECOGNIZED_STAMP_MODE: &str = "unrecognized-stamp-mode";

/// Where the mode the advisory names came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModeSource {
    /// The executor's stamp on this result.
    Stamp,
    /// The session's resolved policy (the value carried no stamp).
    Policy,
}

/// The mode the call ran under, and where that fact came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RanUnder {
    /// The confining mode.
    pub mode: SandboxMode,
    /// Its source.
    pub source: ModeSource,
    /// The session's resolved mode, when it differs from the stamp's.
    pub session_now: Option<SandboxMode>,
}

/// The mode the call ran under, or why the advisor cannot tell that it confined.
pub fn ran_under(finding: &Finding, env: &Environment) -> Result<RanUnder, WithholdReason> {
    let resolved = env.mode().map_err(WithholdReason::Unresolved)?;
    if !resolved.confines() {
        return Err(WithholdReason::UnconfinedMode(resolved));
    }
    match finding.stamp {
        Stamp::Absent => Ok(RanUnder {
            mode: resolved,
            source: ModeSource::Policy,
            session_now: None,
        }),
        Stamp::Mode(stamped) if !stamped.confines() => Err(WithholdReason::UnconfinedMode(stamped)),
        Stamp::Mode(stamped) => Ok(RanUnder {
            mode: stamped,
            source: ModeSource::Stamp,
            session_now: (stamped != resolved).then_some(resolved),
        }),
        Stamp::Unrecognized => Err(WithholdReason::Other(UNRECOGNIZED_STAMP_MODE)),
    }
}

/// Speak under a confining mode; otherwise withhold, and say why on the host log.
pub fn gate(finding: &Finding, env: &Environment) -> Gate {
    match ran_under(finding, env) {
        Ok(_) => Gate::Speak,
        Err(reason) => Gate::Withhold(reason),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use advisor_core::testing::{resolved, unresolved};
    use advisor_core::{Platform, Unresolved};

    fn finding(stamp: Stamp) -> Finding {
        Finding {
            reported: -1_073_741_502,
            stamp,
            msys2_signal_pipe: false,
            command: None,
        }
    }

    #[test]
    fn the_stamp_names_the_mode_and_the_session_difference() {
        let env = resolved(Platform::Win32, SandboxMode::WorkspaceWrite, None);
        let ran = ran_under(&finding(Stamp::Mode(SandboxMode::ReadOnly)), &env);
        assert_eq!(
            ran,
            Ok(RanUnder {
                mode: SandboxMode::ReadOnly,
                source: ModeSource::Stamp,
                session_now: Some(SandboxMode::WorkspaceWrite),
            })
        );
    }

    #[test]
    fn without_a_stamp_the_policy_names_the_mode() {
        let env = resolved(Platform::Linux, SandboxMode::ReadOnly, None);
        let ran = ran_under(&finding(Stamp::Absent), &env);
        assert_eq!(
            ran.map(|r| (r.mode, r.source)),
            Ok((SandboxMode::ReadOnly, ModeSource::Policy))
        );
    }

    #[test]
    fn unconfined_either_way_withholds() {
        let danger = resolved(Platform::Win32, SandboxMode::DangerFullAccess, None);
        assert_eq!(
            gate(&finding(Stamp::Mode(SandboxMode::WorkspaceWrite)), &danger),
            Gate::Withhold(WithholdReason::UnconfinedMode(
                SandboxMode::DangerFullAccess
            ))
        );
        let ww = resolved(Platform::Win32, SandboxMode::WorkspaceWrite, None);
        assert_eq!(
            gate(&finding(Stamp::Mode(SandboxMode::DangerFullAccess)), &ww),
            Gate::Withhold(WithholdReason::UnconfinedMode(
                SandboxMode::DangerFullAccess
            ))
        );
    }

    #[test]
    fn an_unresolved_policy_withholds_even_with_a_stamp() {
        let env = unresolved(Platform::Win32, Unresolved::NoPolicyService);
        assert_eq!(
            gate(&finding(Stamp::Mode(SandboxMode::WorkspaceWrite)), &env),
            Gate::Withhold(WithholdReason::Unresolved(Unresolved::NoPolicyService))
        );
    }

    #[test]
    fn an_unknown_stamp_mode_withholds() {
        let env = resolved(Platform::Win32, SandboxMode::WorkspaceWrite, None);
        assert_eq!(
            gate(&finding(Stamp::Unrecognized), &env),
            Gate::Withhold(WithholdReason::Other(UNRECOGNIZED_STAMP_MODE))
        );
    }
}
