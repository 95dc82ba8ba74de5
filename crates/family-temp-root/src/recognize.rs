//! The failure half's predicate: the backend's `assertTempRootOutsideWorkspace`
//! sentence with both operands, on a line of a failure's message, in exactly
//! one of its two carriers.
//!
//! The message is read through the one envelope rule
//! ([`advisor_core::envelope::unwrap`]: at most one `Error: ` or
//! `AggregateError: ` in front, trailing white space behind). Its assertion
//! line is either the sentence itself (the provider) or the whole
//! `SandboxUnavailableError` text ending in the runner's line (the runner).
//! The runner's marker names the runner only on the assertion's own line: an
//! assertion on a line of its own is the provider's, whatever another line
//! says. Every other line of the message must carry the runner's marker;
//! any other company means something else is quoting the sentence.
//!
//! Pure, no I/O, and nothing is allocated until the whole message has been
//! checked and both operands found.

use advisor_core::{Observation, SandboxMode, Untrusted, envelope};

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
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Carrier {
    /// The session-scoped provider (`sandbox-local`'s `materializeAclGrant`): the
    /// assertion line is the sentence itself, thrown before any process exists.
    Provider,
    /// The Windows ACL runner (`sandbox-windows-acl`'s `runner.ts`): its stderr line
    /// arrives as the `Runner failure:` detail of a `SandboxUnavailableError`.
    Runner {
        /// The mode the `SandboxUnavailableError` names.
        mode: SandboxMode,
        /// The runner's record: the line it wrote to stderr as it exited 127,
        /// `windows-acl-run: <sentence>`, exactly as the error's detail carried it.
        line: Untrusted,
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
/// Exactly one line of the message (after its envelope) holds the sentence,
/// and it is the whole line: carrier A, the sentence itself; carrier B,
/// `SandboxUnavailableError`'s text for a vocabulary mode, then
/// `Runner failure: `, the runner's marker and the sentence. Every other line
/// carries the runner's marker. Anything else — the sentence in a success's
/// output, after some other prefix, twice, beside a line that is not the
/// runner's (a stack trace, a log), the runner's `cleanup:` lines, the sibling
/// `AclSandbox …` sentence, a missing, empty or blank operand — is not this
/// family.
pub fn recognize(observation: &Observation) -> Option<TempRootRefusal> {
    let message = envelope::unwrap(&observation.failure()?.message);
    let mut assertion = None;
    for line in message.lines() {
        if line.contains(SENTENCE_HEAD) {
            if assertion.replace(line).is_some() {
                return None;
            }
        } else if !line.contains(RUNNER_MARKER) {
            return None;
        }
    }
    read_assertion(assertion?)
}

/// The carrier and operands of the one line that holds the sentence.
fn read_assertion(line: &str) -> Option<TempRootRefusal> {
    let (runner, sentence) = if line.starts_with(SENTENCE_HEAD) {
        (None, line)
    } else {
        let rest = line.strip_prefix(UNAVAILABLE_HEAD)?;
        let (mode, detail) = rest.split_once(UNAVAILABLE_TAIL)?;
        let mode = SandboxMode::ALL.into_iter().find(|m| m.as_str() == mode)?;
        (Some((mode, detail)), detail.strip_prefix(RUNNER_MARKER)?)
    };
    let (workspace, temp) = operands(sentence.strip_prefix(SENTENCE_HEAD)?)?;
    let carrier = match runner {
        None => Carrier::Provider,
        Some((mode, detail)) => Carrier::Runner {
            mode,
            line: Untrusted::new(detail),
        },
    };
    Some(TempRootRefusal {
        carrier,
        sentence: Untrusted::new(sentence),
        workspace: Untrusted::new(workspace),
        temp: Untrusted::new(temp),
    })
}

/// Splits `<workspace>; temp=<temp>` at the first `; temp=`. Neither operand
/// may be empty or blank (text quoting the sentence, not the producer, which
/// always prints both) or hold a carriage return (a second line).
fn operands(tail: &str) -> Option<(&str, &str)> {
    let (workspace, temp) = tail.split_once(TEMP_SEPARATOR)?;
    let well_formed = |s: &str| !s.trim().is_empty() && !s.contains('\r');
    (well_formed(workspace) && well_formed(temp)).then_some((workspace, temp))
}

#[cfg(test)]
mod tests {
    use super::*;
    use advisor_core::testing::failure;

    const SENTENCE: &str = r"Windows ACL temp root must be outside the workspace: workspace=C:\Users\u; temp=C:\Users\u\AppData\Local\Temp";

    fn runner(mode: &str) -> String {
        format!("sandbox mode \"{mode}{UNAVAILABLE_TAIL}windows-acl-run: {SENTENCE}")
    }

    fn carrier(message: &str) -> Option<Carrier> {
        recognize(&failure(message)).map(|f| f.carrier)
    }

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
    fn blank_operands_are_refused() {
        let marker = "\nwindows-acl-run: cleanup: x";
        for message in [
            "Windows ACL temp root must be outside the workspace: workspace= \t ; temp=C:\\t",
            "Windows ACL temp root must be outside the workspace: workspace=\u{3000}; temp=C:\\t",
            &format!(
                "Windows ACL temp root must be outside the workspace: workspace=C:\\w; temp=  {marker}"
            ),
        ] {
            assert_eq!(recognize(&failure(message)), None, "{message:?}");
        }
        let padded =
            "Windows ACL temp root must be outside the workspace: workspace= C:\\w; temp=C:\\w\\t";
        assert_eq!(
            recognize(&failure(padded)).map(|f| f.workspace),
            Some(" C:\\w".into()),
            "an operand that is not blank is kept as written"
        );
    }

    #[test]
    fn a_second_line_is_refused() {
        for message in [
            format!("{SENTENCE}\nand then something else"),
            format!("{SENTENCE}\rand then something else"),
            format!("note\n{SENTENCE}"),
        ] {
            assert_eq!(recognize(&failure(&message)), None, "{message:?}");
        }
    }

    #[test]
    fn the_runner_marker_names_the_runner_only_on_the_assertions_line() {
        let marker_line =
            "windows-acl-run: cleanup: AclSandbox dispose completed with 1 cleanup failure(s)";
        for message in [
            format!("{marker_line}\n{SENTENCE}"),
            format!("{SENTENCE}\r\n{marker_line}"),
            format!(
                "{}\n{SENTENCE}",
                runner("workspace-write").replace(SENTENCE, "x")
            ),
        ] {
            assert_eq!(carrier(&message), Some(Carrier::Provider), "{message:?}");
        }
        let found = carrier(&format!("{marker_line}\n{}", runner("read-only")));
        assert_eq!(
            found,
            Some(Carrier::Runner {
                mode: SandboxMode::ReadOnly,
                line: format!("windows-acl-run: {SENTENCE}").into(),
            })
        );
    }

    #[test]
    fn two_assertions_or_a_broken_one_are_refused() {
        let cleanup = format!("windows-acl-run: cleanup: {SENTENCE}");
        for message in [
            format!("{SENTENCE}\n{SENTENCE}"),
            format!("{}\n{SENTENCE}", runner("workspace-write")),
            format!("{cleanup}\n{SENTENCE}"),
            format!("{SENTENCE}\n{cleanup}"),
        ] {
            assert_eq!(recognize(&failure(&message)), None, "{message:?}");
        }
    }

    #[test]
    fn one_envelope_and_trailing_white_space_are_read_through() {
        for message in [
            format!("Error: {SENTENCE}"),
            format!("{SENTENCE}\r\n"),
            format!("AggregateError: {SENTENCE} \t\n"),
        ] {
            assert_eq!(carrier(&message), Some(Carrier::Provider), "{message:?}");
        }
        for message in [
            format!("Error: Error: {SENTENCE}"),
            format!(" {SENTENCE}"),
            format!("TypeError: {SENTENCE}"),
        ] {
            assert_eq!(carrier(&message), None, "{message:?}");
        }
        let enveloped = format!("Error: {}\n", runner("workspace-write"));
        assert!(matches!(carrier(&enveloped), Some(Carrier::Runner { .. })));
    }

    #[test]
    fn runner_carrier_needs_the_exact_unavailable_text() {
        let runner = runner("workspace-write");
        let found = recognize(&failure(&runner));
        assert_eq!(
            found.as_ref().map(|f| &f.carrier),
            Some(&Carrier::Runner {
                mode: SandboxMode::WorkspaceWrite,
                line: format!("windows-acl-run: {SENTENCE}").into(),
            })
        );
        assert_eq!(found.map(|f| f.sentence), Some(SENTENCE.into()));
        let unknown_mode = runner.replace("workspace-write", "full-write");
        assert_eq!(recognize(&failure(&unknown_mode)), None);
        let no_marker = runner.replace("windows-acl-run: ", "");
        assert_eq!(recognize(&failure(&no_marker)), None);
    }
}
