//! [`family!`](crate::family!): a family declared in one place.

/// Declares a family: a unit struct and its [`Family`](crate::Family) impl,
/// forwarding to the crate's own `recognize`, `gate` and `advise` functions.
/// `hosts:` is the agent hosts whose failures it knows ([`Host`](crate::Host));
/// `tools:` is the family's [`ToolScope`](crate::ToolScope) (default: any tool).
///
/// The family's `doc` is read from its README (`readme:`, usually
/// `include_str!("../README.md")`), which is also the crate doc, so what a
/// family recognizes and refuses is written once. The optional keys are the
/// trait's optional methods (`policy_need:`, `checks:`, `check_path:`, `provenance:`, `diagnose:`,
/// `preflight:`); `sample:` is compiled only with the crate's own
/// `testing` feature.
///
/// ```
/// use advisor_core::{Advisory, Anchors, Environment, FamilyId, Gate, Host, Observation};
///
/// fn recognize(o: &Observation) -> Option<()> {
///     o.failure().filter(|f| f.message == "boom").map(|_| ())
/// }
/// fn gate(_: &(), _: &Environment) -> Gate {
///     Gate::Speak
/// }
/// fn advise(_: &(), _: &Environment) -> Advisory {
///     Advisory::new(FamilyId::new("boom"), "It went boom.", "It went boom.".into())
/// }
///
/// advisor_core::family! {
///     /// The boom family.
///     pub struct Boom {
///         id: FamilyId::new("boom"),
///         finding: (),
///         readme: "**Recognizes:** a boom.\n**Refuses:** anything else.\n",
///         hosts: &[Host::Dsh],
///         anchors: Anchors::FailureText { needles: &["boom"] },
///         recognize: recognize,
///         gate: gate,
///         advise: advise,
///     }
/// }
///
/// use advisor_core::Family;
/// assert_eq!(Boom.doc().recognizes, "a boom.");
/// ```
#[macro_export]
macro_rules! family {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            id: $id:expr,
            finding: $finding:ty,
            readme: $readme:expr,
            hosts: $hosts:expr,
            anchors: $anchors:expr,
            recognize: $recognize:expr,
            gate: $gate:expr,
            advise: $advise:expr
            $(, tools: $tools:expr)?
            $(, policy_need: $policy_need:expr)?
            $(, checks: $checks:expr)?
            $(, check_path: $check_path:expr)?
            $(, provenance: $provenance:expr)?
            $(, diagnose: $diagnose:expr)?
            $(, preflight: ($wants:expr, $preflight:expr))?
            $(, sample: $sample:expr)?
            $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Default, Clone, Copy)]
        $vis struct $name;

        impl $crate::Family for $name {
            type Finding = $finding;

            fn id(&self) -> $crate::FamilyId {
                $id
            }

            fn doc(&self) -> $crate::FamilyDoc {
                $crate::FamilyDoc::from_readme($readme)
            }

            fn hosts(&self) -> &'static [$crate::Host] {
                $hosts
            }

            fn anchors(&self) -> $crate::Anchors {
                $anchors
            }

            fn recognize(&self, observation: &$crate::Observation) -> ::core::option::Option<$finding> {
                ($recognize)(observation)
            }

            fn gate(&self, finding: &$finding, env: &$crate::Environment) -> $crate::Gate {
                ($gate)(finding, env)
            }

            fn advise(&self, finding: &$finding, env: &$crate::Environment) -> $crate::Advisory {
                ($advise)(finding, env)
            }

            $(
                fn tools(&self) -> $crate::ToolScope {
                    $tools
                }
            )?

            $(
                fn policy_need(&self, finding: &$finding, host: &$crate::HostFacts) -> $crate::PolicyNeed {
                    ($policy_need)(finding, host)
                }
            )?

            $(
                fn checks(&self, finding: &$finding, host: &$crate::HostFacts) -> $crate::Checks {
                    ($checks)(finding, host)
                }
            )?

            $(
                fn check_path<'f>(&self, finding: &'f $finding) -> Option<&'f str> {
                    ($check_path)(finding)
                }
            )?

            $(
                fn provenance(&self, finding: &$finding, env: &$crate::Environment) -> $crate::Provenance {
                    ($provenance)(finding, env)
                }
            )?

            $(
                fn diagnose(&self, finding: &$finding, env: &$crate::Environment) -> $crate::Diagnosis {
                    ($diagnose)(finding, env)
                }
            )?

            $(
                fn wants_preflight(&self, host: &$crate::HostFacts) -> bool {
                    ($wants)(host)
                }

                fn preflight(&self, env: &$crate::Environment) -> $crate::PreflightVerdict {
                    ($preflight)(env)
                }
            )?

            $(
                #[cfg(feature = "testing")]
                fn producer_sample(&self) -> ::core::option::Option<$crate::testing::ProducerSample> {
                    ::core::option::Option::Some($sample)
                }
            )?
        }
    };
}

/// A [`Diagnosis`](crate::Diagnosis) constant from its variant names, in field order:
///
/// ```
/// const D: advisor_core::Diagnosis = advisor_core::diagnosis!(
///     category: RunnerSetupFailed, phase: Setup, confidence: Confirmed, source: Runner,
///     command_started: No, effects: None, retry: AfterRemedy, remedy_owner: User
/// );
/// assert_eq!(D.phase, advisor_core::diagnosis::Phase::Setup);
/// ```
#[macro_export]
macro_rules! diagnosis {
    (
        category: $category:ident, phase: $phase:ident, confidence: $confidence:ident,
        source: $source:ident, command_started: $started:ident, effects: $effects:ident,
        retry: $retry:ident, remedy_owner: $owner:ident $(,)?
    ) => {
        $crate::Diagnosis {
            category: $crate::diagnosis::Category::$category,
            phase: $crate::diagnosis::Phase::$phase,
            confidence: $crate::diagnosis::Confidence::$confidence,
            source: $crate::diagnosis::Source::$source,
            command_started: $crate::diagnosis::CommandStarted::$started,
            effects: $crate::diagnosis::Effects::$effects,
            retry: $crate::diagnosis::Retry::$retry,
            remedy_owner: $crate::diagnosis::RemedyOwner::$owner,
        }
    };
}
