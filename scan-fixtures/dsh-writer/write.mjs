// Writes v0 DeepSeek harness sessions with the published JSONL writer
// (@deepseek-ai/dsh-session-persistence-jsonl 0.1.0-rc.8), offline.
//
// Usage (Node >= 22, e.g. the one npm installs here):
//   npm run write -- [OUT_DIR]          (default OUT_DIR: ./out)
//
// OUT_DIR/zstd and OUT_DIR/plain are two roots, one per encoding (the writer
// refuses a root that mixes them). Each root gets the same three sessions; see
// README.md for what each holds.

import { mkdir, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Context } from '@deepseek-ai/cordis';
import { InvariantRegistry } from '@deepseek-ai/dsh-invariants';
import { interruptedTurnClosers, Session, SessionId, SessionStore, SESSION_FORMAT_VERSION } from '@deepseek-ai/dsh-session';
import { createAssistantMessage, createToolResultMessage, createUserMessage } from '@deepseek-ai/dsh-llm';
import { JsonlSessionPersistence } from '@deepseek-ai/dsh-session-persistence-jsonl';

const OUT = resolve(process.argv[2] ?? 'out');

// Reproducible output: the clock and the message ids that dsh-session and
// dsh-llm read (Date.now, crypto.randomUUID) are replaced by counters before
// any event exists, so two runs write byte-identical files. The clock starts
// at BASE and moves 1 s per reading.
const BASE = Date.UTC(2026, 0, 15, 9, 0, 0);
let clock = BASE - 1000;
Date.now = () => (clock += 1000);
let uuids = 0;
crypto.randomUUID = () => `00000000-0000-4000-8000-${(uuids += 1).toString(16).padStart(12, '0')}`;

const ACL_FAILURE = 'SetNamedSecurityInfoW failed (Win32 5): grantWrite(D:\\ws)';
const MODEL = { provider: 'deepseek', model: 'deepseek-chat' };

const IDS = {
  windows: 'fixture-win-acl',
  subagent: 'fixture-win-acl-sub',
  posix: 'fixture-posix-ok',
};

/** One model step that asks for one tool call; returns the tool/call seq. */
function toolStep(session, { turn, step, callId, name, args, usage, thinking, prompt }) {
  const argsText = JSON.stringify(args);
  session.append('step/start', { turn, step });
  if (prompt) session.append('user/message', prompt, { surfaceOp: 'append' });
  const chunkSeqs = [];
  const chunk = (c) => chunkSeqs.push(session.append('assistant/chunk', { turn, step, chunk: c }).seq);
  const content = [];
  let index = 0;
  if (thinking) {
    // Three text deltas in a row: the writer packs such a run into one
    // `text-chunks` storage row when packChunks is on (the default).
    chunk({ type: 'block-start', index, blockType: 'text' });
    for (const piece of thinking) chunk({ type: 'text-delta', index, text: piece });
    const block = { type: 'text', text: thinking.join('') };
    chunk({ type: 'block-end', index, block });
    content.push(block);
    index += 1;
  }
  chunk({ type: 'block-start', index, blockType: 'tool-call' });
  chunk({ type: 'tool-call-delta', index, id: callId, name, argumentsDelta: argsText });
  const call = { type: 'tool-call', id: callId, name, arguments: argsText };
  chunk({ type: 'block-end', index, block: call });
  content.push(call);
  // v0 records usage twice: as a stream chunk and on assistant/message.
  chunk({ type: 'usage', usage });
  chunk({ type: 'finish', reason: { kind: 'tool-calls' } });
  session.append(
    'assistant/message',
    { turn, step, message: createAssistantMessage({ content, source: MODEL }), usage },
    { surfaceOp: 'append', sourceEventSeqs: chunkSeqs },
  );
  return session.append('tool/call', { turn, step, callId, name, arguments: argsText }).seq;
}

function toolResult(session, { turn, step, callId, callSeq, text, isError }) {
  const message = createToolResultMessage({ callId, content: [{ type: 'text', text }], isError });
  session.append('tool/result', { turn, step, message }, { surfaceOp: 'append', sourceEventSeqs: [callSeq] });
  session.append('step/end', { turn, step });
}

