#!/usr/bin/env bash
# Fuzz smoke run for CI: each target for a short, fixed time from the committed
# corpus; exits non-zero on a crash (a panic), a timeout or running out of memory.
#
#   bash fuzz/smoke.sh              # every target, SMOKE_SECONDS each (default 25)
#   SMOKE_SECONDS=10 bash fuzz/smoke.sh recognize
#
# Runs on the stable toolchain: libFuzzer's instrumentation flags are nightly
# flags, so the build sets RUSTC_BOOTSTRAP=1 (for this fuzz workspace only) and
# builds without a sanitizer (`-s none`). Installs cargo-fuzz when it is missing
# (about a minute on 2 cores); the first build of both targets takes 1–3 minutes
# more, later ones are incremental. docs/fuzzing.md has the numbers and the
# long-run commands.
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

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "==> installing cargo-fuzz"
    start=$SECONDS
    cargo install cargo-fuzz --locked --quiet
    echo "    cargo-fuzz installed in $((SECONDS - start)) s"
fi

export RUSTC_BOOTSTRAP=1
export CARGO_TERM_COLOR=never
fuzz_target_dir="$PWD/target"
work="$(mktemp -d "${TMPDIR:-/tmp}/sandbox-advisor-fuzz.XXXXXX")"
failed=0

for target in "${targets[@]}"; do
    echo "==> building $target"
    start=$SECONDS
    cargo fuzz build -s none --target-dir "$fuzz_target_dir" "$target"
    echo "    built in $((SECONDS - start)) s"

    mkdir -p "$work/$target/corpus" "$work/$target/artifacts"
    dict=()
    if [ -f "dict/$target.dict" ]; then dict=("-dict=dict/$target.dict"); fi
    echo "==> fuzzing $target for ${seconds} s"
    # The first corpus directory receives new entries; the committed one is only read.
    if ! cargo fuzz run -s none --target-dir "$fuzz_target_dir" "$target" \
        "$work/$target/corpus" "corpus/$target" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -artifact_prefix="$work/$target/artifacts/" -print_final_stats=1 "${dict[@]}" \
        >"$work/$target/log" 2>&1; then
        echo "!!! $target FAILED; the last lines of its log ($work/$target/log):" >&2
        tail -n 40 "$work/$target/log" >&2
        echo "!!! reproducer(s) in $work/$target/artifacts/:" >&2
        ls -l "$work/$target/artifacts/" >&2 || true
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
