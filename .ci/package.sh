#!/usr/bin/env bash
# `cargo package` over every published crate of the workspace (issue 39): the
# members that do not say `publish = false`, packaged together, offline, so a
# crate's path dependencies on the others resolve to the packages beside it.
# The `.crate` files land in $CARGO_TARGET_DIR/package (default target/package).
#
#   .ci/package.sh             --no-verify: the manifests and file lists only
#   .ci/package.sh verify      also builds each package from its .crate
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_PROFILE_DEV_DEBUG=0
mapfile -t PUBLISHED < <(cargo metadata --format-version 1 --no-deps --offline |
  python3 -c 'import json,sys; [print(p["name"]) for p in json.load(sys.stdin)["packages"] if p["publish"] is None]')
[ "${#PUBLISHED[@]}" -gt 0 ] || { echo "package.sh: no published crate in the workspace" >&2; exit 1; }
VERIFY=--no-verify
[ "${1:-}" = verify ] && VERIFY=
cargo package --offline --allow-dirty $VERIFY --quiet "${PUBLISHED[@]/#/--package=}"
echo "package.sh: ${#PUBLISHED[@]} crates packaged (${VERIFY:-verified}): ${PUBLISHED[*]}"
