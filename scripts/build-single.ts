// `npm run build:single` (part of `npm run build`, after `vite build`):
// dist/dsh-devtools.html, the whole app as one file that opens from file://
// (src/core/share/single-file.ts). The app is built again without code
// splitting (its lazy panels inlined), since a page opened from file:// can
// load no other file; the worker stays one chunk and travels as text.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { singleFileHtml } from '../src/core/share/single-file.ts';

const out = path.resolve('dist', 'dsh-devtools.html');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-single-'));
try {
  await build({
    configFile: path.resolve('vite.config.ts'),
    logLevel: 'warn',
    publicDir: false,
    build: { outDir: tmp, emptyOutDir: true, sourcemap: false, modulePreload: false, rolldownOptions: { output: { codeSplitting: false } } },
  });
  const assets = path.join(tmp, 'assets');
  const files = fs.readdirSync(assets);
  const one = (test: (f: string) => boolean, what: string) => {
    const found = files.filter(test);
    if (found.length !== 1) throw new Error(`the single-file build made ${found.length} ${what} (${found.join(', ')}); expected one`);
    return fs.readFileSync(path.join(assets, found[0]), 'utf8');
  };
  // The folder worker is not shipped: the single-file app's folder pool runs copies of the load worker.
  const script = one((f) => f.endsWith('.js') && !f.startsWith('load.worker') && !f.startsWith('folder.worker'), 'app scripts');
  const worker = one((f) => f.startsWith('load.worker') && f.endsWith('.js'), 'worker scripts');
  const css = one((f) => f.endsWith('.css'), 'stylesheets');
  // A static import would need another file, which a page opened from file:// cannot load.
  if (/(?:^|[;}])\s*(?:import\s*[{*]|import\s+\w)/.test(script) || /\bimport\s*\(/.test(script)) throw new Error('the single-file app script still imports another file');
  // The worker starts as a classic script from a Blob URL (src/worker/inline-worker.ts): no module syntax.
  // (A keyword, then a brace, a star, a bracket or a space: a method named importHistory is not an import.)
  if (/(?:^|[;}])\s*(?:import\s*[{*(]|import\s+\w|export\s*[{*]|export\s+\w)|\bimport\.meta\b/.test(worker)) throw new Error('the worker bundle uses module syntax; it cannot start as a classic worker');
  const html = await singleFileHtml({ css, script, worker }, null);
  fs.writeFileSync(out, html);
  console.log(`dist/dsh-devtools.html: ${(Buffer.byteLength(html) / 1024).toFixed(0)} KiB (the app as one file)`);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
