//! The one `check` helper: every fixture of a crate through a registry, one snapshot each.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::case::{Case, Subject};
use super::fixture::Decision;
use crate::advisory::Advisory;
use crate::environment::PolicyNeed;
use crate::family::{Gate, PreflightVerdict, WithholdReason};
use crate::provenance::Provenance;
use crate::registry::{Registry, RegistryBuilder};

/// What the registry decided for one case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The family that decided (the owner, or the one an owner deferred
    /// to), or `None` when nothing recognized the case.
    pub family: Option<String>,
    /// The first family that recognized it (the owner before any deferral).
    pub first_owner: Option<String>,
    /// The owner's decision.
    pub decision: Option<Decision>,
    /// The withhold or decline code.
    pub reason: Option<String>,
    /// The readable account the snapshot stores.
    pub report: String,
    /// The size of the brief, when the family spoke.
    pub brief: Option<crate::brief::BriefSize>,
}

/// What the owner said, before it is written down.
enum Said {
    Speak(Advisory),
    Withhold(WithholdReason, Option<crate::Diagnosis>),
    Decline(&'static str),
}

/// Decides one case the way the advisor does, without the ledger.
pub fn decide(registry: &Registry, case: &Case) -> Outcome {
    let mut report = format!("about: {}\n", case.fixture.about);
    let mut said = None;
    let mut family = None;
    let mut first_owner = None;
    match &case.subject {
        Subject::Observation(observation) => {
            let mut next = registry.owner(observation, case.host.kind);
            first_owner = next.as_ref().map(|o| o.family.as_str().to_owned());
            if next.is_none() {
                report.push_str("owner: none\n");
            }
            while let Some(owner) = next.take() {
                let _ = writeln!(report, "owner: {}", owner.family);
                let _ = writeln!(report, "finding: {:?}", owner.finding.finding());
                family = Some(owner.family);
                // As the advisor does: the facts the family names, then its
                // provenance (before any policy), then the gate.
                let wanted = owner.finding.checks(&case.host);
                let mut env = case.environment(false);
                env.checks = case.checks.clone().only(wanted);
                let provenance = owner.finding.provenance(&env);
                // Shown where it can change the decision or the text: a
                // family that names checks, or one that says it is forgeable.
                let shown = matches!(provenance, Provenance::Forgeable | Provenance::Refuted(_));
                if !wanted.is_empty() || shown {
                    let _ = writeln!(report, "provenance: {}", provenance.describe());
                }
                if owner.finding.policy_need(&case.host) == PolicyNeed::Required {
                    env.policy = case.policy.clone();
                }
                let gate = match provenance {
                    Provenance::Refuted(code) => Gate::Decline(code),
                    _ => owner.finding.gate(&env),
                };
                said = Some(match gate {
                    Gate::Speak => Said::Speak(owner.finding.advise(&env)),
                    Gate::Withhold(reason) => Said::Withhold(
                        reason,
                        Some(owner.finding.diagnose(&env).at_most_suspected()),
                    ),
                    Gate::Decline(code) => Said::Decline(code),
                    Gate::Defer(code) => {
                        // The next family that recognizes it decides.
                        let _ = writeln!(report, "deferred: {code}");
                        next =
                            registry.owner_after(observation, case.host.kind, Some(owner.position));
                        if next.is_none() {
                            report.push_str("owner: none after it\n");
                            family = None;
                        }
                        continue;
                    }
                });
            }
        }
        Subject::Preflight => {
            let env = case.environment(true);
            let checker = registry.preflight_families(&case.host).next();
            match checker {
                None => report.push_str("pre-flight: none on this host\n"),
                Some(checker) => {
                    let _ = writeln!(report, "pre-flight: {}", checker.id());
                    match checker.preflight(&env) {
                        PreflightVerdict::Clear => report.push_str("verdict: clear\n"),
                        PreflightVerdict::Advise(advisory) => {
                            family = Some(checker.id());
                            said = Some(Said::Speak(advisory));
                        }
                        PreflightVerdict::Withhold(reason) => {
                            family = Some(checker.id());
                            said = Some(Said::Withhold(reason, None));
                        }
                    }
                }
            }
        }
    }
    let mut brief = None;
    let (decision, reason) = match said {
        None => (None, None),
        Some(Said::Speak(advisory)) => {
            brief = Some(crate::brief::BriefSize::of(&advisory.text));
            let _ = write!(
                report,
                "decision: speak\ndiagnosis: {}\nsummary: {}\n\n{}\n",
                serde_json::to_string(&advisory.diagnosis).unwrap_or_default(),
                advisory.summary.as_str(),
                advisory.text
            );
            if advisory.detail != advisory.text {
                let _ = write!(report, "\n--- detail\n\n{}\n", advisory.detail);
            }
            (Some(Decision::Speak), None)
        }
        Some(Said::Withhold(reason, diagnosis)) => {
            let _ = writeln!(report, "decision: withhold {} ({reason})", reason.code());
            if let Some(d) = diagnosis {
                let _ = writeln!(
                    report,
                    "diagnosis: {}",
                    serde_json::to_string(&d).unwrap_or_default()
                );
            }
            (Some(Decision::Withhold), Some(reason.code().to_owned()))
        }
        Some(Said::Decline(code)) => {
            let _ = writeln!(report, "decision: decline {code}");
            (Some(Decision::Decline), Some(code.to_owned()))
        }
    };
    Outcome {
        family: family.map(|f| f.as_str().to_owned()),
        first_owner,
        decision,
        reason,
        report,
        brief,
    }
}

/// The fixture files of a crate, sorted: `<crate_dir>/tests/fixtures/*.toml`.
pub fn fixture_files(crate_dir: &str) -> Vec<PathBuf> {
    let dir = Path::new(crate_dir).join("tests/fixtures");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "toml"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// Checks every fixture of the crate at `crate_dir` through the registry `builder` builds.
///
/// Every file must follow the naming rule and the format; every decision must
/// match its `[expect]`; the registry's prefilter must agree with the
/// recognizers run on their own (a prefilter that hides a match, or a
/// recognizer that reads what its anchors exclude, is a problem); then each
/// case's report is an insta snapshot in
/// `<crate_dir>/tests/snapshots/fixtures__<case>.snap`. All mismatches are
/// reported together, before any snapshot is compared. A crate with no
/// fixture, or with no `pos-` and `ctl-` pair, fails.
///
/// ```no_run
/// # struct MyFamily;
/// # fn f(b: advisor_core::RegistryBuilder) {
/// advisor_core::testing::check(b, env!("CARGO_MANIFEST_DIR"));
/// # }
/// ```
#[allow(clippy::panic)]
pub fn check(builder: RegistryBuilder, crate_dir: &str) {
    let registry = match builder.build() {
        Ok(registry) => registry,
        Err(e) => panic!("the registry does not build: {e}"),
    };
    let registry = &registry;
    let files = fixture_files(crate_dir);
    let mut problems: Vec<String> = registry
        .families()
        .filter(|f| !f.doc().is_complete())
        .map(|f| {
            format!(
                "{}: its README lacks a **Recognizes:** or **Refuses:** line",
                f.id()
            )
        })
        .collect();
    let mut decided = Vec::new();
    for path in &files {
        let case = match Case::load(path) {
            Ok(case) => case,
            Err(e) => {
                problems.push(e.to_string());
                continue;
            }
        };
        let got = decide(registry, &case);
        if let Some(size) = got.brief {
            if !size.fits() {
                problems.push(format!(
                    "{}: the brief is {} characters of prose and {} in all; the budget is {} and {}",
                    case.name,
                    size.prose,
                    size.total,
                    crate::brief::PROSE_MAX_CHARS,
                    crate::brief::TOTAL_MAX_CHARS
                ));
            }
        }
        if let Some(observation) = case.observation() {
            // The host's families alone: another host's never see it.
            let unfiltered = registry
                .families_on(case.host.kind)
                .find(|f| f.recognize(observation).is_some())
                .map(|f| f.id().as_str().to_owned());
            if unfiltered != got.first_owner {
                problems.push(format!(
                    "{}: the recognizers alone say {}, through the prefilter {}: an anchor hides a match, or a recognizer reads what its anchors exclude",
                    case.name,
                    unfiltered.as_deref().unwrap_or("no owner"),
                    got.first_owner.as_deref().unwrap_or("no owner"),
                ));
            }
        }
        let want = &case.fixture.expect;
        if got.family != want.family || got.decision != want.decision || got.reason != want.reason {
            problems.push(format!(
                "{}: expected {} but the registry said {}",
                case.name,
                describe(
                    want.family.as_deref(),
                    want.decision,
                    want.reason.as_deref()
                ),
                describe(got.family.as_deref(), got.decision, got.reason.as_deref()),
            ));
        }
        decided.push((case, got));
    }
    let arms = |arm| decided.iter().any(|(c, _)| c.arm == arm);
    if !arms(super::fixture::Arm::Positive) || !arms(super::fixture::Arm::Control) {
        problems.push(format!(
            "{crate_dir}/tests/fixtures: needs at least one pos- and one ctl- fixture"
        ));
    }
    if !problems.is_empty() {
        panic!(
            "{} fixture problem(s):\n{}",
            problems.len(),
            problems.join("\n")
        );
    }
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(Path::new(crate_dir).join("tests/snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        for (case, got) in &decided {
            insta::assert_snapshot!(format!("fixtures__{}", case.name), got.report);
        }
    });
}

fn describe(family: Option<&str>, decision: Option<Decision>, reason: Option<&str>) -> String {
    match (family, decision) {
        (None, _) => "no owner".to_owned(),
        (Some(f), d) => {
            let d = match d {
                Some(Decision::Speak) => "speak",
                Some(Decision::Withhold) => "withhold",
                Some(Decision::Decline) => "decline",
                None => "no decision",
            };
            match reason {
                Some(r) => format!("{f} {d} {r}"),
                None => format!("{f} {d}"),
            }
        }
    }
}

/// One family's verdict on an observation built in a test (the in-code
/// counterpart of a fixture, for property and hostile-input tests).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The family does not recognize it.
    NotRecognized,
    /// Recognized; the gate withholds with this code.
    Withhold(&'static str),
    /// Recognized; the gate declines with this code.
    Decline(&'static str),
    /// Recognized; the advisory (with its sources named, as delivered).
    Speak(Box<Advisory>),
}

impl Verdict {
    /// The advisory, when the family spoke.
    pub fn advisory(self) -> Option<Advisory> {
        match self {
            Verdict::Speak(a) => Some(*a),
            _ => None,
        }
    }
}

/// Runs `family` alone on `observation` under `env`, the way the registry does.
pub fn verdict<F: crate::Family>(
    family: &F,
    observation: &crate::Observation,
    env: &crate::Environment,
) -> Verdict {
    // As the registry does: a family never sees a tool outside its scope.
    if !family.tools().admits(observation) {
        return Verdict::NotRecognized;
    }
    let Some(finding) = family.recognize(observation) else {
        return Verdict::NotRecognized;
    };
    if let Provenance::Refuted(code) = family.provenance(&finding, env) {
        return Verdict::Decline(code);
    }
    match family.gate(&finding, env) {
        Gate::Speak => Verdict::Speak(Box::new(family.advise(&finding, env).name_sources(env))),
        Gate::Withhold(reason) => Verdict::Withhold(reason.code()),
        Gate::Decline(code) | Gate::Defer(code) => Verdict::Decline(code),
    }
}
