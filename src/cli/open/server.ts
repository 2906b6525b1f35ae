// The local server behind `dsh-devtools open`: the built app and the named
// logs on 127.0.0.1, all under one random token path. A request without the
// token (another local user, a web page guessing ports) gets 403 and learns
// nothing; a Host other than the loopback address (DNS rebinding) is refused
// too. Every answer carries the app's Content-Security-Policy.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { CSP } from '../../csp.ts';
import type { LogTarget, ServedLog } from './logs.ts';
import { parseRange } from '../serve/resolve-path.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png', '.map': 'application/json',
  '.webmanifest': 'application/manifest+json', '.jsonl': 'application/x-ndjson',
};

const HEADERS = {
  'content-security-policy': CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  // A new port and token every run: nothing is worth caching, and logs must not be.
  'cache-control': 'no-store',
};

/**
 * Served in place of the app's offline service worker: the real one would keep
 * a copy of the app per port (a new origin every run) in the browser profile,
 * and this server is local anyway. This one registers (no error in the page)
 * and removes itself.
 */
const INERT_SERVICE_WORKER = "self.addEventListener('install', () => self.skipWaiting());\nself.addEventListener('activate', () => self.registration.unregister());\n";

export interface LogServer {
  /** `http://127.0.0.1:PORT/TOKEN/`: the app; everything served lives under it. */
  base: string;
  /** The URL the page fetches a log from (`rel` as in LogTarget.entries). */
  logUrl(rel: string): string;
  close(): Promise<void>;
}

export interface LogServerOptions {
  appDir: string;
  target: LogTarget;
  /** 0: a free port. */
  port: number;
}

export async function startLogServer({ appDir, target, port }: LogServerOptions): Promise<LogServer> {
  const token = crypto.randomBytes(24).toString('base64url');
  const tokenBytes = Buffer.from(token);
  const root = fs.realpathSync(appDir);
  let hosts: string[] = [];

  const server = http.createServer((req, res) => {
    const send = (status: number, body: string, extra: http.OutgoingHttpHeaders = {}) => {
      res.writeHead(status, { ...HEADERS, 'content-type': 'text/plain; charset=utf-8', ...extra }).end(req.method === 'HEAD' ? undefined : body + '\n');
    };
    const host = req.headers.host ?? '';
    if (!hosts.includes(host)) return send(403, 'forbidden');
    const pathname = (req.url ?? '/').split('?')[0];
    const [, first = '', ...rest] = pathname.split('/');
    const given = Buffer.from(first);
    if (given.length !== tokenBytes.length || !crypto.timingSafeEqual(given, tokenBytes)) return send(403, 'forbidden');
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed', { allow: 'GET, HEAD' });
    if (rest.length === 0) return send(308, 'moved', { location: `/${token}/` });
    let parts: string[];
    try {
      parts = rest.map((p) => decodeURIComponent(p));
    } catch {
      return send(400, 'bad path');
    }
    if (parts[0] === 'logs') {
      const log = target.lookup(parts.slice(1).join('/'));
      // A failure half-way through a log (the upstream of a URL dropping) ends that response only.
      return log ? void serveLog(log, req, res, send).catch(() => res.destroy()) : send(404, 'no such log');
    }
    if (parts.length === 1 && parts[0] === 'sw.js') {
      res.writeHead(200, { ...HEADERS, 'content-type': 'text/javascript; charset=utf-8' });
      return void res.end(req.method === 'HEAD' ? undefined : INERT_SERVICE_WORKER);
    }
    const rel = parts.join('/') || 'index.html';
    const file = path.join(root, rel);
    if (!file.startsWith(root + path.sep) || parts.some((p) => p === '..')) return send(404, 'not found');
    fs.stat(file, (err, stat) => {
      if (err || !stat.isFile()) return send(404, 'not found');
      res.writeHead(200, { ...HEADERS, 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'content-length': stat.size });
      if (req.method === 'HEAD') return void res.end();
      fs.createReadStream(file).on('error', () => res.destroy()).pipe(res);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      reject(err.code === 'EADDRINUSE' ? new Error(`port ${port} is in use; choose another with --port, or leave --port out for a free one`) : err);
    });
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the server has no port');
  hosts = [`127.0.0.1:${address.port}`, `localhost:${address.port}`];
  const base = `http://127.0.0.1:${address.port}/${token}/`;
  return {
    base,
    logUrl: (rel) => `${base}logs/${rel.split('/').map(encodeURIComponent).join('/')}`,
    close: () => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

type Send = (status: number, body: string, extra?: http.OutgoingHttpHeaders) => void;

/** A log as bytes, as stored (the app tells plain, zstd and gzip apart by content). */
async function serveLog(log: ServedLog, req: http.IncomingMessage, res: http.ServerResponse, send: Send): Promise<void> {
  const type = { 'content-type': 'application/octet-stream' };
  if (log.kind === 'file') {
    // The size now, and Range: a followed log grows while it is served (docs/follow.md).
    let size: number;
    try { size = fs.statSync(log.file).size; } catch { return send(404, 'the log is gone'); }
    const range = parseRange(req.headers.range, size);
    if (range === 'unsatisfiable') return send(416, 'range not satisfiable', { 'content-range': `bytes */${size}`, 'accept-ranges': 'bytes' });
    const { start, end } = range ?? { start: 0, end: size - 1 };
    res.writeHead(range ? 206 : 200, {
      ...HEADERS, ...type, 'accept-ranges': 'bytes', 'content-length': Math.max(0, end - start + 1),
      ...(range ? { 'content-range': `bytes ${start}-${end}/${size}` } : {}),
    });
    if (req.method === 'HEAD' || end < start) return void res.end();
    fs.createReadStream(log.file, { start, end }).on('error', () => res.destroy()).pipe(res);
    return;
  }
  let upstream: Response;
  try {
    upstream = await fetch(log.url, { redirect: 'follow' });
  } catch (err) {
    return send(502, `could not fetch ${log.url}: ${err instanceof Error ? (err.cause as Error | undefined)?.message ?? err.message : String(err)}`);
  }
  if (!upstream.ok || !upstream.body) return send(502, `${log.url} answered ${upstream.status} ${upstream.statusText}`);
  res.writeHead(200, { ...HEADERS, ...type });
  if (req.method === 'HEAD') { await upstream.body.cancel(); return void res.end(); }
  Readable.fromWeb(upstream.body as import('node:stream/web').ReadableStream).on('error', () => res.destroy()).pipe(res);
}
