#!/usr/bin/env bash
# docs/adding-a-family.md's promise, kept: right after `cargo xtask new-family`
# the suite passes. Scaffolds the guide's own example (`dns-blocked`) in this
# checkout, runs every test a new family can change, then takes the scaffold
# out again (its four edits reverted, its crate removed).
#
#   .ci/new-family.sh test
#
# The tests a family can change: its own crate's; host-adapter's (the
# registry, its tidy checks, the whole-set properties over every family's
# sample); sandbox-advisor's that read the registry or README's families
# table (replay's bundled sessions, families and hook listings, explain,
# the library and docs checks); and xtask's (the scaffold's own, and the
# documented commands). Every other crate does not depend on host-adapter.
#
# Needs a clean tree (CI's fresh clone): the scaffold is undone with git.
set -euo pipefail
cd "$(dirname "$0")/.."

ID=${NEW_FAMILY_ID:-dns-blocked}
CRATE=family-$ID
[ -z "$(git status --porcelain)" ] || { echo "new-family.sh: the tree has changes; run it on a clean checkout" >&2; exit 1; }
[ ! -e "crates/$CRATE" ] || { echo "new-family.sh: crates/$CRATE exists already" >&2; exit 1; }

undo() {
  git checkout -q -- Cargo.toml Cargo.lock README.md crates/host-adapter
  rm -rf "crates/$CRATE"
  [ -z "$(git status --porcelain)" ] || { echo "new-family.sh: the scaffold was not fully undone:" >&2; git status --short >&2; }
}

case "${1:-}" in
  test)
    trap undo EXIT
    cargo xtask new-family "$ID"
    cargo test -p "sandbox-advisor-$CRATE" -p sandbox-advisor-host-adapter -p xtask
    cargo test -p sandbox-advisor --test replay --test hook_cli --test explain --test library \
      --test hook --test docs --test usage
    echo "new-family.sh: $ID scaffolded, its suite passed, and it is removed again"
    ;;
  *)
    sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
