// The README's quick start as a newcomer runs it: `npm run dev` writes the demo
// logs and serves the app; the page, its entry module and the demo logs come
// back from the dev server, and each demo log reads cleanly with the core.
// (`npm install` is run by the terminal test; `npm test` is what CI runs.)
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { readLogText } from '../../src/core/log/reader.ts';

const readme = fs.readFileSync('README.md', 'utf8');

/** The quick start's shell lines, without their comments. */
function quickStart(): string[] {
  const start = readme.indexOf('\n## Quick start\n');
  expect(start).toBeGreaterThan(0);
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(start))!;
  return block[1].split('\n').map((l) => l.replace(/\s+#.*$/, '').trim()).filter(Boolean);
}

let dev: ChildProcess | null = null;
afterAll(() => { if (dev?.pid) try { process.kill(-dev.pid, 'SIGTERM'); } catch { /* already gone */ } });

/** Starts `npm run dev` on a free port and resolves with the URL the dev server prints. */
function startDev(): Promise<string> {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key === 'NODE_ENV' || key.startsWith('VITEST')) delete env[key];
  // Port 0 is not vite's; a port from this process's id keeps parallel runs apart.
  const port = String(20000 + (process.pid % 20000));
  dev = spawn('npm', ['run', 'dev', '--', '--port', port, '--strictPort', '--host', '127.0.0.1'], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`npm run dev printed no URL in 60 s:\n${out}`)), 60_000);
    const seen = (chunk: Buffer) => {
      out += chunk.toString();
      // eslint-disable-next-line no-control-regex
      const url = /Local:\s+(http:\/\/\S+)/.exec(out.replace(/\u001b\[[0-9;]*m/g, ''));
      if (url) { clearTimeout(timer); resolve(url[1]); }
    };
    dev!.stdout!.on('data', seen);
    dev!.stderr!.on('data', seen);
    dev!.on('exit', (code) => { clearTimeout(timer); reject(new Error(`npm run dev exited with ${code}:\n${out}`)); });
  });
}

describe('the README quick start', () => {
  it('names npm install && npm run dev, then npm test', () => {
    expect(quickStart()).toEqual(['npm install && npm run dev', 'npm test']);
  });

  it('npm run dev serves the app and its demo logs, which read cleanly', async () => {
    const url = await startDev();
    const page = await fetch(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<div id="root">');
    const entry = /<script type="module" src="([^"]+)"/.exec(html.replace(/<script type="module" src="\/@vite\/client"><\/script>/, ''));
    expect(entry).not.toBeNull();
    const module = await fetch(new URL(entry![1], url));
    expect(module.status).toBe(200);
    expect(await module.text()).toContain('createRoot');
    for (const name of ['demo-session.jsonl', 'demo-session-v4.jsonl', 'demo-session-subagent.jsonl']) {
      const log = await fetch(new URL(`demo/${name}`, url));
      expect(log.status, name).toBe(200);
      const read = readLogText(await log.text());
      expect(read.events.length, name).toBeGreaterThan(50);
      expect(read.diagnostics.filter((d) => d.severity === 'error'), name).toEqual([]);
    }
  }, 120_000);
});
