// Reads back what write.mjs wrote, two ways:
//  1. by hand: walk each .jsonl.zstd file frame by frame (RFC 8878 frame
//     header, block headers, optional 4-byte checksum), print each frame's
//     descriptor flags, decode it alone, and compare with what a single
//     zstdDecompressSync over the whole file returns;
//  2. through the writer's own reader (backend.load), which must accept it.
//
// Usage: npm run verify -- [OUT_DIR]   (default ./out)

import { readFile, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { zstdDecompressSync } from 'node:zlib';
import { Context } from '@deepseek-ai/cordis';
import { InvariantRegistry } from '@deepseek-ai/dsh-invariants';
import { SessionStore } from '@deepseek-ai/dsh-session';
import { JsonlSessionPersistence } from '@deepseek-ai/dsh-session-persistence-jsonl';

const OUT = resolve(process.argv[2] ?? 'out');
const MAGIC = 0xfd2fb528;

/** Byte ranges and descriptor facts of every frame; throws on a torn one. */
function frames(buf) {
  const found = [];
  let at = 0;
  while (at < buf.length) {
    const start = at;
    if (buf.readUInt32LE(at) !== MAGIC) throw new Error(`no frame magic at byte ${at}`);
    at += 4;
    const fhd = buf[at];
    at += 1;
    const fcsFlag = fhd >> 6;
    const single = (fhd & 0x20) !== 0;
    const checksum = (fhd & 0x04) !== 0;
    const dictFlag = fhd & 0x03;
    at += single ? 0 : 1; // window descriptor
    at += [0, 1, 2, 4][dictFlag];
    const fcsBytes = [single ? 1 : 0, 2, 4, 8][fcsFlag];
    let contentSize;
    if (fcsBytes === 1) contentSize = buf[at];
    else if (fcsBytes === 2) contentSize = buf.readUInt16LE(at) + 256;
    else if (fcsBytes === 4) contentSize = buf.readUInt32LE(at);
    else if (fcsBytes === 8) contentSize = Number(buf.readBigUInt64LE(at));
    at += fcsBytes;
    let blocks = 0;
    for (;;) {
      const header = buf.readUIntLE(at, 3);
      at += 3;
      const type = (header >> 1) & 3;
      at += type === 1 ? 1 : header >> 3;
      blocks += 1;
      if (header & 1) break;
    }
    if (checksum) at += 4;
    if (at > buf.length) throw new Error(`torn frame starting at byte ${start}`);
    found.push({ start, end: at, fhd, checksum, single, contentSize, blocks });
  }
  return found;
}

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}

for (const [name, compression] of [['zstd', 'zstd'], ['plain', 'none']]) {
  const root = join(OUT, name);
  for await (const path of files(root)) {
    console.log(`\n${path.slice(OUT.length + 1)}`);
    const buf = await readFile(path);
    if (compression === 'none') {
      const lines = buf.toString('utf8').split('\n').filter(Boolean);
      console.log(`  plain: ${buf.length} bytes, ${lines.length} lines, ends with newline: ${buf.at(-1) === 10}`);
      continue;
    }
    let total = 0;
    for (const [i, f] of frames(buf).entries()) {
      // Decoding one frame alone also verifies its checksum (zstd does that
      // whenever the frame carries one).
      const text = zstdDecompressSync(buf.subarray(f.start, f.end)).toString('utf8');
      total += text.length;
      const lines = text.split('\n').filter(Boolean);
      console.log(
        `  frame ${i}: bytes ${f.start}..${f.end}, FHD 0x${f.fhd.toString(16).padStart(2, '0')}`
        + ` checksum=${f.checksum} singleSegment=${f.single} contentSize=${f.contentSize} blocks=${f.blocks}`
        + ` -> ${text.length} bytes, ${lines.length} lines, first type ${JSON.parse(lines[0]).type}`,
      );
    }
    const whole = zstdDecompressSync(buf).toString('utf8');
    console.log(`  zstdDecompressSync(whole file): ${whole.length} bytes of ${total}; lines ${whole.split('\n').filter(Boolean).length}`);
  }

  const ctx = new Context();
  ctx.plugin(SessionStore);
  ctx.plugin(InvariantRegistry);
  await ctx.plugin(JsonlSessionPersistence, { root, compression }).await();
  // load() rebuilds a Session, which checks the header cwd with this host's
  // path rules (so a `D:\\ws` session is refused on Linux); inspect() only
  // decodes and validates the stored log.
  for (const header of await ctx.sessionPersistence.list()) {
    for (const how of ['inspect', 'load']) {
      try {
        const { events } = await ctx.sessionPersistence[how](header.id);
        const contiguous = events.every((e, i) => e.seq === i);
        console.log(`backend.${how}(${name}/${header.id}): ${events.length} events, seq contiguous: ${contiguous}`);
      } catch (error) {
        console.log(`backend.${how}(${name}/${header.id}): refused: ${error.cause?.message ?? error.message}`);
      }
    }
  }
}
