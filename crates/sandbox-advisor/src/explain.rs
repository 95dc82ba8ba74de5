//! `explain`: one failure (or success value) against every family, ignoring the ledger.

use std::fmt::Write as _;
use std::sync::Arc;

use advisor_core::quote::escaped;
use advisor_core::{
    AgentId, CallId, Explanation, Failure, HostBinary, HostFacts, NoPolicyService, Observation,
    Outcome, Platform, PolicySource, RegistryBuilder, SandboxMode, Seat, SessionId, Success,
    ToolName, Unresolved, Withheld, WithholdReason,
};
use host_adapter::{AdapterError, HostAdapter, PolicyDefaults, SessionPolicy};
use serde_json::Value;

use crate::config::FileConfig;
use crate::engine::{Decision, Hook};
use crate::render::decision_line;
use crate::withheld::reason_text;

/// What to explain.
#[derive(Debug, Clone, PartialEq)]
pub enum Subject {
    /// A failure's message (as `error.message`).
    Message {
        /// The message.
        text: String,
        /// Aggregate members, if any.
        members: Vec<String>,
    },
    /// A success's canonical value.
    Value(Value),
}

/// The facts `explain` decides with.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// The failure or value.
    pub subject: Subject,
    /// The host platform.
    pub platform: Platform,
    /// The agent host (`--host`): only its families are asked.
    pub host: advisor_core::Host,
    /// The session's mode; `None` means unknown (families that need it withhold).
    pub mode: Option<SandboxMode>,
    /// The workspace root.
    pub root: Option<String>,
    /// Whether the host is an Electron binary.
    pub electron: bool,
    /// The host's temp directory.
    pub tmpdir: Option<String>,
    /// The tool that was called.
    pub tool: String,
    /// The call's `command` argument, when given.
    pub command: Option<String>,
    /// The configuration (`href`, `include`/`exclude`, `fallbackRoot`).
    pub config: FileConfig,
    /// Whether the text gives the advisory's full account (`detail`) after
    /// its brief (`explain --detail`, as `replay --detail`); without it, one
    /// line says how to get it.
    pub detail: bool,
}

/// The report, and whether a family claimed the subject (spoke or withheld).
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The text to print.
    pub text: String,
    /// True when a family spoke or withheld.
    pub recognized: bool,
    /// The same verdict as the decision on a `post` line (agent, session and
    /// call `explain`): the advisory spoken, or the withheld one.
    pub decision: Decision,
}

impl Report {
    /// The decision as one protocol output line (`seq` 1), newline-terminated.
    pub fn json_line(&self) -> Result<String, serde_json::Error> {
        let mut line = serde_json::to_string(&decision_line(1, &self.decision))?;
        line.push('\n');
        Ok(line)
    }
}

const SESSION: &str = "explain";

/// Said after a brief when `--detail` was not given.
pub const FULL_ACCOUNT_HINT: &str =
    "\n(The full account, `detail`: the same command with --detail.)\n";

/// Runs every family of `registry` over the subject.
pub async fn explain(request: Request, registry: RegistryBuilder) -> Result<Report, AdapterError> {
    let session = SessionId::new(SESSION);
    let policy: Arc<dyn PolicySource> = match request.mode {
        Some(mode) => {
            let policy = SessionPolicy::new(PolicyDefaults {
                default_mode: request.config.default_mode,
                fallback_root: request.config.fallback_root.clone(),
                platform: request.platform,
            });
            if let Some(root) = &request.root {
                policy.open_session(&session, root);
            }
            policy.set_mode(&session, mode);
            Arc::new(policy)
        }
        None => Arc::new(NoPolicyService),
    };
    let adapter = HostAdapter::builder()
        .host(HostFacts {
            kind: request.host,
            platform: request.platform,
            binary: if request.electron {
                HostBinary::Electron
            } else {
                HostBinary::NotElectron
            },
            temp_dir: request.tmpdir.clone(),
        })
        .policy(policy)
        .config(request.config.core.clone())
        .registry(registry)
        .build()?;
    let outcome = match &request.subject {
        Subject::Message { text, members } => Outcome::Failure(Failure {
            message: text.clone(),
            members: members.clone(),
            content: format!("Error: {text}"),
            code: None,
        }),
        Subject::Value(value) => Outcome::Success(Success {
            value: value.clone(),
            content: String::new(),
        }),
    };
    let observation = Observation {
        agent: AgentId::new(SESSION),
        session: Some(session),
        call: CallId::new(SESSION),
        tool: ToolName::new(&request.tool),
        arguments: match &request.command {
            Some(command) => serde_json::json!({ "command": command }),
            None => Value::Object(Default::default()),
        },
        outcome,
    };
    let verdicts = adapter.explain(&observation, None).await;
    let docs: Vec<_> = adapter
        .advisor()
        .registry()
        .families()
        .map(|f| (f.id(), f.doc()))
        .collect();
    let (text, recognized) = render(&request, &verdicts, &docs);
    let mut decision = Decision {
        hook: Hook::Post,
        agent: Some(observation.agent),
        session: observation.session,
        call: Some((observation.call, observation.tool)),
        advisories: Vec::new(),
        withheld: Vec::new(),
        refusal: None,
    };
    for (family, verdict) in verdicts {
        match verdict {
            Explanation::Speaks(advisory) => decision.advisories.push(advisory),
            Explanation::Withheld(reason, diagnosis) => decision.withheld.push(Withheld {
                family,
                seat: Seat::Failure,
                reason,
                diagnosis: Some(diagnosis),
            }),
            _ => {}
        }
    }
    Ok(Report {
        text,
        recognized,
        decision,
    })
}

