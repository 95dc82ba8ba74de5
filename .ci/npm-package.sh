#!/usr/bin/env bash
# The prebuilt binary through npm (npm/): the `sandbox-advisor` package, whose
# launcher runs the binary of the platform package npm installed from its
# optional dependencies (@sandbox-advisor/<platform>, the esbuild convention).
#
#   .ci/npm-package.sh pack OUT PLATFORM BIN
#                      pack `@sandbox-advisor/PLATFORM`, holding BIN, into OUT
#   .ci/npm-package.sh pack-main OUT
#                      pack `sandbox-advisor` (the launcher) into OUT
#                      (neither writes the tree: each package is staged in a
#                      temporary directory)
#   .ci/npm-package.sh test [BIN]
#                      pack this machine's platform with BIN (default: the release
#                      build, target/release/sandbox-advisor), install both tarballs
#                      into an empty prefix with `npm install --offline`, and check
#                      that `npx sandbox-advisor --version` there says BIN's version
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
NPM=$ROOT/npm

die() { printf 'npm-package.sh: %s\n' "$*" >&2; exit 1; }

# stage DIR FILES...: a copy of npm/DIR's package.json, README and FILES in a new directory.
stage() {
  local from=$NPM/$1 to
  shift
  to=$(mktemp -d)
  cp "$from/package.json" "$to/"
  [ ! -f "$from/README.md" ] || cp "$from/README.md" "$to/"
  local f
  for f in "$@"; do
    mkdir -p "$to/$(dirname "$f")"
    cp "$from/$f" "$to/$f"
  done
  echo "$to"
}

pack() { # OUT PLATFORM BIN
  local out=$1 platform=$2 bin=$3 exe=sandbox-advisor plat
  [ -d "$NPM/platforms/$platform" ] || die "no package npm/platforms/$platform"
  [ -x "$bin" ] || die "no binary at $bin"
  case "$platform" in win32-*) exe=sandbox-advisor.exe ;; esac
  mkdir -p "$out"
  out=$(cd "$out" && pwd)
  plat=$(stage "platforms/$platform")
  mkdir -p "$plat/bin"
  cp "$bin" "$plat/bin/$exe"
  chmod 0755 "$plat/bin/$exe"
  (cd "$plat" && npm pack --silent --pack-destination "$out") > /dev/null
  rm -rf "$plat"
}

pack_main() { # OUT
  local out=$1 main
  mkdir -p "$out"
  out=$(cd "$out" && pwd)
  main=$(stage sandbox-advisor bin/sandbox-advisor.js)
  chmod 0755 "$main/bin/sandbox-advisor.js"
  (cd "$main" && npm pack --silent --pack-destination "$out") > /dev/null
  rm -rf "$main"
}

this_platform() {
  local os arch
  os=$(node -p process.platform)
  arch=$(node -p process.arch)
  echo "$os-$arch"
}

test_install() { # [BIN]
  local bin=${1:-$ROOT/target/release/sandbox-advisor} work out prefix platform want got version
  [ -x "$bin" ] || die "no binary at $bin (cargo build --release -p sandbox-advisor)"
  platform=$(this_platform)
  work=$(mktemp -d)
  trap 'rm -rf "$work"' RETURN
  out=$work/tarballs prefix=$work/prefix
  mkdir -p "$prefix"
  pack "$out" "$platform" "$bin"
  pack_main "$out"
  version=$(node -p "require('$NPM/sandbox-advisor/package.json').version")
  # Offline, from the two tarballs alone: the other platforms' packages are
  # optional and skipped (they do not match this os/cpu).
  (cd "$prefix" && npm install --offline --no-audit --no-fund --loglevel=error \
    --cache "$work/npm-cache" \
    "$out/sandbox-advisor-$version.tgz" "$out/sandbox-advisor-$platform-$version.tgz") > "$work/install.log" 2>&1 ||
    { cat "$work/install.log" >&2; die "npm install --offline failed"; }
  want=$("$bin" --version)
  got=$(cd "$prefix" && npx --offline --no-install sandbox-advisor --version)
  [ "$got" = "$want" ] || die "npx sandbox-advisor --version said '$got', the binary says '$want'"
  # The launcher hands on stdin and the exit status (a hook's payload, exit 1 for a bad one).
  local status=0
  printf '{}' | (cd "$prefix" && npx --offline --no-install sandbox-advisor hook --dialect codex) \
    > /dev/null 2> "$work/hook.err" || status=$?
  [ "$status" -eq 1 ] && grep -qF 'codex payload' "$work/hook.err" ||
    die "the launcher did not pass the payload and the exit status through (exit $status: $(cat "$work/hook.err"))"
  printf 'npm-package.sh: npx sandbox-advisor --version from the packed tarballs (%s): %s\n' "$platform" "$got"
}

case "${1:-}" in
  pack)
    [ $# -eq 4 ] || die "usage: .ci/npm-package.sh pack OUT PLATFORM BIN"
    pack "$2" "$3" "$4"
    ;;
  pack-main)
    [ $# -eq 2 ] || die "usage: .ci/npm-package.sh pack-main OUT"
    pack_main "$2"
    ;;
  test)
    test_install "${2:-}"
    ;;
  *)
    sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
