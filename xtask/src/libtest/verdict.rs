//! Deciding what a mutation did to the named tests, from their outcomes with
//! and without it.

use super::{Outcome, Outcomes};

/// What the named tests did under a mutation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Every named test ran and FAILED.
    Caught(Vec<String>),
    /// Some named test passed or did not run: `(name, why)`; the ones that
    /// did fail come second.
    Silent(Vec<(String, String)>, Vec<String>),
    /// The entry proves nothing for another reason.
    Broken(String),
}

/// Judges the named `tests`. `baseline` holds the same packages' results
/// without the mutation (a named test that already fails there proves
/// nothing); `missing` says why a test without any result did not run.
pub fn classify(
    tests: &[String],
    baseline: Option<&Outcomes>,
    mutated: &Outcomes,
    missing: &str,
) -> Verdict {
    if let Some(baseline) = baseline {
        let already: Vec<&str> = tests
            .iter()
            .filter(|t| {
                baseline
                    .get(*t)
                    .is_some_and(|r| r.iter().any(|(_, o)| *o == Outcome::Failed))
            })
            .map(String::as_str)
            .collect();
        if !already.is_empty() {
            return Verdict::Broken(format!(
                "already FAILED without the mutation: {}",
                already.join(", ")
            ));
        }
    }
    let mut failed = Vec::new();
    let mut silent = Vec::new();
    for test in tests {
        let results = mutated.get(test).map(Vec::as_slice).unwrap_or_default();
        let count = |want: Outcome| results.iter().filter(|(_, o)| *o == want).count();
        let (passed, ignored) = (count(Outcome::Passed), count(Outcome::Ignored));
        if results.is_empty() {
            let why = match baseline {
                Some(baseline) if !baseline.contains_key(test) => {
                    "no such test: not in any test target of the unmutated run".to_owned()
                }
                _ => missing.to_owned(),
            };
            silent.push((test.clone(), why));
        } else if passed > 0 {
            let places: Vec<&str> = results
                .iter()
                .filter(|(_, o)| *o == Outcome::Passed)
                .map(|(b, _)| b.as_str())
                .collect();
            let why = if results.len() > 1 {
                format!("passed in {}", places.join(", "))
            } else {
                "passed".to_owned()
            };
            silent.push((test.clone(), why));
        } else if ignored > 0 {
            silent.push((test.clone(), "ignored".to_owned()));
        } else {
            failed.push(test.clone());
        }
    }
    if silent.is_empty() {
        Verdict::Caught(failed)
    } else {
        Verdict::Silent(silent, failed)
    }
}
