import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFolderServer, type FolderServer } from '../../src/cli/serve/log-folder-server.ts';

const APP = 'http://localhost:5173';

/** A raw request: the path is sent as written (fetch would resolve `..` before sending). */
function request(base: string, rawPath: string, headers: http.OutgoingHttpHeaders = {}, method = 'GET'): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, path: rawPath, method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d) => { body += d; }).on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('serve-logs: a folder read-only on 127.0.0.1 (issue #21)', () => {
  let dir: string;
  let server: FolderServer;
  const log = '{"type":"session","version":4}\n{"seq":0}\n';
  beforeAll(async () => {
    const top = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-serve-'));
    dir = path.join(top, 'logs');
    fs.mkdirSync(path.join(dir, 'sub'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'live.jsonl'), log);
    fs.writeFileSync(path.join(top, 'secret.txt'), 'do not serve');
    fs.symlinkSync(path.join(top, 'secret.txt'), path.join(dir, 'out-link'));
    fs.symlinkSync(top, path.join(dir, 'sub', 'up-link'));
    fs.symlinkSync(path.join(dir, 'live.jsonl'), path.join(dir, 'sub', 'in-link.jsonl'));
    server = await startFolderServer({ dir, port: 0, origins: [APP] });
  });
  afterAll(() => server.close());

  it('serves a log whole and by Range, with CORS for the app origin only', async () => {
    const whole = await request(server.base, '/live.jsonl', { origin: APP });
    expect(whole.status).toBe(200);
    expect(whole.body).toBe(log);
    expect(whole.headers['access-control-allow-origin']).toBe(APP);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    const tail = await request(server.base, '/live.jsonl', { range: 'bytes=31-', origin: APP });
    expect(tail.status).toBe(206);
    expect(tail.body).toBe('{"seq":0}\n');
    expect(tail.headers['content-range']).toBe(`bytes 31-${log.length - 1}/${log.length}`);
    expect(tail.headers['access-control-expose-headers']).toContain('Content-Range');
    // Nothing new yet: 416 with the size, which the follower reads.
    const past = await request(server.base, '/live.jsonl', { range: `bytes=${log.length}-` });
    expect(past.status).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${log.length}`);
    const preflight = await request(server.base, '/live.jsonl', { origin: APP, 'access-control-request-headers': 'range' }, 'OPTIONS');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-headers']).toBe('Range');
  });

  it('refuses other origins, other hosts and anything but GET/HEAD', async () => {
    const foreign = await request(server.base, '/live.jsonl', { origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    expect(foreign.body).not.toContain('session');
    const rebinding = await request(server.base, '/live.jsonl', { host: 'evil.example' });
    expect(rebinding.status).toBe(403);
    for (const method of ['POST', 'PUT', 'DELETE']) expect((await request(server.base, '/live.jsonl', {}, method)).status).toBe(405);
    expect(fs.readFileSync(path.join(dir, 'live.jsonl'), 'utf8')).toBe(log);
  });

  it('refuses .. paths, however they are spelled', async () => {
    for (const raw of ['/../secret.txt', '/sub/../../secret.txt', '/%2e%2e/secret.txt', '/sub/..%2f..%2fsecret.txt', '/..%5csecret.txt', '/./live.jsonl']) {
      const res = await request(server.base, raw);
      expect(res.status, raw).toBe(403);
      expect(res.body).not.toContain('do not serve');
    }
  });

  it('refuses symlinks out of the folder, serves one inside, and lists only what it serves', async () => {
    const out = await request(server.base, '/out-link');
    expect(out.status).toBe(403);
    expect(out.body).not.toContain('do not serve');
    expect((await request(server.base, '/sub/up-link/secret.txt')).status).toBe(403);
    expect((await request(server.base, '/sub/up-link/')).status).toBe(403);
    const inside = await request(server.base, '/sub/in-link.jsonl');
    expect(inside.status).toBe(200);
    expect(inside.body).toBe(log);
    const listing = JSON.parse((await request(server.base, '/')).body);
    expect(listing.entries.map((e: { name: string }) => e.name)).toEqual(['live.jsonl', 'sub']);
    const sub = JSON.parse((await request(server.base, '/sub/')).body);
    expect(sub.entries.map((e: { name: string }) => e.name)).toEqual(['in-link.jsonl']);
  });

  it('runs as `dsh-devtools serve-logs`, prints its URL, stops cleanly on SIGINT', async () => {
    const child = spawn(path.resolve('node_modules/.bin/tsx'), ['src/cli/main.ts', 'serve-logs', dir, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const base = await new Promise<string>((resolve) => child.stdout.setEncoding('utf8').once('data', (d: string) => resolve(d.trim())));
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect((await request(base, '/live.jsonl', { origin: 'http://localhost:4173' })).status).toBe(200);
    child.kill('SIGINT');
    expect(await new Promise((r) => child.on('exit', r))).toBe(0);
  }, 30_000);
});
