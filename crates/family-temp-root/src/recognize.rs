//! The failure half's predicate: the backend's `assertTempRootOutsideWorkspace`
//! sentence with both operands, in exactly one of its two carriers.
//!
//! Pure, no I/O, and nothing is allocated until both operands have been found.

use advisor_core::{Observation, SandboxMode, Untrusted};

/// The sentence up to its first operand; also the family's prefilter needle.
pub(crate) const SENTENCE_HEAD: &str =
    "Windows ACL temp root must be outside the workspace: workspace=";

/// Where the workspace operand ends and the temp operand starts.
const TEMP_SEPARATOR: &str = "; temp=";

/// The runner's stderr marker, which the executor copies into the error's detail.
const RUNNER_MARKER: &str = "windows-acl-run: ";

/// `SandboxUnavailableError`'s message up to the mode.
const UNAVAILABLE_HEAD: &str = "sandbox mode \"";

/// `SandboxUnavailableError`'s message from the mode to its detail (packages/sandbox/sandbox).
const UNAVAILABLE_TAIL: &str = "\" is requested but no sandbox backend is usable on this host; \
refusing to run the command unconfined. Install bubblewrap or run a Landlock-enforcing kernel \
(Linux), ensure sandbox-exec is usable (macOS), or ensure the ACL restricted-token runner can \
start (Windows) — otherwise switch the consumer to danger-full-access. Runner failure: ";

/// Which of the two producers threw the sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Carrier {
    /// The session-scoped provider (`sandbox-local`'s `materializeAclGrant`): the
    /// failure's message is the sentence itself, thrown before any process exists.
    Provider,
    /// The Windows ACL runner (`sandbox-windows-acl`'s `runner.ts`): its stderr line
    /// arrives as the `Runner failure:` detail of a `SandboxUnavailableError`.
    Runner {
        /// The mode the `SandboxUnavailableError` names.
        mode: SandboxMode,
    },
}

/// A recognized refusal: the carrier, the backend's sentence and its two
/// operands, exactly as the backend printed them. The sentence and the
/// operands are the folder names of whoever set up the machine, so they are
/// held as [`Untrusted`] and leave only through its renderings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TempRootRefusal {
    /// Which producer refused.
    pub carrier: Carrier,
    /// The backend's whole sentence, `Windows ACL temp root must be outside …; temp=…`.
    pub sentence: Untrusted,
    /// The `workspace=` operand (the string as passed to the check, not its canonical form).
    pub workspace: Untrusted,
    /// The `temp=` operand (likewise as passed).
    pub temp: Untrusted,
}

/// Recognizes the sentence in a failure's message, and nowhere else.
///
/// Carrier A: the message IS the sentence. Carrier B: the message is exactly
/// `SandboxUnavailableError`'s text for a vocabulary mode, then `Runner failure: `,
/// the runner's marker and the sentence. Anything else — the sentence in a
/// success's output, the sentence after some other prefix, the runner's
/// `cleanup:` lines, the sibling `AclSandbox …` sentence, a missing or empty
/// operand, a second line — is not this family.
pub fn recognize(observation: &Observation) -> Option<TempRootRefusal> {
    let message = observation.failure()?.message.as_str();
    if let Some(operands) = message.strip_prefix(SENTENCE_HEAD) {
        return finding(Carrier::Provider, message, operands);
    }
    let rest = message.strip_prefix(UNAVAILABLE_HEAD)?;
    let (mode, detail) = rest.split_once(UNAVAILABLE_TAIL)?;
    let mode = SandboxMode::ALL.into_iter().find(|m| m.as_str() == mode)?;
    let sentence = detail.strip_prefix(RUNNER_MARKER)?;
    let operands = sentence.strip_prefix(SENTENCE_HEAD)?;
    finding(Carrier::Runner { mode }, sentence, operands)
}

/// Splits `<workspace>; temp=<temp>`, the tail of `sentence`; both must be
/// non-empty single-line strings.
fn finding(carrier: Carrier, sentence: &str, operands: &str) -> Option<TempRootRefusal> {
    let (workspace, temp) = operands.split_once(TEMP_SEPARATOR)?;
    let well_formed = |s: &str| !s.is_empty() && !s.contains(['\n', '\r']);
    if !well_formed(workspace) || !well_formed(temp) {
        return None;
    }
    Some(TempRootRefusal {
        carrier,
        sentence: Untrusted::new(sentence),
        workspace: Untrusted::new(workspace),
        temp: Untrusted::new(temp),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use advisor_core::testing::failure;

    const SENTENCE: &str = r"Windows ACL temp root must be outside the workspace: workspace=C:\Users\u; temp=C:\Users\u\AppData\Local\Temp";

    #[test]
    fn provider_sentence_is_read_with_both_operands() {
        let found = recognize(&failure(SENTENCE));
        assert_eq!(
            found,
            Some(TempRootRefusal {
                carrier: Carrier::Provider,
                sentence: SENTENCE.into(),
                workspace: r"C:\Users\u".into(),
                temp: r"C:\Users\u\AppData\Local\Temp".into(),
            })
        );
    }

    #[test]
    fn workspace_operand_ends_at_the_first_temp_separator() {
        let found = recognize(&failure(
            "Windows ACL temp root must be outside the workspace: workspace=C:\\a b; temp=C:\\a b\\t; temp=x",
        ));
        let found = found.map(|f| (f.workspace, f.temp));
        assert_eq!(found, Some((r"C:\a b".into(), r"C:\a b\t; temp=x".into())));
    }

    #[test]
    fn empty_operands_are_refused() {
        for message in [
            "Windows ACL temp root must be outside the workspace: workspace=; temp=C:\\t",
            "Windows ACL temp root must be outside the workspace: workspace=C:\\w; temp=",
            "Windows ACL temp root must be outside the workspace: workspace=C:\\w",
        ] {
            assert_eq!(recognize(&failure(message)), None, "{message}");
        }
    }

    #[test]
    fn a_second_line_is_refused() {
        let message = format!("{SENTENCE}\nand then something else");
        assert_eq!(recognize(&failure(&message)), None);
    }

    #[test]
    fn runner_carrier_needs_the_exact_unavailable_text() {
        let runner =
            format!("sandbox mode \"workspace-write{UNAVAILABLE_TAIL}windows-acl-run: {SENTENCE}");
        let found = recognize(&failure(&runner));
        assert!(matches!(
            found.as_ref().map(|f| f.carrier),
            Some(Carrier::Runner {
                mode: SandboxMode::WorkspaceWrite
            })
        ));
        assert_eq!(found.map(|f| f.sentence), Some(SENTENCE.into()));
        let unknown_mode = runner.replace("workspace-write", "full-write");
        assert_eq!(recognize(&failure(&unknown_mode)), None);
        let no_marker = runner.replace("windows-acl-run: ", "");
        assert_eq!(recognize(&failure(&no_marker)), None);
    }
}
