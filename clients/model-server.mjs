#!/usr/bin/env node
// A scripted model on 127.0.0.1 for driving the real Claude Code, Codex and
// Gemini CLIs offline. No dependencies beyond Node's standard library.
//
//   node model-server.mjs --script S.json --record R.jsonl [--port N]
//
// With port 0 (the default) the OS picks one; the chosen port is printed on
// stdout as one line once the server listens. Nothing else goes to stdout.
//
// The script is JSON: {"turns": [...]} or the bare list. A turn is one of
//   {"run": "<shell command>", "workdir": "<dir>"?, "description": "..."?}
//   {"final": "<text>"}
// A "run" turn answers Claude Code with a Bash tool_use, Codex with an
// exec_command function_call and Gemini CLI with a run_shell_command
// functionCall; a "final" turn ends the agent's loop with text.
//
// Which turn to answer is read from the request itself, not from a counter:
// turn k is answered when the conversation already holds k tool results
// (Claude Code's tool_result blocks, Codex's function_call_output items,
// Gemini's functionResponse parts). So a
// client's retry, or a side request, never skips a turn. Past the last turn the
// answer is the final text "done.". A request that offers no tools (a client's
// side request, a title or a summary) gets a short text and uses no turn.
//
// Every request, of any path, is appended to the record file as one JSON line:
//   {"seq", "method", "path", "headers", "body"}   (body parsed when it is JSON)
// Paths the server does not know are also told on stderr, with the answer given.

import http from 'node:http';
import fs from 'node:fs';
import zlib from 'node:zlib';

function parseArgs(argv) {
  const out = { port: 0, script: null, record: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) fail(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--port') out.port = Number(next());
    else if (a === '--script') out.script = next();
    else if (a === '--record') out.record = next();
    else if (/^\d+$/.test(a)) out.port = Number(a);
    else fail(`unknown argument: ${a}`);
  }
  if (!Number.isInteger(out.port) || out.port < 0 || out.port > 65535) fail('bad port');
  return out;
}

function fail(msg) {
  process.stderr.write(`model-server: ${msg}\n`);
  process.exit(2);
}

function loadTurns(file) {
  if (!file) return [];
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  const turns = Array.isArray(doc) ? doc : doc.turns;
  if (!Array.isArray(turns)) fail(`${file}: expected a list of turns or {"turns": [...]}`);
  turns.forEach((t, i) => {
    const ok = t && (typeof t.run === 'string' || typeof t.final === 'string');
    if (!ok) fail(`${file}: turn ${i} has neither "run" nor "final"`);
  });
  return turns;
}

const args = parseArgs(process.argv.slice(2));
const turns = loadTurns(args.script);
let seq = 0;

function record(entry) {
  if (!args.record) return;
  fs.appendFileSync(args.record, JSON.stringify(entry) + '\n');
}

function note(msg) {
  process.stderr.write(`model-server: ${msg}\n`);
}

function decode(buf, encoding) {
  switch ((encoding || '').toLowerCase()) {
    case 'gzip': return zlib.gunzipSync(buf);
    case 'deflate': return zlib.inflateSync(buf);
    case 'br': return zlib.brotliDecompressSync(buf);
    case 'zstd':
      if (typeof zlib.zstdDecompressSync === 'function') return zlib.zstdDecompressSync(buf);
      throw new Error('zstd request body, and this Node has no zstd');
    default: return buf;
  }
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

// ---------- which turn ----------

function countClaudeToolResults(body) {
  let n = 0;
  for (const m of body.messages || []) {
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content) if (b && b.type === 'tool_result') n++;
  }
  return n;
}

function countCodexOutputs(body) {
  let n = 0;
  const input = Array.isArray(body.input) ? body.input : [];
  for (const item of input) if (item && item.type === 'function_call_output') n++;
  return n;
}

function turnAt(k) {
  return k < turns.length ? turns[k] : { final: 'done.' };
}

// ---------- Anthropic Messages ----------

