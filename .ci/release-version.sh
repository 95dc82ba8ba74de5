#!/usr/bin/env bash
# Checks that a release tag names the version being released: the workspace's
# (Cargo.toml, [workspace.package]) and every npm package's (npm/), including
# the launcher's optional dependencies. Without a `v…` tag, only that the
# versions agree among themselves.
#
#   .ci/release-version.sh [TAG]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo=$(sed -n '/^\[workspace\.package\]/,/^\[/s/^version = "\(.*\)"$/\1/p' Cargo.toml)
[ -n "$cargo" ] || { echo "release-version: no version in Cargo.toml's [workspace.package]" >&2; exit 1; }
node - "$cargo" "${1:-}" <<'JS'
const fs = require('node:fs');
const [cargo, tag] = process.argv.slice(2);
const bad = [];
const main = JSON.parse(fs.readFileSync('npm/sandbox-advisor/package.json', 'utf8'));
if (main.version !== cargo) bad.push(`npm/sandbox-advisor is ${main.version}`);
for (const dir of fs.readdirSync('npm/platforms')) {
  const p = JSON.parse(fs.readFileSync(`npm/platforms/${dir}/package.json`, 'utf8'));
  if (p.version !== cargo) bad.push(`${p.name} is ${p.version}`);
  if (main.optionalDependencies[p.name] !== cargo) bad.push(`the launcher asks for ${p.name}@${main.optionalDependencies[p.name]}`);
}
if (tag && tag.startsWith('v') && tag.slice(1) !== cargo) bad.push(`the tag is ${tag}`);
if (bad.length) {
  console.error(`release-version: the workspace is ${cargo}, but ${bad.join('; ')}`);
  process.exit(1);
}
console.log(`release-version: ${cargo}${tag ? ` (${tag})` : ''}`);
JS
