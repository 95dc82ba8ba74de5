#!/usr/bin/env node
// Copies one scenario's recorded hook payloads, and what reached the model
// after the command ran, into docs/hooks/<client>/.
//
//   node collect.mjs <scenario-dir> <out-dir> <name> [<repo-root>]
//
// <scenario-dir>/hooks/NNN-<Event>.json    -> <out-dir>/<name>.<Event>.json
//   (a second payload of the same event is <name>.<Event>.2.json, and so on)
// <scenario-dir>/requests.jsonl            -> <out-dir>/<name>.model.json
//   the items the client added to the model's conversation after its last
//   tool call, as the next request carried them.
// <scenario-dir>/trust.jsonl               -> <out-dir>/<name>.app-server.jsonl
//   the JSON-RPC exchange of clients/codex-trust.mjs, when the scenario had one.
// <scenario-dir>/client.out                -> <out-dir>/<name>.stream.jsonl
//   Gemini CLI only: its stream-json events (or, through the pty driver, the
//   approval dialogs it answered), and <name>.exit, the client's exit status
//   (124: ended by the scenario's time limit).
// <scenario-dir>/proj/.claude/settings.json -> <out-dir>/<name>.settings.json
//   Claude Code's `sandbox` object, when the scenario's settings had one
//   (what the advisor's hook reads of them; the hooks are left out).
// <scenario-dir>/codex-home/config.toml    -> <out-dir>/<name>.config.toml
//   Codex's `sandbox_mode` line and `[sandbox_workspace_write]` table, when
//   the scenario's config had either (the rest is the scripted provider).
// <scenario-dir>/client.argv              -> <out-dir>/<name>.argv.json
//   Codex's command line (the words after the binary, one per line in the
//   file), which the advisor's hook reads from its ancestor process.
// <scenario-dir>/client.err                -> <out-dir>/<name>.stderr.txt
//   the client's own stderr, when it said anything but Codex's
//   "Reading additional input from stdin..." (which every `codex exec` prints).
//
// The payloads are pretty-printed (key order and every value kept). The only
// text replaced is the scenario directory's absolute path, which differs per
// checkout: it becomes "<run>", and the dashed form Claude Code derives from
// it for its projects folder becomes "<run-dashed>"; and the repository's own
// path, when given (it appears in hook command lines), becomes "<repo>".
import fs from 'node:fs';
import path from 'node:path';

const [dir, outDir, name, repo] = process.argv.slice(2);
if (!dir || !outDir || !name) {
  process.stderr.write('usage: collect.mjs <scenario-dir> <out-dir> <name>\n');
  process.exit(2);
}
const abs = path.resolve(dir);
const dashed = abs.replace(/[^A-Za-z0-9]/g, '-');

function scrub(text) {
  let t = text.split(abs).join('<run>').split(dashed).join('<run-dashed>');
  if (repo) t = t.split(path.resolve(repo)).join('<repo>');
  return t;
}

function pretty(value) {
  return scrub(JSON.stringify(value, null, 2)) + '\n';
}

fs.mkdirSync(outDir, { recursive: true });
const written = [];

const hookDir = path.join(abs, 'hooks');
const files = fs.existsSync(hookDir)
  ? fs.readdirSync(hookDir).filter((f) => /^\d{3}-[A-Za-z]+\.json$/.test(f)).sort()
  : [];
const seen = new Map();
for (const f of files) {
  const event = f.slice(4, -5);
  const k = (seen.get(event) || 0) + 1;
  seen.set(event, k);
  const target = `${name}.${event}${k > 1 ? `.${k}` : ''}.json`;
  const payload = JSON.parse(fs.readFileSync(path.join(hookDir, f), 'utf8'));
  fs.writeFileSync(path.join(outDir, target), pretty(payload));
  written.push(target);
}

// The model's side: the last request that followed a tool call.
const reqFile = path.join(abs, 'requests.jsonl');
const requests = fs.existsSync(reqFile)
  ? fs.readFileSync(reqFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l))
  : [];

function claudeTail(body) {
  // Everything after the last assistant turn that asked for a tool.
  const msgs = body.messages || [];
  let i = msgs.length - 1;
  while (i >= 0 && !(msgs[i].role === 'assistant' && JSON.stringify(msgs[i].content).includes('"tool_use"'))) i--;
  return i < 0 ? null : msgs.slice(i + 1);
}