function sse(res, event, data) {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

function anthropicContent(turn, k) {
  if (typeof turn.run === 'string') {
    return {
      stop: 'tool_use',
      block: { type: 'tool_use', id: `toolu_scripted_${k}`, name: 'Bash', input: {} },
      input: { command: turn.run, description: turn.description || `scripted turn ${k}` },
    };
  }
  return { stop: 'end_turn', block: { type: 'text', text: '' }, text: turn.final };
}

function anthropicMessages(req, res, body) {
  const offersTools = Array.isArray(body.tools) && body.tools.length > 0;
  const k = countClaudeToolResults(body);
  const turn = offersTools ? turnAt(k) : { final: 'ok' };
  const c = anthropicContent(turn, k);
  const model = body.model || 'scripted';
  const id = `msg_scripted_${seq}`;
  const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

  if (!body.stream) {
    const block = c.input ? { ...c.block, input: c.input } : { type: 'text', text: c.text };
    return json(res, 200, {
      id, type: 'message', role: 'assistant', model, content: [block],
      stop_reason: c.stop, stop_sequence: null, usage,
    });
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': `req_${seq}` });
  sse(res, 'message_start', {
    type: 'message_start',
    message: {
      id, type: 'message', role: 'assistant', model, content: [],
      stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 },
    },
  });
  sse(res, 'content_block_start', { type: 'content_block_start', index: 0, content_block: c.block });
  if (c.input) {
    sse(res, 'content_block_delta', {
      type: 'content_block_delta', index: 0,
      delta: { type: 'input_json_delta', partial_json: JSON.stringify(c.input) },
    });
  } else {
    sse(res, 'content_block_delta', {
      type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: c.text },
    });
  }
  sse(res, 'content_block_stop', { type: 'content_block_stop', index: 0 });
  sse(res, 'message_delta', {
    type: 'message_delta', delta: { stop_reason: c.stop, stop_sequence: null }, usage: { output_tokens: 5 },
  });
  sse(res, 'message_stop', { type: 'message_stop' });
  res.end();
}

// ---------- OpenAI Responses ----------

function responsesItem(turn, k) {
  if (typeof turn.run === 'string') {
    const a = { cmd: turn.run };
    if (turn.workdir) a.workdir = turn.workdir;
    return {
      type: 'function_call', id: `fc_scripted_${k}`, call_id: `call_scripted_${k}`,
      name: 'exec_command', arguments: JSON.stringify(a), status: 'completed',
    };
  }
  return {
    type: 'message', id: `msg_scripted_${k}`, role: 'assistant', status: 'completed',
    content: [{ type: 'output_text', text: turn.final, annotations: [] }],
  };
}

function openaiResponses(req, res, body) {
  const offersTools = Array.isArray(body.tools) && body.tools.length > 0;
  const k = countCodexOutputs(body);
  const turn = offersTools ? turnAt(k) : { final: 'ok' };
  const item = responsesItem(turn, k);
  const id = `resp_scripted_${seq}`;
  const model = body.model || 'scripted';
  const usage = {
    input_tokens: 10, input_tokens_details: { cached_tokens: 0 },
    output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15,
  };
  const response = (status, output) => ({
    id, object: 'response', created_at: Math.floor(Date.now() / 1000), status, model, output,
    usage: status === 'completed' ? usage : null,
  });

  if (body.stream === false) return json(res, 200, response('completed', [item]));
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  let n = 0;
  const ev = (type, data) => sse(res, type, { type, sequence_number: n++, ...data });
  ev('response.created', { response: response('in_progress', []) });
  ev('response.in_progress', { response: response('in_progress', []) });
  if (item.type === 'function_call') {
    ev('response.output_item.added', { output_index: 0, item: { ...item, arguments: '', status: 'in_progress' } });
    ev('response.function_call_arguments.delta', { output_index: 0, item_id: item.id, delta: item.arguments });
    ev('response.function_call_arguments.done', { output_index: 0, item_id: item.id, arguments: item.arguments });
  } else {
    const text = item.content[0].text;
    ev('response.output_item.added', { output_index: 0, item: { ...item, content: [], status: 'in_progress' } });
    ev('response.content_part.added', {
      output_index: 0, item_id: item.id, content_index: 0, part: { type: 'output_text', text: '', annotations: [] },
    });
    ev('response.output_text.delta', { output_index: 0, item_id: item.id, content_index: 0, delta: text });
    ev('response.output_text.done', { output_index: 0, item_id: item.id, content_index: 0, text });
    ev('response.content_part.done', { output_index: 0, item_id: item.id, content_index: 0, part: item.content[0] });
  }
  ev('response.output_item.done', { output_index: 0, item });
  ev('response.completed', { response: response('completed', [item]) });
  res.end();
}

// ---------- Gemini (generativelanguage v1beta) ----------
// POST /v1beta/models/<model>:streamGenerateContent?alt=sse answers the agent
// (SSE, one `data:` event); POST /v1beta/models/<model>:generateContent is a
// side call (the model router asks for JSON).

function countGeminiResponses(body) {
  let n = 0;
  for (const c of body.contents || []) {
    for (const p of (c && c.parts) || []) if (p && p.functionResponse) n++;
  }
  return n;
}

