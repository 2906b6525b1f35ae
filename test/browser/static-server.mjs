// A minimal static file server for dist/, on loopback only: the browser
// tests load the built app exactly as a static host would serve it.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css',
  '.json': 'application/json', '.jsonl': 'application/x-ndjson', '.svg': 'image/svg+xml',
  '.png': 'image/png', '.map': 'application/json', '.webmanifest': 'application/manifest+json',
};

export function serveDir(root, { prefix = '/', extra = {} } = {}) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    // Extra files outside the app (e.g. a published log for `?url=`), with CORS like a CI artifact host.
    if (extra[url.pathname] !== undefined) {
      res.writeHead(200, { 'content-type': 'application/x-ndjson', 'access-control-allow-origin': '*' });
      res.end(extra[url.pathname]);
      return;
    }
    if (!url.pathname.startsWith(prefix)) { res.writeHead(404).end(); return; }
    let rel = decodeURIComponent(url.pathname.slice(prefix.length));
    if (rel === '' || rel.endsWith('/')) rel += 'index.html';
    const file = path.join(path.resolve(root), rel);
    if (!file.startsWith(path.resolve(root)) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({ url: `http://127.0.0.1:${port}${prefix}`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}