function codexTail(body) {
  const input = Array.isArray(body.input) ? body.input : [];
  let i = input.length - 1;
  while (i >= 0 && input[i].type !== 'function_call') i--;
  return i < 0 ? null : input.slice(i + 1);
}

function geminiTail(body) {
  // Everything after the last model turn that called a function.
  const contents = Array.isArray(body.contents) ? body.contents : [];
  let i = contents.length - 1;
  while (i >= 0 && !(contents[i].role === 'model' && (contents[i].parts || []).some((p) => p.functionCall))) i--;
  return i < 0 ? null : contents.slice(i + 1);
}

let tail = null;
for (const r of requests) {
  if (!r.body || typeof r.body !== 'object') continue;
  if (/\/messages$/.test(r.path)) tail = claudeTail(r.body) || tail;
  else if (/\/responses$/.test(r.path)) tail = codexTail(r.body) || tail;
  else if (/:streamGenerateContent$/.test(r.path)) tail = geminiTail(r.body) || tail;
}
if (tail) {
  fs.writeFileSync(path.join(outDir, `${name}.model.json`), pretty(tail));
  written.push(`${name}.model.json`);
}
const trustFile = path.join(abs, 'trust.jsonl');
if (fs.existsSync(trustFile)) {
  fs.writeFileSync(path.join(outDir, `${name}.app-server.jsonl`), scrub(fs.readFileSync(trustFile, 'utf8')));
  written.push(`${name}.app-server.jsonl`);
}

const gemini = requests.some((r) => /:streamGenerateContent$/.test(r.path || ''));
const outFile = path.join(abs, 'client.out');
if (gemini && fs.existsSync(outFile)) {
  fs.writeFileSync(path.join(outDir, `${name}.stream.jsonl`), scrub(fs.readFileSync(outFile, 'utf8')));
  written.push(`${name}.stream.jsonl`);
}
const statusFile = path.join(abs, 'client.status');
if (gemini && fs.existsSync(statusFile)) {
  fs.writeFileSync(path.join(outDir, `${name}.exit`), fs.readFileSync(statusFile, 'utf8'));
  written.push(`${name}.exit`);
}
const settingsFile = path.join(abs, 'proj', '.claude', 'settings.json');
if (fs.existsSync(settingsFile)) {
  const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
  if (settings.sandbox !== undefined) {
    fs.writeFileSync(path.join(outDir, `${name}.settings.json`), pretty({ sandbox: settings.sandbox }));
    written.push(`${name}.settings.json`);
  }
}
const configFile = path.join(abs, 'codex-home', 'config.toml');
if (fs.existsSync(configFile)) {
  const kept = [];
  let table = null; // null: the top level, before any table header
  for (const line of fs.readFileSync(configFile, 'utf8').split('\n')) {
    if (/^\s*\[/.test(line)) table = line.trim();
    const top = table === null && /^\s*sandbox_mode\s*=/.test(line);
    if (top || table === '[sandbox_workspace_write]') kept.push(line);
  }
  if (kept.length) {
    fs.writeFileSync(path.join(outDir, `${name}.config.toml`), scrub(kept.join('\n').trim() + '\n'));
    written.push(`${name}.config.toml`);
  }
}

const argvFile = path.join(abs, 'client.argv');
if (fs.existsSync(argvFile)) {
  const argv = fs.readFileSync(argvFile, 'utf8').split('\n').filter((a, i, all) => i < all.length - 1 || a);
  fs.writeFileSync(path.join(outDir, `${name}.argv.json`), pretty(argv));
  written.push(`${name}.argv.json`);
}

const errFile = path.join(abs, 'client.err');
if (fs.existsSync(errFile)) {
  const err = fs.readFileSync(errFile, 'utf8');
  if (err.replace(/^Reading additional input from stdin\.\.\.\n?/, '').trim()) {
    fs.writeFileSync(path.join(outDir, `${name}.stderr.txt`), scrub(err));
    written.push(`${name}.stderr.txt`);
  }
}
process.stdout.write(written.map((w) => `  ${path.join(outDir, w)}\n`).join(''));
