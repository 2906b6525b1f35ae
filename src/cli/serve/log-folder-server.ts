// `serve-logs`: a folder of logs served read-only on 127.0.0.1 for the app's
// `?url=…&follow=1` on a browser without the File System Access API
// (docs/follow.md). Range requests (the follower reads only new bytes), CORS for the
// app's origins only, no path out of the folder, nothing but GET/HEAD.
import fs from 'node:fs';
import http from 'node:http';
import { listFolder, parseRange, resolveInside } from './resolve-path.ts';

export interface FolderServer {
  /** `http://127.0.0.1:PORT/` */
  base: string;
  close(): Promise<void>;
}

export interface FolderServerOptions {
  dir: string;
  /** 0: a free port. */
  port: number;
  /** Origins allowed to read the logs (the app's); a request from any other origin is refused. */
  origins: readonly string[];
}

const HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  // A log grows: never answer from a cache.
  'cache-control': 'no-store',
};

export async function startFolderServer({ dir, port, origins }: FolderServerOptions): Promise<FolderServer> {
  const root = fs.realpathSync(dir);
  if (!fs.statSync(root).isDirectory()) throw new Error(`${dir} is not a folder`);
  let hosts: string[] = [];
  const server = http.createServer((req, res) => {
    const origin = req.headers.origin;
    const cors: http.OutgoingHttpHeaders = origin && origins.includes(origin)
      ? { 'access-control-allow-origin': origin, vary: 'Origin', 'access-control-expose-headers': 'Content-Range, Content-Length, Accept-Ranges' }
      : {};
    const send = (status: number, body: string, extra: http.OutgoingHttpHeaders = {}) => {
      res.writeHead(status, { ...HEADERS, ...cors, 'content-type': 'text/plain; charset=utf-8', ...extra }).end(req.method === 'HEAD' ? undefined : body + '\n');
    };
    // Another Host (DNS rebinding) or a page of another origin gets nothing.
    if (!hosts.includes(req.headers.host ?? '')) return send(403, 'forbidden host');
    if (origin !== undefined && !origins.includes(origin)) return send(403, `origin ${origin} is not allowed (serve-logs --origin)`);
    if (req.method === 'OPTIONS') {
      return send(204, '', { 'access-control-allow-methods': 'GET, HEAD', 'access-control-allow-headers': 'Range', 'access-control-max-age': '600' });
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'read-only: GET and HEAD only', { allow: 'GET, HEAD, OPTIONS' });
    const found = resolveInside(root, (req.url ?? '/').split('?')[0]);
    if (!found.ok) return send(found.status, found.reason);
    if (found.stat.isDirectory()) {
      return send(200, JSON.stringify({ entries: listFolder(root, found.file) }), { 'content-type': 'application/json' });
    }
    if (!found.stat.isFile()) return send(404, 'not found');
    const size = found.stat.size;
    const range = parseRange(req.headers.range, size);
    if (range === 'unsatisfiable') return send(416, 'range not satisfiable', { 'content-range': `bytes */${size}`, 'accept-ranges': 'bytes' });
    const { start, end } = range ?? { start: 0, end: size - 1 };
    const length = Math.max(0, end - start + 1);
    res.writeHead(range ? 206 : 200, {
      ...HEADERS, ...cors, 'content-type': 'application/octet-stream', 'accept-ranges': 'bytes', 'content-length': length,
      ...(range ? { 'content-range': `bytes ${start}-${end}/${size}` } : {}),
    });
    if (req.method === 'HEAD' || length === 0) return void res.end();
    fs.createReadStream(found.file, { start, end }).on('error', () => res.destroy()).pipe(res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => reject(err.code === 'EADDRINUSE' ? new Error(`port ${port} is in use; choose another with --port`) : err));
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the server has no port');
  hosts = [`127.0.0.1:${address.port}`, `localhost:${address.port}`];
  return {
    base: `http://127.0.0.1:${address.port}/`,
    close: () => new Promise((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }),
  };
}
