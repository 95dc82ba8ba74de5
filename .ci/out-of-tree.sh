#!/usr/bin/env bash
# Out-of-tree crates against the packaged ones (issue 39): `cargo package`s
# every published crate of this workspace, unpacks the `.crate` files, then
# generates in a temporary directory a family crate and a harness crate that
# depend on them as a user of the Rust package registry would
# (`sandbox-advisor-core = "0.1"`), not on paths into this repository. Each
# builds and runs its one test, offline.
#
# The unpacked crates stand in for the registry through `[patch.crates-io]`
# (the published crates are not on the registry yet); the dependency lines are
# read from docs/hosts-and-families.md, so the page shows what was built. The family is the example family's
# source (examples/third-party-family/src/lib.rs), copied; the harness mounts
# it beside the shipped families and asserts its advisory comes out.
#
#   .ci/out-of-tree.sh      (CARGO_TARGET_DIR: default target/, so the workspace
#                           build's third-party crates are reused: ~50 s; a fresh
#                           target directory: ~180 s on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
export CARGO_PROFILE_DEV_DEBUG=0
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
WORK=$(mktemp -d /tmp/out-of-tree.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

.ci/package.sh >/dev/null
mapfile -t PUBLISHED < <(cargo metadata --format-version 1 --no-deps --offline |
  python3 -c 'import json,sys; [print(p["name"]) for p in json.load(sys.stdin)["packages"] if p["publish"] is None]')

# The toml block under `<!-- out-of-tree: NAME` in docs/hosts-and-families.md.
doc_block() {
  python3 - docs/hosts-and-families.md "$1" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
at = next(i for i, l in enumerate(lines) if l.startswith("<!-- out-of-tree: " + sys.argv[2]))
assert lines[at + 1] == "```toml", lines[at + 1]
end = lines.index("```", at + 2)
print("\n".join(lines[at + 2:end]))
PY
}

mkdir -p "$WORK/registry"
PATCH=""
for name in "${PUBLISHED[@]}"; do
  crate=$(ls "$CARGO_TARGET_DIR/package/$name"-[0-9]*.crate)
  tar -xzf "$crate" -C "$WORK/registry"
  dir=$(basename "$crate" .crate)
  PATCH+="$name = { path = \"$WORK/registry/$dir\" }"$'\n'
done

# One workspace for the two crates: the patch and the lock file live at its root.
# The lock file starts from this repository's, so the third-party versions are
# the ones its build already fetched (offline).
cp Cargo.lock "$WORK/Cargo.lock"
cat >"$WORK/Cargo.toml" <<EOF
[workspace]
resolver = "3"
members = ["my-family", "my-harness"]

# Until the crates are on the registry: the packaged ones, unpacked.
[patch.crates-io]
$PATCH
EOF

mkdir -p "$WORK/my-family/src"
cp examples/third-party-family/src/lib.rs examples/third-party-family/README.md "$WORK/my-family/"
mv "$WORK/my-family/lib.rs" "$WORK/my-family/src/lib.rs"
cat >"$WORK/my-family/Cargo.toml" <<'EOF'
[package]
name = "my-family"
version = "0.1.0"
edition = "2024"

EOF
doc_block my-family >>"$WORK/my-family/Cargo.toml"

mkdir -p "$WORK/my-harness/src" "$WORK/my-harness/tests"
echo '//! A harness that mounts sandbox-advisor.' >"$WORK/my-harness/src/lib.rs"
cat >"$WORK/my-harness/Cargo.toml" <<'EOF'
[package]
name = "my-harness"
version = "0.1.0"
edition = "2024"

EOF
doc_block my-harness >>"$WORK/my-harness/Cargo.toml"
cat >"$WORK/my-harness/tests/mount.rs" <<'EOF'
//! The harness's own family, registered beside the shipped ones, speaks once.

use std::sync::Arc;

use advisor_core::{
    AgentId, CallId, Config, Failure, HostFacts, Observation, Outcome, Platform, SandboxMode,
    SessionId, ToolName,
};
use host_adapter::{HostAdapter, PolicyDefaults, PostExecute, SessionPolicy};

#[tokio::test(flavor = "current_thread")]
async fn the_harness_family_speaks_through_the_packaged_crates() {
    let policy = Arc::new(SessionPolicy::new(PolicyDefaults {
        default_mode: Some(SandboxMode::WorkspaceWrite),
        fallback_root: None,
        platform: Platform::Linux,
    }));
    policy.open_session(&SessionId::new("s1"), "/ws");
    let adapter = HostAdapter::builder()
        .host(HostFacts { platform: Platform::Linux, ..HostFacts::current() })
        .policy(policy)
        .registry(host_adapter::standard_registry().family(my_family::EgressBlocked))
        .config(Config::from_json(serde_json::json!({})).unwrap())
        .build()
        .unwrap();
    let observation = Observation {
        agent: AgentId::new("a1"),
        session: Some(SessionId::new("s1")),
        call: CallId::new("c1"),
        tool: ToolName::new("shell"),
        arguments: serde_json::json!({ "command": "curl https://example.org" }),
        outcome: Outcome::Failure(Failure {
            message: "egress-guard: blocked example.org".into(),
            ..Failure::default()
        }),
    };
    let decision = adapter.post_execute(PostExecute { observation, approved_mode: None }).await;
    let families: Vec<_> = decision.additional_contexts.iter().map(|a| a.family).collect();
    assert_eq!(families, [my_family::ID]);
}
EOF

cd "$WORK"
cargo test --offline --quiet --workspace
echo "out-of-tree.sh: a family and a harness built on the ${#PUBLISHED[@]} packaged crates and passed their tests"