function geminiParts(turn, k) {
  if (typeof turn.run === 'string') {
    const args = { command: turn.run, description: turn.description || `scripted turn ${k}` };
    return [{ functionCall: { name: 'run_shell_command', args } }];
  }
  return [{ text: turn.final }];
}

function geminiCandidate(parts) {
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: 'scripted',
  };
}

function geminiGenerate(req, res, body, stream) {
  const offersTools = Array.isArray(body.tools) && body.tools.length > 0;
  if (!offersTools) {
    // A side call: the router's classifier wants JSON; any other gets a short text.
    const wantsJson = JSON.stringify(body.generationConfig || {}).includes('json')
      || JSON.stringify(body).includes('model_choice');
    // Both classifiers' schemas at once: {reasoning, model_choice} and the numerical one.
    const text = wantsJson
      ? JSON.stringify({ reasoning: 'scripted', model_choice: 'flash', complexity_reasoning: 'scripted', complexity_score: 1 })
      : 'ok';
    const answer = geminiCandidate([{ text }]);
    if (!stream) return json(res, 200, answer);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(`data: ${JSON.stringify(answer)}\r\n\r\n`);
    return res.end();
  }
  const k = countGeminiResponses(body);
  const answer = geminiCandidate(geminiParts(turnAt(k), k));
  if (!stream) return json(res, 200, answer);
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(`data: ${JSON.stringify(answer)}\r\n\r\n`);
  res.end();
}

// ---------- the rest ----------

function json(res, status, obj) {
  const text = JSON.stringify(obj);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const MODEL_LIST = {
  data: [{ id: 'scripted', object: 'model', type: 'model', display_name: 'scripted', created_at: '2026-01-01T00:00:00Z' }],
  has_more: false, first_id: 'scripted', last_id: 'scripted', object: 'list',
};

function other(req, res, path, body) {
  if (req.method === 'POST' && /\/messages\/count_tokens$/.test(path)) {
    return json(res, 200, { input_tokens: 10 });
  }
  if (req.method === 'GET' && /\/models\/?$/.test(path)) {
    // Anthropic's and OpenAI's list shapes share `data`; Codex reads `models`.
    return json(res, 200, { ...MODEL_LIST, models: [] });
  }
  if (req.method === 'HEAD' || (req.method === 'GET' && (path === '/' || path === ''))) {
    return json(res, 200, {});
  }
  note(`unknown ${req.method} ${path}: answered 404`);
  return json(res, 404, { type: 'error', error: { type: 'not_found_error', message: `scripted model server: no ${path}` } });
}

const server = http.createServer(async (req, res) => {
  const mySeq = ++seq;
  const path = (req.url || '/').split('?')[0];
  let body = null;
  try {
    const raw = decode(await readBody(req), req.headers['content-encoding']);
    const text = raw.toString('utf8');
    try { body = text ? JSON.parse(text) : null; } catch { body = text; }
  } catch (e) {
    note(`${req.method} ${path}: unreadable body: ${e.message}`);
  }
  const headers = {};
  for (const h of ['content-type', 'content-encoding', 'user-agent', 'anthropic-beta', 'openai-beta', 'x-app']) {
    if (req.headers[h]) headers[h] = req.headers[h];
  }
  record({ seq: mySeq, method: req.method, path, headers, body });
  try {
    if (req.method === 'POST' && /\/messages$/.test(path) && body && typeof body === 'object') {
      return anthropicMessages(req, res, body);
    }
    if (req.method === 'POST' && /\/responses$/.test(path) && body && typeof body === 'object') {
      return openaiResponses(req, res, body);
    }
    if (req.method === 'POST' && /:streamGenerateContent$/.test(path) && body && typeof body === 'object') {
      return geminiGenerate(req, res, body, true);
    }
    if (req.method === 'POST' && /:generateContent$/.test(path) && body && typeof body === 'object') {
      return geminiGenerate(req, res, body, false);
    }
    return other(req, res, path, body);
  } catch (e) {
    note(`${req.method} ${path}: ${e.stack || e}`);
    if (!res.headersSent) json(res, 500, { error: { message: String(e) } });
    else res.end();
  }
});

server.on('upgrade', (req, socket) => {
  // Codex can speak Responses over a WebSocket; refusing the upgrade makes it
  // fall back to HTTP streaming.
  record({ seq: ++seq, method: 'UPGRADE', path: (req.url || '/').split('?')[0], headers: {}, body: null });
  note(`refused a WebSocket upgrade on ${req.url}`);
  socket.end('HTTP/1.1 426 Upgrade Required\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
});

server.listen(args.port, '127.0.0.1', () => {
  process.stdout.write(`${server.address().port}\n`);
});

for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => server.close(() => process.exit(0)));