fn context(request: &Request) -> String {
    let mode = request
        .mode
        .map_or("unknown (no --mode)".to_owned(), |m| m.to_string());
    let root = request
        .root
        .as_deref()
        .map_or("none (no --root)".to_owned(), |r| escaped(r).to_string());
    let binary = if request.electron {
        ", Electron host"
    } else {
        ""
    };
    format!(
        "host {} on {}{binary}, mode {mode}, root {root}, tool {}",
        request.host,
        request.platform.as_str(),
        escaped(&request.tool)
    )
}

fn reason(request: &Request, why: &WithholdReason) -> String {
    match (why, request.mode) {
        (WithholdReason::Unresolved(Unresolved::NoPolicyService), None) => format!(
            "{} — the sandbox mode is unknown; pass --mode (and --root) to resolve it",
            why.code()
        ),
        _ => reason_text(why),
    }
}

fn render(
    request: &Request,
    verdicts: &[(advisor_core::FamilyId, Explanation)],
    docs: &[(advisor_core::FamilyId, advisor_core::FamilyDoc)],
) -> (String, bool) {
    let mut out = String::new();
    let mut recognized = false;
    for (family, verdict) in verdicts {
        match verdict {
            Explanation::Speaks(advisory) => {
                recognized = true;
                let _ = write!(
                    out,
                    "{family} recognizes this and speaks ({}).\n\n{}\n\n{}\n",
                    context(request),
                    advisory.summary.as_str(),
                    advisory.text.trim_end()
                );
                if advisory.detail == advisory.text {
                    // `advisoryText: full`: the brief is the full account.
                } else if request.detail {
                    let _ = write!(
                        out,
                        "\n── the full account (`detail`)\n\n{}\n",
                        advisory.detail.trim_end()
                    );
                } else {
                    out.push_str(FULL_ACCOUNT_HINT);
                }
            }
            Explanation::Withheld(why, _) => {
                recognized = true;
                let _ = writeln!(
                    out,
                    "{family} recognizes this but withholds its advisory ({}):\n  {}",
                    context(request),
                    reason(request, why)
                );
            }
            _ => {}
        }
    }
    let width = verdicts
        .iter()
        .map(|(f, _)| f.as_str().len())
        .max()
        .unwrap_or(0);
    let mut others = String::new();
    for (family, verdict) in verdicts {
        let why = match verdict {
            Explanation::Speaks(_) | Explanation::Withheld(..) => continue,
            // Beside an owner, a family that did not match is noise; alone, it is the answer.
            Explanation::NotRecognized if recognized => continue,
            Explanation::NotRecognized => {
                let looks_for = docs
                    .iter()
                    .find(|(f, _)| f == family)
                    .map_or("its producer's shape", |(_, d)| d.recognizes);
                format!("not its shape — it looks for {looks_for}")
            }
            Explanation::Outranked(owner) => {
                format!("matches too, but {owner} comes first and owns it")
            }
            Explanation::Declined(code) => {
                format!("matches, then declines: {code} (a sanctioned outcome, not its story)")
            }
            Explanation::Deferred(code) => {
                format!("matches, then defers ({code}) to the next family that recognizes it")
            }
        };
        let _ = writeln!(others, "  {:<width$}  {why}", family.as_str());
    }
    if !recognized {
        let _ = writeln!(
            out,
            "Nothing recognized this ({}). The families that looked:",
            context(request)
        );
        out.push_str(&others);
    } else if !others.is_empty() {
        out.push_str("\nAlso matched:\n");
        out.push_str(&others);
    }
    if verdicts.is_empty() {
        out.push_str("  (no family is compiled in)\n");
    }
    (out, recognized)
}
