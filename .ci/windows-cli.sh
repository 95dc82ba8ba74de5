#!/usr/bin/env bash
# The CLI as a Windows program (its .exe under wine), asserted: what a
# Windows user's hook and shell hand it. Run by .ci/windows.sh, which has set
# up wine; from the repository's root.
#
#   .ci/windows-cli.sh path/to/sandbox-advisor.exe
#
# - `hook` with Windows paths in a Claude Code and a Codex payload, on this
#   machine's platform (win32: no --platform), twice for one agent: the second
#   is silent, so the on-disk store (its directory checked by owner SID and
#   DACL) kept the claim between the two processes;
# - the `explain` line an advisory gives for PowerShell: its single-quoted
#   value, unquoted as PowerShell reads it, piped to the .exe;
# - `scan` over sessions recorded on a Windows host (cwd `D:\ws`), given as
#   Windows paths;
# - `hook install` for Claude Code: the handler it writes (forward slashes,
#   no quoting) run by cmd /c (PowerShell and Git Bash are not in wine), and a
#   second install finds it its own (up to date, not mounted twice).
set -euo pipefail
exe=${1:?usage: .ci/windows-cli.sh path/to/sandbox-advisor.exe}
[ -f "$exe" ] || { echo "windows-cli: $exe was not built" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
winpath() { winepath -w "$1" 2>/dev/null; }
# The default state directory, moved the way that works on Windows too.
SANDBOX_ADVISOR_STATE_DIR=$(winpath "$work/state")
export SANDBOX_ADVISOR_STATE_DIR
unset SANDBOX_ADVISOR_LOG

checks=0
fail() { echo "windows-cli: FAILED: $*" >&2; exit 1; }
# has WHAT TEXT NEEDLE: TEXT contains NEEDLE (fixed string).
has() { grep -qF -- "$3" <<<"$2" || fail "$1: no $(printf %q "$3") in: ${2:0:600}"; checks=$((checks + 1)); }
lacks() { ! grep -qF -- "$3" <<<"$2" || fail "$1: $(printf %q "$3") in: ${2:0:600}"; checks=$((checks + 1)); }
run() { wine "$exe" "$@" 2>"$work/stderr"; }

acl='SetNamedSecurityInfoW failed (Win32 5): grantWrite(C:\\Users\\dev\\ws)'
claude() {
  printf '{"session_id":"%s","cwd":"C:\\\\Users\\\\dev\\\\ws","hook_event_name":"PostToolUseFailure","tool_name":"pwsh","tool_input":{"command":"Get-Date"},"tool_use_id":"%s","error":"%s","is_interrupt":false}' "${SESSION:-s1}" "$1" "$acl"
}
codex() {
  printf '{"session_id":"s2","turn_id":"u1","cwd":"C:\\\\Users\\\\dev\\\\ws","hook_event_name":"PostToolUse","model":"m","permission_mode":"default","tool_name":"pwsh","tool_input":{"command":"Get-Date"},"tool_response":"Error: %s","tool_use_id":"%s"}' "$acl" "$1"
}

payload() {
  case $1 in
    claude-code) claude "$2" ;;
    codex) codex "$2" ;;
  esac
}

for dialect in claude-code codex; do
  hook=(hook --dialect "$dialect" --host dsh --mode workspace-write)
  first=$(payload "$dialect" c1 | run "${hook[@]}") || fail "$dialect hook exited $?: $(cat "$work/stderr")"
  has "$dialect hook" "$first" '"additionalContext"'
  # The workspace path is quoted as evidence, and as a PowerShell literal.
  has "$dialect hook" "$first" '> SetNamedSecurityInfoW failed (Win32 5): grantWrite(C:\\Users\\dev\\ws)'
  has "$dialect hook" "$first" "'C:\\\\Users\\\\dev\\\\ws'"
  again=$(payload "$dialect" c2 | run "${hook[@]}") || fail "$dialect hook (again) exited $?"
  lacks "$dialect hook, the same agent again" "$again" '"additionalContext"'
done
[ -f "$work/state/v1/key" ] || fail "the hooks kept no store in SANDBOX_ADVISOR_STATE_DIR"
checks=$((checks + 1))

# hook install: the handler it writes is one plain word per path (forward
# slashes), and cmd, Codex's hook shell on Windows (%COMSPEC% /C), runs it.
proj=$work/proj
mkdir -p "$proj"
run hook install --client claude-code --project "$(winpath "$proj")" --bin "$(winpath "$exe")" \
  --mode workspace-write >/dev/null || fail "hook install exited $?: $(cat "$work/stderr")"
command=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["hooks"]["PostToolUseFailure"][0]["hooks"][0]["command"])' \
  "$proj/.claude/settings.json") || fail "hook install wrote no PostToolUseFailure handler"
grep -qE '^[A-Za-z]:/[A-Za-z0-9_./:+@-]+ hook --dialect claude-code --mode workspace-write$' <<<"$command" ||
  fail "hook install wrote $(printf %q "$command")"
checks=$((checks + 1))
# Run by cmd: a payload that is not JSON is refused in the handler's dialect
# (so cmd ran the .exe with its words), and a Claude Code payload answered.
status=0
printf 'x' | wine cmd /c "$command" >/dev/null 2>"$work/stderr" || status=$?
[ "$status" -eq 1 ] || fail "cmd /c $command on a non-JSON payload exited $status"
has "the installed handler, run by cmd" "$(cat "$work/stderr")" "sandbox-advisor: claude-code payload: not valid JSON"
SESSION=s3 claude c3 | wine cmd /c "$command" >/dev/null 2>"$work/stderr" ||
  fail "cmd /c $command exited $?: $(cat "$work/stderr")"
again=$(run hook install --client claude-code --project "$(winpath "$proj")" --bin "$(winpath "$exe")" \
  --mode workspace-write) || fail "hook install (again) exited $?"
has "hook install, again" "$again" "already up to date"

value='{"kind":"foreground","exitCode":-1073741502,"sandbox":{"mode":"workspace-write"}}'
brief=$(run explain --mode workspace-write --value "$value") || fail "explain exited $?"
has "explain" "$brief" "0xC0000142"
line=$(grep -E "^ +'.*' \| sandbox-advisor explain " <<<"$brief") || fail "explain: no PowerShell line in: $brief"
# PowerShell: '…' is a literal in which '' is one quote; the rest are plain words.
literal=$(sed -E "s/^ +'(([^']|'')*)' \| sandbox-advisor explain .*/\1/; s/''/'/g" <<<"$line")
read -r -a words <<<"$(sed -E "s/.* \| sandbox-advisor explain //" <<<"$line")"
detail=$(printf '%s' "$literal" | run explain "${words[@]}") || fail "explain from the PowerShell line exited $?"
has "explain --detail from the piped value" "$detail" "0xC0000142"
[ "$detail" != "$brief" ] || fail "explain --detail printed the brief again"
checks=$((checks + 1))

scan=$(run scan "$(winpath examples/transcripts)" "$(winpath scan-fixtures/dsh-writer/out/zstd)") || fail "scan exited $?: $(cat "$work/stderr")"
has "scan" "$scan" "Scanned 9 files, 14 sessions"
has "scan" "$scan" "acl-provisioning"
has "scan" "$scan" "--D-ws--"
[ ! -s "$work/stderr" ] || fail "scan wrote to stderr: $(cat "$work/stderr")"

echo "windows-cli: $checks checks passed (hook: claude-code and codex; hook install, its handler run by cmd; explain piped from PowerShell quoting; scan)"
