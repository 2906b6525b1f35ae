import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFolderServer, type FolderServer } from '../../src/cli/serve/log-folder-server.ts';
import { TailCursor } from '../../src/core/follow/tail-cursor.ts';
import { urlTail } from '../../src/ui/follow/tail-readers.ts';

const dec = new TextDecoder();

/** A server that ignores Range: the whole file, every time (the follower must fall back). */
function plainServer(file: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => { res.writeHead(200, { 'content-type': 'application/octet-stream' }); res.end(fs.readFileSync(file)); });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    resolve({ url: `http://127.0.0.1:${port}/live.jsonl`, close: () => new Promise((r) => server.close(() => r())) });
  }));
}

describe('reading a followed URL (issue #21)', () => {
  let dir: string;
  let file: string;
  let ranged: FolderServer;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-tail-'));
    file = path.join(dir, 'live.jsonl');
    ranged = await startFolderServer({ dir, port: 0, origins: [] });
  });
  afterAll(() => ranged.close());

  it.each([['with Range', true], ['from a server that ignores Range', false]] as const)('%s: new bytes only, then a shrink and a replaced file are told', async (_what, withRange) => {
    const first = `{"type":"session","id":"a"}\n${'{"seq":0}\n'.repeat(500)}`;
    fs.writeFileSync(file, first);
    const plain = withRange ? null : await plainServer(file);
    const reader = urlTail(plain ? plain.url : `${ranged.base}live.jsonl`);
    const cursor = new TailCursor();
    try {
      const start = cursor.take(await reader.read(cursor.offset));
      expect(start.kind === 'grew' && dec.decode(start.bytes)).toBe(first);
      expect(cursor.take(await reader.read(cursor.offset))).toEqual({ kind: 'same' });
      fs.appendFileSync(file, '{"seq":1}\n{"se');
      const grew = cursor.take(await reader.read(cursor.offset));
      expect(grew.kind === 'grew' && dec.decode(grew.bytes)).toBe('{"seq":1}\n{"se');
      fs.writeFileSync(file, '{"type":"session","id":"b"}\n');
      expect(cursor.take(await reader.read(cursor.offset)).kind).toBe('shrunk');
      // Longer than what was read, another session: its first bytes tell.
      fs.writeFileSync(file, `{"type":"session","id":"b"}\n${'{"seq":0}\n'.repeat(600)}`);
      expect(cursor.take(await reader.read(cursor.offset))).toEqual({ kind: 'replaced' });
    } finally {
      await plain?.close();
    }
  });
});
