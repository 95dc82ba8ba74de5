#!/usr/bin/env bash
# The client plugins of this checkout, installed the way a plugin user installs
# them: with each client's own commands (`claude plugin marketplace add` and
# `claude plugin install`; `codex plugin marketplace add` and `codex plugin
# add`, then Codex's hook trust through `codex app-server`; `gemini extensions
# install`), offline, against the scripted model (.ci/clients.sh runs each
# scenario inside `unshare -n`).
#
#   .ci/plugins.sh test    validate, then per client: one sandbox failure advised
#                          through the plugin; the binary missing (the call goes
#                          ahead, the interactive client shows one line, once); and
#                          for Claude Code, hook install mounted too (advised once,
#                          by hook install's handler)
#
# Environment: as .ci/clients.sh (CLIENTS_RUN_ROOT, SANDBOX_ADVISOR_BIN).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CLIENTS_SH=$ROOT/.ci/clients.sh
CACHE_BASE=${XDG_CACHE_HOME:-$HOME/.cache}/sandbox-advisor
RUN_ROOT=${CLIENTS_RUN_ROOT:-$CACHE_BASE/run}
ADVISOR=${SANDBOX_ADVISOR_BIN:-$ROOT/target/debug/sandbox-advisor}
# The line the plugin shows when it finds no binary (hook::install::plugin::MISSING).
MISSING='sandbox-advisor: the plugin found no sandbox-advisor binary on PATH or in ~/.cargo/bin, so this session runs without the advisor. Install it with `npm install -g sandbox-advisor`, then start a new session.'

log() { printf '%s\n' "$*" >&2; }
die() { log "plugins.sh: $*"; exit 1; }

PASSES=0 FAILS=0 TIMES=()
check() { # DESCRIPTION CMD...
  if "${@:2}"; then
    log "  ok    $1"
    PASSES=$((PASSES + 1))
  else
    log "  FAIL  $1"
    FAILS=$((FAILS + 1))
  fi
}
timed() { # NAME CMD...
  local name=$1 t0=$SECONDS
  shift
  "$@"
  TIMES+=("$(printf '%5ds  %s' $((SECONDS - t0)) "$name")")
}
has() { grep -qF -- "$2" "$1"; }
count() { grep -oF -- "$2" "$1" | wc -l; }
once() { [ "$(count "$1" "$2")" -eq 1 ]; }
last_request() { tail -n 1 "$1/requests.jsonl" > "$1/last-request.json"; echo "$1/last-request.json"; }

script_file() { # NAME TURN-JSON...
  local f=$RUN_ROOT/scripts/plugin-$1.json
  shift
  mkdir -p "$RUN_ROOT/scripts"
  (IFS=,; printf '{"turns":[%s,{"final":"done."}]}\n' "$*") > "$f"
  echo "$f"
}

scenario() { # CLIENT NAME SCRIPT [key=value ...]: prints the scenario's directory
  local dir
  dir=$("$CLIENTS_SH" scenario "$@" 2> "$RUN_ROOT/$1-$2.log") || true
  [ -n "$dir" ] || dir=$RUN_ROOT/$1/$2
  echo "$dir"
}

# CMD's output, both streams, goes to the log (a redirection on `check` would take its verdict too).
logged() { "$@" >> "$RUN_ROOT/plugins-validate.log" 2>&1; }

validate() {
  local claude
  claude=$CACHE_BASE/clients/$(sha256sum "$ROOT/clients/package-lock.json" | cut -d' ' -f1)/node_modules/.bin/claude
  local home=$RUN_ROOT/plugins-validate
  rm -rf "$home"
  mkdir -p "$home"
  local target
  for target in "$ROOT" "$ROOT/plugins/claude-code"; do
    check "claude plugin validate --strict ./${target#"$ROOT"}" \
      logged unshare -n -- env -i PATH=/usr/bin:/bin HOME="$home" DISABLE_TELEMETRY=1 \
      "$claude" plugin validate --strict "$target"
  done
  # Gemini CLI's extension: validated, then linked into a scratch home, offline.
  local gemini=${claude%/claude}/gemini
  check "gemini extensions validate ./plugins/gemini-cli" \
    logged unshare -n -- env -i PATH=/usr/bin:/bin HOME="$home" \
    "$gemini" extensions validate "$ROOT/plugins/gemini-cli"
  check "gemini extensions link ./plugins/gemini-cli" \
    logged unshare -n -- env -i PATH=/usr/bin:/bin HOME="$home" \
    "$gemini" extensions link "$ROOT/plugins/gemini-cli" --consent
}

