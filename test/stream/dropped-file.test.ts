import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { Engine } from '../../src/worker/engine.ts';
import { readAheadFile, readAheadStream } from '../../scripts/dropped-file.ts';

/** The bench's stand-in for a dropped file (issue #15): a file on disk whose stream reads ahead. */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-dropped-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const text = generateLog({ dialect: 'v0', seed: 4, turns: 6 }).text;
const at = path.join(dir, 'log.jsonl');
fs.writeFileSync(at, text);

async function chunksOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  const reader = stream.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) out.push(r.value);
  return out;
}

describe('the bench\'s dropped file', () => {
  it('streams the file\'s bytes whole and in order, a read a chunk, each chunk its own buffer', async () => {
    const chunks = await chunksOf(readAheadStream(at, 4096));
    const bytes = fs.readFileSync(at);
    expect(chunks.length).toBe(Math.ceil(bytes.length / 4096));
    expect(chunks.slice(0, -1).every((c) => c.length === 4096)).toBe(true);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
    // The reader may keep or transfer what it is handed: no two chunks share memory.
    expect(new Set(chunks.map((c) => c.buffer)).size).toBe(chunks.length);
  });

  it('lets the file go when the reader stops early', async () => {
    const reader = readAheadStream(at, 4096).getReader();
    const first = await reader.read();
    expect(first.value?.length).toBe(4096);
    await reader.cancel();
    // Cancelled: nothing more comes, and the read ahead did not fail.
    expect((await reader.read()).done).toBe(true);
  });

  it('is a Blob the engine loads as it loads the log\'s text', async () => {
    const file = await readAheadFile(at);
    expect(file).toBeInstanceOf(Blob);
    expect(file.size).toBe(fs.statSync(at).size);
    const fromFile = await new Engine().load({ kind: 'file', file, name: 'log.jsonl' }, () => {});
    const fromText = await new Engine().load({ kind: 'text', text, name: 'log.jsonl' }, () => {});
    expect(fromFile.count).toBe(fromText.count);
    expect(fromFile.count).toBeGreaterThan(100);
    expect(fromFile.diagnostics).toEqual(fromText.diagnostics);
    expect(fromFile.sourceWaitMs).toBeGreaterThanOrEqual(0);
  });
});
