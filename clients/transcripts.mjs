#!/usr/bin/env node
// Copies the transcript a client wrote during one scenario into
// examples/transcripts/<client>/, with the run's absolute paths scrubbed.
//
//   node transcripts.mjs <client> <scenario-dir> <out-dir> <name> [<repo-root>]
//
// claude-code: <scenario-dir>/home/.claude/projects/<project>/<session>.jsonl
//   -> <out-dir>/<name>.jsonl (one session expected; a second is <name>.2.jsonl).
//   A subagent's transcript, if any (<session>/subagents/*.jsonl), is copied as
//   <name>.subagent-<file>.
// codex: <scenario-dir>/codex-home/sessions/YYYY/MM/DD/rollout-*.jsonl
//   -> <out-dir>/<name>.jsonl (same numbering).
//
// Scrubbing: the scenario directory's absolute path becomes "/home/dev/run"
// (still an absolute path, so a scan judges the paths as the advisor would
// live), the dashed form Claude Code derives from it becomes "-home-dev-run",
// the repository's path (if given) becomes "<repo>". Nothing
// else is changed: the file is treated as text, not parsed and re-serialized,
// so key order, spacing and line endings stay as the client wrote them.
import fs from 'node:fs';
import path from 'node:path';

const [client, dir, outDir, name, repo] = process.argv.slice(2);
if (!client || !dir || !outDir || !name) {
  process.stderr.write('usage: transcripts.mjs <client> <scenario-dir> <out-dir> <name> [<repo-root>]\n');
  process.exit(2);
}
/** What the run's directory becomes: a plausible absolute path, the one `recorded.rs` puts back into docs/hooks. */
const RUN = '/home/dev/run';
const abs = path.resolve(dir);
const dashed = abs.replace(/[^A-Za-z0-9]/g, '-');

function scrub(text) {
  let t = text.split(abs).join(RUN).split(dashed).join(RUN.replace(/[^A-Za-z0-9]/g, '-'));
  if (repo) t = t.split(path.resolve(repo)).join('<repo>');
  return t;
}

function walk(root) {
  if (!fs.existsSync(root)) return [];
  const out = [];
  for (const e of fs.readdirSync(root, { withFileTypes: true })) {
    const p = path.join(root, e.name);
    if (e.isDirectory()) out.push(...walk(p));
    else if (e.isFile() && e.name.endsWith('.jsonl')) out.push(p);
  }
  return out.sort();
}

let found = [];
if (client === 'claude-code') found = walk(path.join(abs, 'home', '.claude', 'projects'));
else if (client === 'codex') found = walk(path.join(abs, 'codex-home', 'sessions'));
else {
  process.stderr.write(`transcripts.mjs: unknown client ${client}\n`);
  process.exit(2);
}
if (found.length === 0) {
  process.stderr.write(`transcripts.mjs: no transcript under ${abs} for ${client}\n`);
  process.exit(1);
}

fs.mkdirSync(outDir, { recursive: true });
let main = 0;
for (const f of found) {
  const sub = f.split(path.sep).includes('subagents');
  const target = sub
    ? `${name}.subagent-${path.basename(f)}`
    : `${name}${++main > 1 ? `.${main}` : ''}.jsonl`;
  fs.writeFileSync(path.join(outDir, target), scrub(fs.readFileSync(f, 'utf8')));
  process.stdout.write(`  ${path.join(outDir, target)}  (from ${scrub(f)})\n`);
}
