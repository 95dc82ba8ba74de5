#!/usr/bin/env bash
# Fuzz smoke run for CI: each target for a short, fixed time from the committed
# corpus; exits non-zero on a crash (a panic), a timeout or running out of memory.
#
#   bash fuzz/smoke.sh              # every target, side by side, SMOKE_SECONDS (default 25)
#   SMOKE_SECONDS=10 bash fuzz/smoke.sh recognize
#
# Runs on the stable toolchain: libFuzzer's instrumentation flags are nightly
# flags, so the build sets RUSTC_BOOTSTRAP=1 (for this fuzz workspace only) and
# builds without a sanitizer. It builds the targets itself, with the
# instrumentation `cargo fuzz build -s none` gives them (the flags are listed
# below), so CI needs no cargo-fuzz install (a minute on 2 cores); long runs by
# hand use cargo-fuzz (docs/fuzzing.md). The first build of both targets takes
# 1–3 minutes, later ones are incremental.
#
# Nothing in the tree is written: new corpus entries and crash artifacts go to a
# temporary directory, whose path is printed when a target fails.
set -euo pipefail
cd "$(dirname "$0")"

if [ -f "$HOME/.cargo/env" ]; then . "$HOME/.cargo/env"; fi
command -v cargo >/dev/null || { echo "fuzz/smoke.sh: cargo not found" >&2; exit 1; }

seconds="${SMOKE_SECONDS:-25}"
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then targets=(recognize protocol); fi

# libfuzzer-sys compiles libFuzzer itself, which needs a C++ compiler.
if ! command -v c++ >/dev/null && ! command -v g++ >/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        apt-get update -qq && apt-get install -y -qq g++ >/dev/null
    else
        echo "fuzz/smoke.sh: a C++ compiler (g++) is needed to build libFuzzer" >&2
        exit 1
    fi
fi

export RUSTC_BOOTSTRAP=1
export CARGO_TERM_COLOR=never
fuzz_target_dir="$PWD/target"
work="$(mktemp -d "${TMPDIR:-/tmp}/sandbox-advisor-fuzz.XXXXXX")"
failed=0

# What `cargo fuzz build -s none` asks of rustc (cargo-fuzz 0.12–0.13): sancov
# coverage (level 4: edges) with inline 8-bit counters, a PC table, traced
# comparisons and stack depth; no branch folding; `--cfg fuzzing`; dead code
# kept; debug assertions; release with line tables. With `--target` the flags
# reach the targets' code, not build scripts. Unlike cargo-fuzz, the release
# profile's codegen units stay: one unit speeds a run of hours through
# inlining, but for a 25-second smoke run its build time (minutes, one LLVM
# thread per crate) costs more than it gains.
triple=$(rustc -vV | sed -n 's/^host: //p')
sancov="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4"
sancov+=" -Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table"
sancov+=" -Cllvm-args=-sanitizer-coverage-trace-compares -Cllvm-args=-simplifycfg-branch-fold-threshold=0"
sancov+=" --cfg fuzzing -Clink-dead-code -Cllvm-args=-sanitizer-coverage-stack-depth"
sancov+=" -Cdebug-assertions"
echo "==> building ${targets[*]}"
start=$SECONDS
bins=()
for target in "${targets[@]}"; do bins+=(--bin "$target"); done
RUSTFLAGS="$sancov ${RUSTFLAGS:-}" cargo build --manifest-path Cargo.toml --target "$triple" \
    --release --config profile.release.debug=true --target-dir "$fuzz_target_dir" "${bins[@]}"
echo "    built in $((SECONDS - start)) s"

# The targets fuzz side by side (libFuzzer runs one process on one core each),
# so the step takes SMOKE_SECONDS once, not once per target.
fuzz() {
    local target=$1 dict=()
    mkdir -p "$work/$target/corpus" "$work/$target/artifacts"
    if [ -f "dict/$target.dict" ]; then dict=("-dict=dict/$target.dict"); fi
    # The first corpus directory receives new entries; the committed one is only read.
    "$fuzz_target_dir/$triple/release/$target" \
        "$work/$target/corpus" "corpus/$target" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -artifact_prefix="$work/$target/artifacts/" -print_final_stats=1 "${dict[@]}" \
        >"$work/$target/log" 2>&1
}
echo "==> fuzzing ${targets[*]} for ${seconds} s, side by side"
pids=()
for target in "${targets[@]}"; do
    fuzz "$target" &
    pids+=($!)
done
for i in "${!targets[@]}"; do
    target=${targets[$i]}
    if ! wait "${pids[$i]}"; then
        echo "!!! $target FAILED; the last lines of its log ($work/$target/log):" >&2
        tail -n 40 "$work/$target/log" >&2
        echo "!!! reproducer(s) in $work/$target/artifacts/:" >&2
        ls -l "$work/$target/artifacts/" >&2 || true
        failed=1
        continue
    fi
    echo "--- $target"
    # An uninstrumented build would fuzz blind and pass: libFuzzer must have
    # found the coverage counters.
    if ! grep -qE 'INFO: Loaded [0-9]+ modules +\([1-9][0-9]* inline 8-bit counters' "$work/$target/log"; then
        echo "!!! $target: libFuzzer found no coverage counters (the build is not instrumented)" >&2
        failed=1
        continue
    fi
    grep -E '^Done|stat::number_of_executed_units|stat::average_exec_per_sec' "$work/$target/log" || true
done

if [ "$failed" -ne 0 ]; then
    echo "fuzz-smoke: FAILED (logs and reproducers kept in $work)" >&2
    exit 1
fi
rm -rf "$work"
echo "fuzz-smoke: ${#targets[@]} passed, 0 failed"
