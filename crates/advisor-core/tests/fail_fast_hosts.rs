//! One fail-fast family per host: two may be registered when no host has
//! both, and the refusal in a host names that host's family.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use advisor_core::{
    Advisory, Anchors, Environment, FailFast, Family, FamilyDoc, FamilyId, Gate, Host, Observation,
    Registry, RegistryError,
};

macro_rules! fail_fast {
    ($name:ident, $id:literal, $hosts:expr) => {
        struct $name;
        impl Family for $name {
            type Finding = ();
            fn id(&self) -> FamilyId {
                FamilyId::new($id)
            }
            fn doc(&self) -> FamilyDoc {
                FamilyDoc {
                    recognizes: "-",
                    refuses: "-",
                }
            }
            fn hosts(&self) -> &'static [Host] {
                $hosts
            }
            fn anchors(&self) -> Anchors {
                Anchors::FailureText { needles: &[$id] }
            }
            fn recognize(&self, o: &Observation) -> Option<()> {
                o.failure()?.message.contains($id).then_some(())
            }
            fn provenance(&self, _: &(), _: &Environment) -> advisor_core::Provenance {
                advisor_core::Provenance::Proven(advisor_core::Proof::HostCheck)
            }
            fn gate(&self, _: &(), _: &Environment) -> Gate {
                Gate::Speak
            }
            fn advise(&self, _: &(), _: &Environment) -> Advisory {
                Advisory::new(self.id(), $id, $id.into())
            }
        }
        impl FailFast for $name {}
    };
}

fail_fast!(Harness, "harness", &[Host::Dsh]);
fail_fast!(Clients, "clients", &[Host::ClaudeCode, Host::Codex]);
fail_fast!(Everywhere, "everywhere", &Host::ALL);

#[test]
fn disjoint_hosts_each_have_their_fail_fast_family() {
    let registry = Registry::builder()
        .fail_fast_family(Harness)
        .fail_fast_family(Clients)
        .build()
        .unwrap();
    let on = |h| registry.fail_fast_family_on(h).map(|f| f.as_str());
    assert_eq!(on(Host::Dsh), Some("harness"));
    assert_eq!(on(Host::ClaudeCode), Some("clients"));
    assert_eq!(on(Host::Codex), Some("clients"));
    assert_eq!(
        registry.fail_fast_family().map(|f| f.as_str()),
        Some("harness")
    );
    assert!(registry.is_fail_fast(FamilyId::new("clients")));
}

#[test]
fn a_second_fail_fast_family_on_a_host_is_refused_by_name_and_host() {
    let e = Registry::builder()
        .fail_fast_family(Clients)
        .fail_fast_family(Everywhere)
        .build()
        .err()
        .unwrap();
    assert_eq!(
        e,
        RegistryError::SecondFailFastFamily(FamilyId::new("everywhere"), Host::ClaudeCode)
    );
    assert_eq!(
        e.to_string(),
        "only one family per host may feed the fail-fast budget; `everywhere` is the second on claude-code"
    );
}

fail_fast!(
    Wide,
    "wide",
    &[Host::ClaudeCode, Host::Codex, Host::GeminiCli]
);
fail_fast!(Gemini, "gemini", &[Host::GeminiCli]);

#[test]
fn a_family_fail_fast_on_some_of_its_hosts_leaves_the_others_to_another() {
    let registry = Registry::builder()
        .fail_fast_family_where(Wide, &[Host::ClaudeCode, Host::Codex])
        .fail_fast_family(Gemini)
        .build()
        .unwrap();
    let on = |h| registry.fail_fast_family_on(h).map(|f| f.as_str());
    assert_eq!(on(Host::ClaudeCode), Some("wide"));
    assert_eq!(on(Host::Codex), Some("wide"));
    assert_eq!(on(Host::GeminiCli), Some("gemini"));
    assert!(registry.is_fail_fast(FamilyId::new("wide")));
    let e = Registry::builder()
        .fail_fast_family(Wide)
        .fail_fast_family(Gemini)
        .build()
        .err()
        .unwrap();
    assert_eq!(
        e,
        RegistryError::SecondFailFastFamily(FamilyId::new("gemini"), Host::GeminiCli)
    );
}

#[test]
fn a_family_is_fail_fast_only_on_its_own_hosts() {
    let e = Registry::builder()
        .fail_fast_family_where(Gemini, &[Host::Codex])
        .build()
        .err()
        .unwrap();
    assert_eq!(
        e,
        RegistryError::FailFastOffItsHosts(FamilyId::new("gemini"), Host::Codex)
    );
}

/// A family fail-fast on some of its hosts counts its failures only there: on
/// Gemini CLI, where `gemini` is the fail-fast family, `wide`'s failures are
/// advised but never make an identical call be refused; on Codex they do.
#[test]
fn a_failure_counts_only_where_its_family_is_fail_fast() {
    use advisor_core::{
        AgentId, CallId, Config, NoPolicyService, PendingCall, Platform, SessionId,
    };
    let advisor = support::advisor(
        Registry::builder()
            .fail_fast_family_where(Wide, &[Host::ClaudeCode, Host::Codex])
            .fail_fast_family(Gemini),
        Config::from_json(serde_json::json!({"enforceAfter": 1, "maxDenials": 2})).unwrap(),
    );
    let arguments = serde_json::json!({"command": "echo hello"});
    let refused_on = |kind: Host, agent: &str| {
        let mut host = advisor_core::testing::host(Platform::Linux);
        host.kind = kind;
        let policy = NoPolicyService;
        support::run(async {
            for call in ["c1", "c2"] {
                let mut failed = support::fail(agent, call, "wide");
                failed.arguments = arguments.clone();
                let decision = advisor
                    .post_execute(&failed, None, &support::ctx(&host, &policy))
                    .await;
                if call == "c1" {
                    assert_eq!(decision.additional_contexts.len(), 1, "{kind:?}: it speaks");
                }
            }
        });
        let pending = PendingCall {
            agent: AgentId::new(agent),
            session: Some(SessionId::new("s1")),
            call: CallId::new("c3"),
            tool: "bash".into(),
            arguments: arguments.clone(),
        };
        advisor.pre_execute_on(&pending, kind).refusal.is_some()
    };
    assert!(
        refused_on(Host::Codex, "a1"),
        "counted where it is fail-fast"
    );
    assert!(
        !refused_on(Host::GeminiCli, "a2"),
        "not counted on Gemini CLI"
    );
}
