#!/usr/bin/env node
// Trusts Codex hooks the way an app-server client does, and writes down the
// JSON-RPC exchange, so the advisor's `hook install --trust` has a measured
// sequence to follow.
//
//   node codex-trust.mjs <codex-bin> <cwd> <transcript.jsonl> [--match SUBSTRING]
//
// Runs `<codex-bin> app-server` (stdio transport, JSON lines) with the
// environment it was given (CODEX_HOME decides whose hooks), then:
//   initialize -> initialized -> hooks/list {cwds:[cwd]}
//   -> for each hook not yet trusted (and whose command contains SUBSTRING):
//      config/value/write hooks.state."<key>" = {enabled: true, trusted_hash: <currentHash>}
//   -> hooks/list again, to read back the trust status.
// Every message sent and received goes to the transcript, one JSON line each:
// {"dir": ">" | "<", "msg": ...}. Exit 0 when every selected hook ends trusted.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import readline from 'node:readline';

const [bin, cwd, transcript, ...rest] = process.argv.slice(2);
if (!bin || !cwd || !transcript) {
  process.stderr.write('usage: codex-trust.mjs <codex-bin> <cwd> <transcript.jsonl> [--match SUBSTRING]\n');
  process.exit(2);
}
const match = rest[0] === '--match' ? rest[1] || '' : '';
fs.writeFileSync(transcript, '');
const log = (dir, msg) => fs.appendFileSync(transcript, JSON.stringify({ dir, msg }) + '\n');

const child = spawn(bin, ['app-server'], { cwd, stdio: ['pipe', 'pipe', 'inherit'] });
const pending = new Map();
let nextId = 1;

readline.createInterface({ input: child.stdout }).on('line', (line) => {
  if (!line.trim()) return;
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    process.stderr.write(`codex-trust: not JSON from app-server: ${line}\n`);
    return;
  }
  log('<', msg);
  if (msg.id !== undefined && pending.has(msg.id) && !msg.method) {
    const { resolve, reject } = pending.get(msg.id);
    pending.delete(msg.id);
    if (msg.error) reject(new Error(`${JSON.stringify(msg.error)}`));
    else resolve(msg.result);
  }
});

function send(msg) {
  log('>', msg);
  child.stdin.write(JSON.stringify(msg) + '\n');
}

function request(method, params) {
  const id = nextId++;
  const p = new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
  send({ id, method, params });
  return p;
}

const timer = setTimeout(() => {
  process.stderr.write('codex-trust: app-server did not answer in 30 s\n');
  child.kill();
  process.exit(1);
}, 30000);

function hooksOf(list) {
  return (list.data || []).flatMap((entry) => entry.hooks || []);
}

try {
  await request('initialize', { clientInfo: { name: 'sandbox-advisor-clients', version: '0.0.0' } });
  send({ method: 'initialized' });
  const before = hooksOf(await request('hooks/list', { cwds: [cwd] }));
  const selected = before.filter((h) => !match || (h.command || '').includes(match));
  for (const h of selected) {
    if (h.trustStatus === 'trusted' || h.trustStatus === 'managed') continue;
    await request('config/value/write', {
      keyPath: `hooks.state."${h.key}"`,
      value: { enabled: true, trusted_hash: h.currentHash },
      mergeStrategy: 'upsert',
    });
  }
  const after = hooksOf(await request('hooks/list', { cwds: [cwd] }));
  const wanted = new Set(selected.map((h) => h.key));
  const states = after.filter((h) => wanted.has(h.key)).map((h) => `${h.eventName} ${h.trustStatus}`);
  process.stderr.write(`codex-trust: ${states.join(', ') || 'no hooks found'}\n`);
  const ok = selected.length > 0 && after.filter((h) => wanted.has(h.key)).every((h) => h.trustStatus === 'trusted');
  clearTimeout(timer);
  child.stdin.end();
  child.kill();
  process.exit(ok ? 0 : 1);
} catch (e) {
  process.stderr.write(`codex-trust: ${e.message}\n`);
  child.kill();
  process.exit(1);
}