function textStep(session, { turn, step, text, usage }) {
  session.append('step/start', { turn, step });
  const seqs = [];
  const chunk = (c) => seqs.push(session.append('assistant/chunk', { turn, step, chunk: c }).seq);
  const block = { type: 'text', text };
  chunk({ type: 'block-start', index: 0, blockType: 'text' });
  chunk({ type: 'text-delta', index: 0, text });
  chunk({ type: 'block-end', index: 0, block });
  chunk({ type: 'usage', usage });
  chunk({ type: 'finish', reason: { kind: 'stop' } });
  session.append(
    'assistant/message',
    { turn, step, message: createAssistantMessage({ content: [block], source: MODEL }), usage },
    { surfaceOp: 'append', sourceEventSeqs: seqs },
  );
  session.append('step/end', { turn, step });
}

// As in dsh-agent-loop: turns and steps count from 1, and the step's input
// messages are appended right after its step/start.
const userPrompt = (text) => createUserMessage({ content: [{ type: 'text', text }], source: { kind: 'user' } });

const pwsh = (command) => ({ command });

/** Windows session: three ACL failures, a mode switch, then a success. */
function windowsEvents() {
  const s = Session.create(SessionId(IDS.windows));
  s.append('turn/start', { turn: 1 });
  for (let step = 1; step <= 3; step += 1) {
    const callId = `call_acl_${step}`;
    const callSeq = toolStep(s, {
      turn: 1, step, callId, name: 'pwsh',
      args: pwsh("Set-Content -Path notes.txt -Value 'hello'"),
      usage: { inputTokens: 2100 + 300 * step, outputTokens: 40 + step, cacheReadTokens: 2048 },
      thinking: step === 1 ? ['I will ', 'write the ', 'file now.'] : undefined,
      prompt: step === 1 ? userPrompt('Create notes.txt in the workspace with the word hello.') : undefined,
    });
    toolResult(s, { turn: 1, step, callId, callSeq, text: `Error: ${ACL_FAILURE}`, isError: true });
  }
  textStep(s, {
    turn: 1, step: 4,
    text: 'The sandbox could not grant write access to the workspace.',
    usage: { inputTokens: 3420, outputTokens: 17, cacheReadTokens: 3072 },
  });
  s.append('turn/end', { turn: 1, reason: { kind: 'completed' } });
  // Log-only, appended by dsh-sandbox-policy's setSandboxMode on a switch.
  s.append('sandbox/mode', { mode: 'danger-full-access' });
  s.append('turn/start', { turn: 2 });
  const callSeq = toolStep(s, {
    turn: 2, step: 1, callId: 'call_ok_1', name: 'pwsh',
    args: pwsh("Set-Content -Path notes.txt -Value 'hello'"),
    usage: { inputTokens: 3500, outputTokens: 39, cacheReadTokens: 3072 },
    prompt: userPrompt('Try again.'),
  });
  toolResult(s, { turn: 2, step: 1, callId: 'call_ok_1', callSeq, text: '[exit code: 0]', isError: false });
  textStep(s, {
    turn: 2, step: 2, text: 'notes.txt now contains hello.',
    usage: { inputTokens: 3580, outputTokens: 9, cacheReadTokens: 3456 },
  });
  s.append('turn/end', { turn: 2, reason: { kind: 'completed' } });
  return s.events;
}

