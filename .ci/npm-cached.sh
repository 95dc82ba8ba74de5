#!/usr/bin/env bash
# Installs DIR's node_modules from its package-lock.json, reusing an earlier
# install of the same lockfile.
#
#   .ci/npm-cached.sh DIR
#
# The key is the sha256 of DIR/package-lock.json and the Node.js version (an
# addon or a postinstall step may depend on it). The first install runs
# `npm ci` in a staging copy of package.json + package-lock.json and keeps its
# node_modules under
#   ${XDG_CACHE_HOME:-$HOME/.cache}/sandbox-advisor/npm/<DIR's name>/<key>/
# Later runs copy that node_modules into DIR (a copy, not a link: nothing a test
# writes under node_modules reaches the cache). The bound: one key per DIR name
# is kept; an install removes the others.
set -euo pipefail

dir=${1:?usage: .ci/npm-cached.sh DIR}
dir=$(cd "$dir" && pwd)
[ -f "$dir/package-lock.json" ] || { echo "npm-cached: $dir/package-lock.json is missing" >&2; exit 1; }

key=$( { sha256sum <"$dir/package-lock.json"; node --version; } | sha256sum | cut -d' ' -f1)
base=${XDG_CACHE_HOME:-$HOME/.cache}/sandbox-advisor/npm/$(basename "$dir")
cached=$base/$key
if [ -f "$cached/.complete" ]; then
  echo "npm-cached: $(basename "$dir"): cached install of this lockfile ($key)"
else
  echo "npm-cached: $(basename "$dir"): npm ci (no install of this lockfile cached yet)"
  staging=$base/.staging-$key-$$
  rm -rf "$staging"
  mkdir -p "$staging"
  cp "$dir/package.json" "$dir/package-lock.json" "$staging/"
  (cd "$staging" && npm ci --no-audit --no-fund --loglevel=error)
  touch "$staging/.complete"
  rm -rf "$cached"
  mv "$staging" "$cached"
fi
for other in "$base"/*/ "$base"/.staging-*/; do
  [ -d "$other" ] || continue
  other=${other%/}
  case "$(basename "$other")" in
    "$key") ;;
    .staging-*) [ -n "$(find "$other" -maxdepth 0 -mmin +60)" ] && rm -rf "$other" ;;
    *) [[ "$(basename "$other")" =~ ^[0-9a-f]{64}$ ]] && rm -rf "$other" ;;
  esac
done
rm -rf "$dir/node_modules"
cp -a "$cached/node_modules" "$dir/node_modules"
