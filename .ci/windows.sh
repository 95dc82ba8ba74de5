#!/usr/bin/env bash
# The workspace for Windows (x86_64-pc-windows-gnu): built, checked, and its
# tests run under wine.
#
#   .ci/windows.sh               the CI step (called from .ci/run): the subset below
#   .ci/windows.sh --all         the whole workspace (but xtask and node-binding)
#   .ci/windows.sh cargo ARGS…   Debian's cargo with this step's environment,
#                                e.g. `.ci/windows.sh cargo test -p sandbox-advisor-ledger-file --test race`
#
# The subset, and why: the whole workspace (161 test binaries) costs about 7
# minutes to rebuild in a fresh clone and 12 to test under wine, more than
# .ci/run's 25 minutes leave. CI runs the packages where Windows behaviour
# lives: advisor-core (paths: drive letters, UNC, \\?\, case), ledger-file
# (the Windows state directory: owner SID, DACL, reparse points), host-adapter
# (the harness's Windows shapes), and the Windows families: family-acl and
# family-acl-aggregate, family-cim, family-native-init, family-pty,
# family-runner-exit, family-temp-root, family-workspace-denial; then the
# CLI's .exe (.ci/windows-cli.sh: hook, explain, scan on Windows paths). The
# Linux and macOS families, the Redis ledger and the CLI's own tests run on
# Linux in the test step; under --all they run under wine too.
#
# Nothing here downloads a toolchain: rustup has no Windows target offline, so
# std is built for the target from source (cargo's build-std, allowed on a
# stable compiler by RUSTC_BOOTSTRAP=1) with Debian's rustc-web, whose std
# source rust-web-src ships at the same version (they must match); mingw-w64
# links, and wine runs the result as cargo's runner. std's own dependencies
# come from the Rust package registry. Installs what is missing with apt.
#
# Wine 8.0 has no bcryptprimitives.dll, whose ProcessPrng every Rust std
# since 1.78 imports: every .exe would die before main (c0000135). A stand-in
# built here maps it to advapi32's RtlGenRandom and goes into the prefix.
#
# The cache: the whole target dir (std, the registry dependencies, and the
# workspace's crates of the last run) and the wine prefix, OUTSIDE the clone:
# ${SANDBOX_ADVISOR_WIN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sandbox-advisor/win}/<key>,
# the key being the compiler's, std source's, mingw's and wine's versions,
# the target and the build-std set (not Cargo.lock: cargo's fingerprints
# handle a lock change). A warm run rebuilds only the workspace's crates
# (CARGO_INCREMENTAL=0, no debuginfo); one key is kept, a new one removes the
# others; the workspace's own artifacts of a run from another checkout are
# deleted first (never reused: a clone's path is in each crate's identity),
# and a target dir still over 12 GB (WIN_CACHE_CAP_GB) is emptied.
#
# The tests run as `cargo test --lib --bins --tests` does (doctests, benches
# and examples are not built: they run on Linux, and each doctest would be
# one more .exe to link), every test but those .ci/windows-skips.txt names
# with the reason. The list can fail: a listed test that no longer exists, or
# that passes under wine, is an error. .ci/windows-cli.sh then runs the CLI's
# .exe on what a Windows hook and shell hand it. Times: BENCHMARKS.md
# ("Windows").
set -euo pipefail
CALLER=$PWD
cd "$(dirname "$0")/.."
ROOT=$PWD
TARGET=x86_64-pc-windows-gnu
RUST_V=1.96.0+dfsg1-1~deb12u2
WINE_V=8.0~repack-4

# --- the environment (also for `.ci/windows.sh cargo …`) --------------------
export RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc CARGO=/usr/bin/cargo
export RUSTC_BOOTSTRAP=1                          # build-std on a stable compiler
export CARGO_UNSTABLE_BUILD_STD=std,panic_abort   # = -Zbuild-std=std,panic_abort
export CARGO_BUILD_TARGET=$TARGET                 # build-std applies to target units only
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER=wine
export CARGO_PROFILE_DEV_DEBUG=0                  # with debuginfo the workspace took 27 GB
export CARGO_INCREMENTAL=0                        # nothing is edited between two CI runs
export CARGO_TERM_COLOR=never
export WINEDEBUG=-all
# insta finds the workspace with `cargo metadata`, which cannot be spawned
# from inside wine; it must be told (at build and at run time).
export INSTA_WORKSPACE_ROOT=$ROOT
export INSTA_UPDATE=no
export CARGO_BUILD_JOBS=${CARGO_BUILD_JOBS:-$(nproc)}

