#!/usr/bin/env node
// A recorder hook: copies the payload on stdin, byte for byte, to
// <dir>/NNN-<hook_event_name>.json and prints nothing, so the client goes on
// as if no hook were there.
//
//   node record.mjs <dir>
//
// If <dir>/reply-<hook_event_name>.json exists, its content is printed as the
// hook's answer instead of nothing (a test's way of making the hook speak:
// additionalContext, a deny). Exit status is always 0.
import fs from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
if (!dir) {
  process.stderr.write('record.mjs: usage: record.mjs <dir>\n');
  process.exit(0);
}
const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const raw = Buffer.concat(chunks);

let event = 'unknown';
try {
  const name = JSON.parse(raw.toString('utf8')).hook_event_name;
  if (typeof name === 'string' && /^[A-Za-z]+$/.test(name)) event = name;
} catch {
  // Keep the bytes anyway; the file name says the event was unreadable.
}

fs.mkdirSync(dir, { recursive: true });
// A hidden claim file taken with O_EXCL gives each payload its own number,
// in arrival order, even when two hooks run at once.
let n = 1;
for (; ; n++) {
  try {
    fs.closeSync(fs.openSync(path.join(dir, `.n${n}`), 'wx'));
    break;
  } catch (e) {
    if (e.code !== 'EEXIST') throw e;
  }
}
fs.writeFileSync(path.join(dir, `${String(n).padStart(3, '0')}-${event}.json`), raw);

const reply = path.join(dir, `reply-${event}.json`);
if (fs.existsSync(reply)) process.stdout.write(fs.readFileSync(reply));
