//! Shared by the tests: a server (or a skip), stores on it, and advisors over
//! them with the engine tests' family doubles (copied from
//! crates/advisor-core/tests/support/mod.rs and tests/store.rs).
#![allow(
    dead_code,
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic
)]

use std::sync::Arc;
use std::time::Duration;

use advisor_core::testing::{failure, host, success};
use advisor_core::{
    Advisor, Advisory, AgentId, AgentKey, Anchors, CallId, Config, Context, Environment, FailFast,
    Family, FamilyDoc, FamilyId, Gate, HostFacts, LedgerStore, NoPolicyService, Observation,
    PendingCall, Platform, PolicyNeed, Registry, SessionId,
};
use ledger_redis::testing::RedisServer;
use ledger_redis::{RedisOptions, RedisStore};
use serde_json::{Value, json};

/// The server, or `None` when the test is skipped (the policy is in `start`).
pub fn server() -> Option<RedisServer> {
    RedisServer::start()
}

pub fn store(server: &RedisServer) -> Arc<RedisStore> {
    store_with(server, RedisOptions::default())
}

pub fn store_with(server: &RedisServer, options: RedisOptions) -> Arc<RedisStore> {
    Arc::new(RedisStore::connect(&server.url(), options).unwrap())
}

pub fn ttl(ttl: Duration) -> RedisOptions {
    RedisOptions {
        ttl,
        ..RedisOptions::default()
    }
}

/// A key as the README documents it.
pub fn key(agent: &str, rest: &str) -> String {
    format!(
        "sandbox-advisor:v1:{{{}}}:{rest}",
        AgentKey::of(&AgentId::new(agent)).as_str()
    )
}

/// Every key on the server.
pub fn all_keys(server: &RedisServer) -> Vec<String> {
    let mut c = server.connection().unwrap();
    let mut keys: Vec<String> = redis::cmd("KEYS").arg("*").query(&mut c).unwrap();
    keys.sort();
    keys
}

pub fn pttl(server: &RedisServer, key: &str) -> i64 {
    redis::cmd("PTTL")
        .arg(key)
        .query(&mut server.connection().unwrap())
        .unwrap()
}

/// The failures counted in a stored budget record (bytes 1..5, little-endian,
/// per the layout in advisor-core's budget codec).
pub fn failures_counted(server: &RedisServer, agent: &str) -> u32 {
    let bytes: Vec<u8> = redis::cmd("GET")
        .arg(key(agent, "budget"))
        .query(&mut server.connection().unwrap())
        .unwrap();
    u32::from_le_bytes(bytes[1..5].try_into().unwrap())
}

/// Recognizes a failure whose message contains `ALPHA`; always speaks.
#[derive(Debug, Clone, Copy)]
pub struct Alpha;

impl Family for Alpha {
    type Finding = ();
    fn id(&self) -> FamilyId {
        FamilyId::new("alpha")
    }
    fn doc(&self) -> FamilyDoc {
        FamilyDoc {
            recognizes: "ALPHA",
            refuses: "-",
        }
    }
    fn anchors(&self) -> Anchors {
        Anchors::Always
    }
    fn recognize(&self, observation: &Observation) -> Option<()> {
        observation
            .failure()?
            .message
            .contains("ALPHA")
            .then_some(())
    }
    fn policy_need(&self, _finding: &(), _host: &HostFacts) -> PolicyNeed {
        PolicyNeed::NotNeeded
    }
    fn gate(&self, _finding: &(), _env: &Environment) -> Gate {
        Gate::Speak
    }
    fn advise(&self, _finding: &(), _env: &Environment) -> Advisory {
        Advisory::new(self.id(), "alpha summary", "alpha saw it".into())
    }
}

/// The fail-fast double (only it may feed the budget).
#[derive(Debug, Clone, Copy)]
pub struct Provisioning;

impl Family for Provisioning {
    type Finding = ();
    fn id(&self) -> FamilyId {
        FamilyId::new("provisioning")
    }
    fn doc(&self) -> FamilyDoc {
        FamilyDoc {
            recognizes: "PROVISIONING",
            refuses: "-",
        }
    }
    fn anchors(&self) -> Anchors {
        Anchors::FailureText {
            needles: &["PROVISIONING"],
        }
    }
    fn recognize(&self, observation: &Observation) -> Option<()> {
        observation
            .failure()?
            .message
            .contains("PROVISIONING")
            .then_some(())
    }
    fn policy_need(&self, _finding: &(), _host: &HostFacts) -> PolicyNeed {
        PolicyNeed::NotNeeded
    }
    fn gate(&self, _finding: &(), _env: &Environment) -> Gate {
        Gate::Speak
    }
    fn advise(&self, _finding: &(), _env: &Environment) -> Advisory {
        Advisory::new(self.id(), "provisioning failed", "fix the grant".into())
    }
}

impl FailFast for Provisioning {}

/// One "process": an advisor over `store`.
pub fn process(store: &Arc<RedisStore>, config: Value) -> Advisor {
    Advisor::with_stores(
        Registry::builder()
            .fail_fast_family(Provisioning)
            .family(Alpha)
            .build()
            .unwrap(),
        Config::from_json(config).unwrap(),
        vec![store.clone() as Arc<dyn LedgerStore>],
    )
}

pub fn fail(agent: &str, call: &str, message: &str) -> Observation {
    let mut o = failure(message);
    o.agent = agent.into();
    o.call = call.into();
    o
}

pub fn ok(agent: &str, call: &str) -> Observation {
    let mut o = success(json!({"kind": "foreground", "exitCode": 0}), "ok");
    o.agent = agent.into();
    o.call = call.into();
    o
}

/// Posts a settled call; the number of advisories it delivered.
pub fn post(advisor: &Advisor, observation: Observation) -> usize {
    let (host, policy) = (host(Platform::Linux), NoPolicyService);
    let ctx = Context {
        host: &host,
        policy: &policy,
    };
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(advisor.post_execute(&observation, None, &ctx))
        .additional_contexts
        .len()
}

/// Asks before dispatch; true when refused.
pub fn pre(advisor: &Advisor, agent: &str, call: &str) -> bool {
    advisor
        .pre_execute(&PendingCall {
            agent: AgentId::new(agent),
            session: Some(SessionId::new("s1")),
            call: CallId::new(call),
            tool: "bash".into(),
            arguments: json!({"command": "echo hi"}),
        })
        .refusal
        .is_some()
}