if [ "$(id -u)" -eq 0 ]; then SUDO=; else SUDO=sudo; fi
packages() {
  local want=(rustc-web=$RUST_V cargo-web=$RUST_V rust-web-src=$RUST_V libstd-rust-web-dev=$RUST_V
    rust-web-clippy=$RUST_V wine=$WINE_V wine64=$WINE_V gcc-mingw-w64-x86-64)
  local spec missing=()
  for spec in "${want[@]}"; do
    local pkg=${spec%%=*} version=
    [ "$pkg" = "$spec" ] || version=${spec#*=}
    local have
    have=$(dpkg-query -W -f='${db:Status-Status} ${Version}' "$pkg" 2>/dev/null || true)
    case "$have" in
      "installed ${version:-}"*) [ -z "$version" ] || [ "$have" = "installed $version" ] || missing+=("$spec") ;;
      *) missing+=("$spec") ;;
    esac
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "windows: installing ${missing[*]}"
    $SUDO apt-get update
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
  fi
}

# The target dir and wine prefix for this toolchain (after packages: the key
# asks the installed compiler). Not keyed by Cargo.lock: cargo's own
# fingerprints rebuild what a lock change touches, where a lock-keyed cache
# would cost a cold build (about 29 minutes here) after every dependency bump.
# Bounded instead: one key kept, and a target dir over WIN_CACHE_CAP_GB
# (default 12) is emptied before the build (a clone at a new path adds its own
# copy of the workspace's crates each run; old dependency versions linger).
WIN_CACHE_CAP_GB=${WIN_CACHE_CAP_GB:-12}
cache_dir() {
  local base key other
  base=${SANDBOX_ADVISOR_WIN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sandbox-advisor/win}
  key=$({
    "$RUSTC" -vV
    dpkg-query -W -f='${Package} ${Version}\n' rust-web-src gcc-mingw-w64-x86-64 wine64
    echo "$TARGET $CARGO_UNSTABLE_BUILD_STD debug=$CARGO_PROFILE_DEV_DEBUG incremental=$CARGO_INCREMENTAL"
  } | sha256sum | cut -c1-16)
  mkdir -p "$base/$key"
  # The bound: one key. Another toolchain's build goes.
  for other in "$base"/*/; do
    other=${other%/}
    [ "$other" = "$base/$key" ] || [[ ! "$(basename "$other")" =~ ^[0-9a-f]{16}$ ]] || rm -rf "$other"
  done
  export CARGO_TARGET_DIR=$base/$key/target WINEPREFIX=$base/$key/wineprefix
  OURS=$base/$key/workspace-artifacts
  echo "windows: target dir $CARGO_TARGET_DIR"
}

# The size bound, applied by the step only (never by `.ci/windows.sh cargo`,
# which may run beside a build): past the cap the target dir starts over
# (std and the dependencies rebuild once: a cold build).
cache_cap() {
  local size
  [ -d "$CARGO_TARGET_DIR" ] || return 0
  # The workspace's own artifacts of a run from another checkout (a CI
  # clone's path is in each crate's identity, so they are never reused):
  # deleted, files listed by that run's build, only inside the target dir.
  if [ -f "$OURS" ] && [ "$(head -n1 "$OURS")" != "$ROOT" ]; then
    python3 - "$OURS" "$CARGO_TARGET_DIR" <<'PY'
import os, sys
ours, target = sys.argv[1], os.path.realpath(sys.argv[2])
lines = open(ours).read().splitlines()[1:]
gone = 0
for path in lines:
    real = os.path.realpath(path)
    if real.startswith(target + os.sep) and os.path.isfile(real) and not os.path.islink(path):
        os.remove(real)
        gone += 1
print(f"windows: {gone} artifacts of the workspace built from another checkout deleted")
PY
    rm -f "$OURS"
  fi
  size=$(du -s --block-size=1G "$CARGO_TARGET_DIR" | cut -f1)
  if [ "$size" -gt "$WIN_CACHE_CAP_GB" ]; then
    echo "windows: target dir ${size} GB, over the ${WIN_CACHE_CAP_GB} GB cap: emptied"
    rm -rf "$CARGO_TARGET_DIR"
  else
    echo "windows: target dir ${size} GB (cap ${WIN_CACHE_CAP_GB} GB)"
  fi
}

# The wine prefix, with the bcryptprimitives stand-in.
prefix() {
  local shim=$WINEPREFIX.shim
  [ -f "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" ] && return
  mkdir -p "$shim"
  cat >"$shim/bcryptprimitives.c" <<'EOF'
#include <windows.h>
#include <ntsecapi.h>
BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        ULONG chunk = len > 0x10000000 ? 0x10000000 : (ULONG)len;
        if (!RtlGenRandom(data, chunk)) return FALSE;
        data += chunk; len -= chunk;
    }
    return TRUE;
}
EOF
  printf 'LIBRARY bcryptprimitives.dll\nEXPORTS\nProcessPrng\n' >"$shim/bcryptprimitives.def"
  x86_64-w64-mingw32-gcc -O2 -shared -o "$shim/bcryptprimitives.dll" \
    "$shim/bcryptprimitives.c" "$shim/bcryptprimitives.def" -ladvapi32
  # "wine32 is missing" is harmless: only 64-bit programs run here.
  wineboot -i >/dev/null 2>&1 || true
  cp "$shim/bcryptprimitives.dll" "$WINEPREFIX/drive_c/windows/system32/"
}

if [ "${1:-}" = cargo ]; then
  shift
  packages
  cache_dir
  prefix
  cd "$CALLER"
  exec nice -n 10 "$CARGO" "$@"
fi
ALL=
case "${1:-}" in
  --all) ALL=1; shift ;;
esac
[ $# -eq 0 ] || { echo "usage: .ci/windows.sh [--all | cargo ARGS…]" >&2; exit 2; }

# Each phase's wall time, printed at the end (pass or fail).
PHASES=(); PHASE_SECS=(); PHASE_T0=$SECONDS; RUN_T0=$SECONDS
phase() {
  [ ${#PHASES[@]} -eq 0 ] || PHASE_SECS+=($((SECONDS - PHASE_T0)))
  PHASES+=("$1"); PHASE_T0=$SECONDS
  printf '\n--> windows: %s\n' "$1"
}
phase_table() {
  local status=$? i
  [ ${#PHASES[@]} -eq 0 ] || PHASE_SECS+=($((SECONDS - PHASE_T0)))
  # The prefix's wineserver is this step's own: stop it.
  [ -d "${WINEPREFIX:-/nonexistent}" ] && wineserver -k 2>/dev/null || true
  rm -f "${ARTIFACTS:-}" "${LOG:-}"
  printf '\n--> windows: phase times (s)\n'
  for i in "${!PHASE_SECS[@]}"; do printf '%6d  %s\n' "${PHASE_SECS[$i]}" "${PHASES[$i]}"; done
  printf '%6d  windows total (exit %d)\n' "$((SECONDS - RUN_T0))" "$status"
}
trap phase_table EXIT

# Not for this step: Redis and a second user cannot be had from inside wine
# (the tests that need them are named in .ci/windows-skips.txt or Unix-only).
unset SANDBOX_ADVISOR_REQUIRE_REDIS SANDBOX_ADVISOR_REQUIRE_TWO_USERS
# --all: the whole workspace but xtask (a Unix developer tool: process
# groups) and node-binding (napi-build needs a libnode.dll to link against).
# Else the subset (see the header): those packages' libs, bins and tests,
# and the CLI's binary for .ci/windows-cli.sh.
SUBSET=(advisor-core ledger-file host-adapter family-acl family-acl-aggregate family-cim
  family-native-init family-pty family-runner-exit family-temp-root family-workspace-denial)
if [ -n "$ALL" ]; then
  WORKSPACE=(--workspace --exclude xtask --exclude node-binding)
  RUN_PACKAGES=
else
  WORKSPACE=()
  # Package names: sandbox-advisor-<directory>, advisor-core being -core.
  for dir in "${SUBSET[@]}"; do WORKSPACE+=(-p "sandbox-advisor-${dir#advisor-}"); done
  RUN_PACKAGES=${SUBSET[*]}
fi
export RUN_PACKAGES

# --- the build: what the tests need, warnings of the workspace's crates refused
# Warnings are read from the build's messages rather than set with RUSTFLAGS,
# which would reach std's crates and the dependencies (and rebuild them). The
# messages also map each test binary to its package and target
# ($ARTIFACTS: `<package> <target> <executable> <package dir>` a line).
TARGETS=(--lib --bins --tests)
ARTIFACTS=$(mktemp)
build() {
  local messages status=0
  messages=$(mktemp)
  nice -n 10 "$CARGO" test "${WORKSPACE[@]}" "${TARGETS[@]}" --no-run --message-format=json \
    >"$messages" || status=$?
  # The CLI's .exe (built by --all's tests already).
  [ -n "$ALL" ] || [ "$status" -ne 0 ] ||
    nice -n 10 "$CARGO" build -p sandbox-advisor --bin sandbox-advisor --message-format=json \
      >>"$messages" || status=$?
  python3 - "$messages" "$ROOT" "$ARTIFACTS" "$status" "$OURS" <<'PY' || status=1
import json, os, sys
path, root, artifacts, status, ours_list = sys.argv[1:]
warnings, rendered, out, produced = [], [], [], []
for line in open(path):
    try:
        m = json.loads(line)
    except ValueError:
        continue
    pid = m.get("package_id", "")
    ours = "path+file://" + root in pid
    if m.get("reason") == "compiler-message":
        rendered.append(m["message"]["rendered"])
        if ours and m["message"]["level"] == "warning":
            warnings.append(m["message"]["rendered"])
    elif m.get("reason") == "compiler-artifact" and ours:
        produced.extend(m.get("filenames") or [])
        if not m.get("executable"):
            continue
        manifest = m["manifest_path"]
        package = os.path.basename(os.path.dirname(manifest))  # the directory, as the skip list names it
        if m["profile"]["test"]:
            out.append(f'{package} {m["target"]["name"]} {m["executable"]} {os.path.dirname(manifest)}')
# What this checkout's crates produced, for the next run's cache_cap.
known = []
if os.path.exists(ours_list):
    lines = open(ours_list).read().splitlines()
    if lines[:1] == [root]:
        known = lines[1:]
with open(ours_list, "w") as f:
    f.write(root + "\n" + "".join(p + "\n" for p in sorted(set(known + produced))))
if status != "0":
    print("".join(rendered), end="")
    sys.exit("windows: the build failed")
print("".join(warnings), end="")
if warnings:
    sys.exit(f"windows: {len(warnings)} warning(s) in the workspace's crates")
open(artifacts, "w").write("\n".join(out) + "\n")
print(f"windows: {len(out)} test binaries built for Windows, no warning in the workspace's crates")
PY
  rm -f "$messages"
  return $status
}

# --- the tests under wine -----------------------------------------------------
SKIPS=.ci/windows-skips.txt
skips() {
  local package target name rest
  while read -r package target name rest; do
    case "$package" in ''|'#'*) continue ;; esac
    [ -z "$RUN_PACKAGES" ] || [[ " $RUN_PACKAGES " == *" $package "* ]] || continue
    printf -- '--skip\n%s\n' "$name"
  done <"$SKIPS"
}

# The tests, every binary (cargo's order) with the listed names skipped; the
# output goes to $LOG for the list's check.
LOG=$(mktemp)
run_tests() {
  local args=() status=0
  mapfile -t args < <(skips)
  echo "windows: $((${#args[@]} / 2)) tests skipped by name ($SKIPS)"
  nice -n 10 "$CARGO" test "${WORKSPACE[@]}" "${TARGETS[@]}" --no-fail-fast -- --exact "${args[@]}" \
    2>&1 | tee "$LOG" || status=$?
  python3 - "$LOG" <<'PY'
import re, sys
passed = failed = ignored = filtered = 0
for m in re.finditer(r"test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored; \d+ measured; (\d+) filtered out", open(sys.argv[1]).read()):
    passed += int(m[1]); failed += int(m[2]); ignored += int(m[3]); filtered += int(m[4])
print(f"windows: under wine {passed} passed, {failed} failed, {ignored} ignored, {filtered} skipped by the list")
PY
  return $status
}

# The list can fail. Each binary must have filtered out exactly the names
# listed for it (a name gone, misspelt or shared with another binary's test
# is an error), and each listed test, run alone under wine (with
# SANDBOX_ADVISOR_REQUIRE_REDIS=1, so that a missing server fails rather than
# skips), must still fail: one that passes belongs back in the run.
check_skips() {
  python3 - "$SKIPS" "$ARTIFACTS" "$LOG" <<'PY'
import collections, os, re, subprocess, sys
skips, artifacts, log = sys.argv[1:]
listed = collections.defaultdict(list)
slow = set()
for line in open(skips):
    words = line.split()
    if not words or words[0].startswith("#"):
        continue
    if len(words) not in (3, 4) or words[3:] not in ([], ["slow"], ["flaky"]):
        sys.exit(f"windows: {skips}: not `<package> <target> <test> [slow|flaky]`: {line.strip()}")
    # The subset runs some packages only; the others' entries wait for --all.
    if os.environ.get("RUN_PACKAGES") and words[0] not in os.environ["RUN_PACKAGES"].split():
        continue
    listed[(words[0], words[1])].append(words[2])
    if words[3:]:
        slow.add((words[0], words[1], words[2]))
binaries = {}
for line in open(artifacts):
    package, target, exe, cwd = line.split(" ", 3)
    binaries[os.path.basename(exe)] = (package, target, exe, cwd.strip())
errors = []
seen = set()
text = open(log).read()
# cargo: "Running tests/x.rs (/…/deps/x-hash.exe)" then the binary's summary.
for m in re.finditer(r"Running \S+ \(([^)]+)\)\n(.*?)test result: \w+\. .*?(\d+) filtered out", text, re.S):
    exe = os.path.basename(m[1])
    if exe not in binaries:
        continue
    package, target, _, _ = binaries[exe]
    # A lib's unit tests and an integration test of the same name differ by path.
    key = (package, target) if "src/" not in m[0].split("\n", 1)[0] else (package, "lib:" + target)
    want = len(listed.get(key, []))
    seen.add(key)
    if int(m[3]) != want:
        errors.append(f"{package} {target}: {m[3]} test(s) skipped by name, {want} listed")
for key, names in listed.items():
    if key not in seen:
        errors.append(f"{key[0]} {key[1]}: listed, but no such test binary ran")
        continue
    package, target, exe, cwd = next(b for b in binaries.values() if (b[0], b[1]) == key)
    names = [n for n in names if (package, target, n) not in slow]
    if not names:
        continue
    env = dict(os.environ, SANDBOX_ADVISOR_REQUIRE_REDIS="1")
    run = subprocess.run(["wine", exe, "--exact", *names], cwd=cwd, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    for name in names:
        if re.search(rf"^test {re.escape(name)} \.\.\. ok$", run.stdout, re.M):
            errors.append(f"{package} {target} {name}: passes under wine; take it off the list")
        elif not re.search(rf"^test {re.escape(name)} \.\.\. FAILED$", run.stdout, re.M):
            errors.append(f"{package} {target} {name}: did not run and fail (gone?)")
for e in errors:
    print("windows: skip list:", e)
if errors:
    sys.exit(f"windows: {len(errors)} error(s) in {skips}")
print(f"windows: each of the {sum(map(len, listed.values()))} listed tests exists; the {sum(map(len, listed.values())) - len(slow)} not marked slow or flaky still fail under wine")
PY
}

phase "packages (apt, if missing)"
packages
phase "wine prefix"
cache_dir
cache_cap
prefix
phase "build for $TARGET (lib, bins, tests; warnings refused)"
build
phase "tests under wine"
tests_status=0
run_tests || tests_status=$?
phase "the skip list: each listed test exists and still fails"
check_skips
[ "$tests_status" -eq 0 ] || { echo "windows: tests failed under wine (exit $tests_status)" >&2; exit 1; }
phase "the CLI as .exe under wine"
bash .ci/windows-cli.sh "$CARGO_TARGET_DIR/$TARGET/debug/sandbox-advisor.exe"
