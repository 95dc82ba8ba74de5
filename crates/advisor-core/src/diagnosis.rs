//! A structured diagnosis beside the advisory's prose, for harnesses that act
//! on it (stop their own retry loop, show a card, route it to the user).
//!
//! The field set follows the Rust harness's Windows execution-diagnostics plan
//! (`category`, `phase`, `confidence`, `source`, `commandStarted`, `effects`),
//! plus who owns the remedy and when a retry can help.

use serde::Serialize;

/// What kind of failure it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    /// The restricted process could not resolve the command.
    CommandNotFound,
    /// A file access was refused.
    FileAccessDenied,
    /// The console or pseudo-console could not be used.
    ConsoleHostError,
    /// The sandbox runner could not be set up (grants, temp root, token).
    RunnerSetupFailed,
    /// Undoing the runner's setup failed.
    RunnerCleanupFailed,
    /// The command ran and failed.
    CommandFailed,
    /// The family did not classify it.
    Unclassified,
}

/// Where in a call's life it failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Resolving the command or the policy.
    Resolve,
    /// Preparing the sandbox (grants, temp directories).
    Setup,
    /// Starting the process.
    Spawn,
    /// The command running.
    Execute,
    /// Collecting its output.
    Collect,
    /// Undoing the setup.
    Cleanup,
}

/// How sure the advisor is of the cause.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Confidence {
    /// The producer's exact shape and the resolved facts agree.
    Confirmed,
    /// The shape matches; a fact that would confirm it is missing or one of several causes fits.
    Suspected,
    /// Not known.
    Unknown,
}

/// Which component's facts the diagnosis rests on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// The sandbox policy or the executor's stamp of it.
    Policy,
    /// The sandbox runner or provider.
    Runner,
    /// A shell's structured error record.
    ShellErrorRecord,
    /// Free text the application printed.
    ApplicationOutput,
}

/// Whether the user's command started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CommandStarted {
    /// It started.
    Yes,
    /// It never started.
    No,
    /// Not known.
    Unknown,
}

impl Serialize for CommandStarted {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            CommandStarted::Yes => s.serialize_bool(true),
            CommandStarted::No => s.serialize_bool(false),
            CommandStarted::Unknown => s.serialize_str("unknown"),
        }
    }
}

/// Whether the failed call may have changed anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Effects {
    /// Nothing was changed.
    None,
    /// Something may have been changed (a partial write, a grant left behind).
    Possible,
    /// A change was observed.
    Verified,
}

/// When repeating the call can help.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Retry {
    /// Never under these conditions: the same call fails the same way.
    Never,
    /// After the remedy has been applied.
    AfterRemedy,
    /// Repeating may help.
    Allowed,
}

/// Who can apply the remedy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RemedyOwner {
    /// The person running the harness.
    User,
    /// The harness itself (its configuration or code).
    Harness,
    /// No remedy is known.
    None,
}

/// The structured diagnosis of one recognized failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Diagnosis {
    /// What kind of failure.
    pub category: Category,
    /// Where in the call's life.
    pub phase: Phase,
    /// How sure.
    pub confidence: Confidence,
    /// Whose facts.
    pub source: Source,
    /// Whether the command started.
    pub command_started: CommandStarted,
    /// Whether anything may have changed.
    pub effects: Effects,
    /// When a retry can help.
    pub retry: Retry,
    /// Who applies the remedy.
    pub remedy_owner: RemedyOwner,
}

impl Diagnosis {
    /// What a family that declares no diagnosis reports.
    pub const UNCLASSIFIED: Diagnosis = Diagnosis {
        category: Category::Unclassified,
        phase: Phase::Execute,
        confidence: Confidence::Unknown,
        source: Source::ApplicationOutput,
        command_started: CommandStarted::Unknown,
        effects: Effects::Possible,
        retry: Retry::Never,
        remedy_owner: RemedyOwner::User,
    };

    /// The same diagnosis, no surer than `suspected` (used when the gate withheld:
    /// a fact that would confirm it was missing).
    pub fn at_most_suspected(mut self) -> Self {
        if self.confidence == Confidence::Confirmed {
            self.confidence = Confidence::Suspected;
        }
        self
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn serializes_with_the_plans_spellings() {
        let d = Diagnosis {
            category: Category::RunnerSetupFailed,
            phase: Phase::Setup,
            confidence: Confidence::Confirmed,
            source: Source::ShellErrorRecord,
            command_started: CommandStarted::No,
            effects: Effects::None,
            retry: Retry::AfterRemedy,
            remedy_owner: RemedyOwner::User,
        };
        assert_eq!(
            serde_json::to_string(&d).unwrap(),
            r#"{"category":"runner_setup_failed","phase":"setup","confidence":"confirmed","source":"shell_error_record","commandStarted":false,"effects":"none","retry":"after-remedy","remedyOwner":"user"}"#
        );
        let unknown = Diagnosis::UNCLASSIFIED;
        assert!(
            serde_json::to_string(&unknown)
                .unwrap()
                .contains(r#""commandStarted":"unknown""#)
        );
    }

    #[test]
    fn a_withheld_diagnosis_is_never_confirmed() {
        let mut d = Diagnosis::UNCLASSIFIED;
        d.confidence = Confidence::Confirmed;
        assert_eq!(d.at_most_suspected().confidence, Confidence::Suspected);
        assert_eq!(
            Diagnosis::UNCLASSIFIED.at_most_suspected().confidence,
            Confidence::Unknown
        );
    }
}