/** Subagent child of the Windows session: one ACL failure, then it reports back. */
function subagentEvents() {
  const s = Session.create(SessionId(IDS.subagent));
  s.append('turn/start', { turn: 1 });
  const callSeq = toolStep(s, {
    turn: 1, step: 1, callId: 'call_sub_1', name: 'pwsh',
    args: pwsh('npx prettier --write src'),
    usage: { inputTokens: 1200, outputTokens: 30 },
    prompt: createUserMessage({
      content: [{ type: 'text', text: 'Run the formatter over src/.' }],
      source: { kind: 'plugin', plugin: 'dsh-subagent' },
    }),
  });
  toolResult(s, { turn: 1, step: 1, callId: 'call_sub_1', callSeq, text: `Error: ${ACL_FAILURE}`, isError: true });
  textStep(s, {
    turn: 1, step: 2, text: 'The formatter could not run: the sandbox grant failed.',
    usage: { inputTokens: 1310, outputTokens: 14 },
  });
  s.append('turn/end', { turn: 1, reason: { kind: 'completed' } });
  return s.events;
}

/**
 * Check that dsh-session accepts the log as a seed (contiguous seq, well-formed
 * messages) and that it needs no crash closers (every turn and step is closed). The backend reader cannot
 * run this check on Linux: it rebuilds a Session, whose header check refuses
 * a `D:\\ws` cwd there.
 */
function checked(id, events) {
  Session.create(SessionId(id), events, { version: SESSION_FORMAT_VERSION, id: SessionId(id), createdAt: BASE });
  const closers = interruptedTurnClosers(events);
  if (closers.length > 0) throw new Error(`${id}: log is not balanced; would need ${closers.length} closers`);
  return events;
}

async function writeRoot(root, compression) {
  // Same clock and ids in both roots: the two encodings hold the same lines.
  clock = BASE - 1000;
  uuids = 0;
  await rm(root, { recursive: true, force: true });
  await mkdir(root, { recursive: true });
  const ctx = new Context();
  ctx.plugin(SessionStore);
  ctx.plugin(InvariantRegistry);
  await ctx.plugin(JsonlSessionPersistence, { root, compression }).await();
  const backend = ctx.sessionPersistence;

  // Windows cwd: ctx.sessions.create would refuse `D:\ws` on Linux (it checks
  // path.isAbsolute with the host's rules), so the backend is driven directly.
  const winHeader = { version: SESSION_FORMAT_VERSION, id: SessionId(IDS.windows), createdAt: BASE, cwd: 'D:\\ws', delegationDepth: 0 };
  await backend.create(winHeader);
  await backend.append(winHeader.id, checked(IDS.windows, windowsEvents()));

  const subHeader = {
    version: SESSION_FORMAT_VERSION, id: SessionId(IDS.subagent), createdAt: BASE + 5000,
    cwd: 'D:\\ws', parentSession: SessionId(IDS.windows), origin: 'subagent', delegationDepth: 1,
  };
  await backend.create(subHeader);
  const subEvents = checked(IDS.subagent, subagentEvents());
  // Two append batches, so the compressed file has a header frame and two more.
  const half = Math.ceil(subEvents.length / 2);
  await backend.append(subHeader.id, subEvents.slice(0, half));
  await backend.append(subHeader.id, subEvents.slice(half));

  // A POSIX cwd goes through the ordinary store path: create, append, flush.
  const posix = ctx.sessions.create(SessionId(IDS.posix), { meta: { cwd: '/home/dev/proj', createdAt: BASE } });
  posix.append('turn/start', { turn: 1 });
  const callSeq = toolStep(posix, {
    turn: 1, step: 1, callId: 'call_ls_1', name: 'bash', args: { command: 'ls' },
    usage: { inputTokens: 900, outputTokens: 12 }, prompt: userPrompt('List the files.'),
  });
  toolResult(posix, { turn: 1, step: 1, callId: 'call_ls_1', callSeq, text: 'README.md\nsrc', isError: false });
  textStep(posix, { turn: 1, step: 2, text: 'Two entries: README.md and src.', usage: { inputTokens: 950, outputTokens: 10 } });
  posix.append('turn/end', { turn: 1, reason: { kind: 'completed' } });
  await ctx.sessions.flush(posix);

  for (const header of await backend.list()) {
    console.log(`${compression}\t${header.id}\t${backend.locate(header).path}`);
  }
  await ctx.dispose?.();
}

await writeRoot(resolve(OUT, 'zstd'), 'zstd');
await writeRoot(resolve(OUT, 'plain'), 'none');