test_client() { # CLIENT
  local client=$1 dir bwrap touch where summary
  bwrap=$(script_file bwrap '{"run":"echo one"}' '{"run":"echo one"}')
  touch=$(script_file touch '{"run":"touch ran-marker"}')
  case "$client" in
    claude-code) where=path summary="Claude Code's sandbox could not start" ;;
    codex) where=cargo summary="Codex's sandbox could not start" ;;
  esac
  # 1. Installed, the binary found (Claude Code: on PATH; Codex: in ~/.cargo/bin), bubblewrap
  #    unable to start: the advice reaches the model's next request, once.
  local opts=(plugin=$where userns=0)
  [ "$client" != claude-code ] || opts+=(sandbox=on)
  dir=$(scenario "$client" plugin-advised "$bwrap" "${opts[@]}")
  check "$client: the plugin installed with the client's own commands" \
    grep -qE 'Successfully installed plugin: sandbox-advisor@sandbox-advisor|Added plugin `sandbox-advisor`' "$dir/plugin.out"
  [ "$client" != codex ] || check "$client: its hooks trusted through app-server" \
    has "$dir/trust.err" "preToolUse trusted, postToolUse trusted, sessionStart trusted"
  check "$client: the failure is advised once, through the plugin ($where)" once "$(last_request "$dir")" "$summary"
  # 2. No binary: the call goes ahead, and the interactive client shows one line, once.
  dir=$(scenario "$client" plugin-missing "$touch" plugin=missing tui=done.)
  check "$client: without the binary the call goes ahead" test -e "$dir/proj/ran-marker"
  check "$client: and the client shows the install line once" once "$dir/screen.txt" "$MISSING"
}

# Gemini CLI's extension, installed with `gemini extensions install` (see
# clients.sh's install_plugin), the tool sandbox on.
test_gemini() {
  local g=gemini-cli dir bwrap touch first=${MISSING%% Install it*}
  bwrap=$(script_file gemini-bwrap '{"run":"echo one"}')
  touch=$(script_file touch '{"run":"touch ran-marker"}')
  # 1. The binary on PATH, bubblewrap not installed: the advice reaches the model's next request, once.
  dir=$(scenario $g plugin-advised "$bwrap" plugin=path nobwrap=1)
  check "$g: the extension installed with gemini's own command" \
    has "$dir/plugin.out" 'Extension "sandbox-advisor" installed successfully and enabled.'
  check "$g: the failure is advised once, through the extension" \
    once "$(last_request "$dir")" "<hook_context>Gemini CLI's tool sandbox could not start"
  # 2. No binary, the interactive TUI: the call goes ahead, and SessionStart's systemMessage is
  #    shown once, as an info line (Markdown rendered: the backticks go; the line wraps at the
  #    pty's 200 columns, so the first sentence and the command are checked). Measured: headless
  #    (-p, stream-json) puts it on stderr only, twice (the line, then `Hook system message: `
  #    and the line), and in none of stdout's events; the model never sees it.
  dir=$(scenario $g plugin-missing "$touch" plugin=missing pty=1)
  check "$g: without the binary the call goes ahead" test -e "$dir/proj/ran-marker"
  check "$g: and the TUI shows the install line once" \
    bash -c '[ "$(grep -aoF -- "$2" "$1" | wc -l)" -eq 1 ] && [ "$(grep -aoF -- "$3" "$1" | wc -l)" -eq 1 ]' _ \
    "$dir/pty.txt" "$first" 'Install it with npm install -g sandbox-advisor'
  check "$g: and the model does not see it" bash -c '! grep -qF -- "$2" "$1"' _ "$dir/requests.jsonl" "$first"
}

# The plugin and hook install's handler both mounted: only hook install's
# answers. Its config asks for zh-CN briefs and a ledger of its own, so a
# plugin that answered too would add an English advisory the ledger could not
# hold back.
test_both() {
  local dir bwrap cfg=$RUN_ROOT/plugin-zh-config.json
  rm -rf "$RUN_ROOT/plugin-zh-state"
  printf '{"locale": "zh-CN", "stateDir": "%s"}\n' "$RUN_ROOT/plugin-zh-state" > "$cfg"
  bwrap=$(script_file bwrap '{"run":"echo one"}' '{"run":"echo one"}')
  dir=$(scenario claude-code plugin-and-install "$bwrap" plugin=path advisor="--config $cfg" sandbox=on userns=0)
  local last
  last=$(last_request "$dir")
  check "claude-code: plugin and hook install: advised once, by hook install's handler" \
    bash -c '[ "$(grep -oF "沙箱" "$1" | wc -l)" -ge 1 ] && ! grep -qF "$2" "$1"' _ "$last" \
    "Claude Code's sandbox could not start"
}

case "${1:-}" in
  test)
    T0=$SECONDS
    [ -x "$ADVISOR" ] || die "no advisor at $ADVISOR (cargo build -p sandbox-advisor, or set SANDBOX_ADVISOR_BIN)"
    "$CLIENTS_SH" install > /dev/null
    mkdir -p "$RUN_ROOT"
    rm -f "$RUN_ROOT/plugins-validate.log"
    timed "validate" validate
    timed "claude-code" test_client claude-code
    timed "codex" test_client codex
    timed "gemini-cli" test_gemini
    timed "claude-code, plugin and hook install" test_both
    printf '\n==> plugins.sh times\n' >&2
    printf '%s\n' "${TIMES[@]}" >&2
    printf '%5ds  total\n' "$((SECONDS - T0))" >&2
    printf '%d passed, %d failed\n' "$PASSES" "$FAILS"
    [ "$FAILS" -eq 0 ]
    ;;
  *)
    sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
