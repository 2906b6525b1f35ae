// `dsh-devtools open` on generated logs: the printed URL serves the app and
// the log, only to its token, with the app's CSP, and the command stops
// cleanly. The app is a real build (into a temporary folder).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { CSP } from '../../src/csp.ts';
import { builtApp, bundledCommand, openSuite, withWrongToken } from '../helpers/open-cli.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-open-'));
const logText = generateLog({ dialect: 'v4', seed: 3, turns: 2 }).text;
const logFile = path.join(dir, 'session one.jsonl');
fs.writeFileSync(logFile, logText);
const open = openSuite();

/** A GET with any Host header (fetch will not send a forged one). */
function rawGet(url: URL, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http.get({ host: url.hostname, port: url.port, path: url.pathname, headers: { host } }, (res) => { res.resume(); resolve(res.statusCode ?? 0); }).on('error', reject);
  });
}

describe('dsh-devtools open', () => {
  it('serves the app and the log under a token, with the CSP; a wrong token, no token or a foreign Host gets 403; SIGTERM stops it', async () => {
    const run = await open([logFile, '--no-browser', '--at', '5']);
    expect(run.url.hostname).toBe('127.0.0.1');
    expect(run.url.pathname).toMatch(/^\/[\w-]{32}\/$/);
    expect(run.url.hash).toBe('#cs=5');
    expect(run.logUrl.origin).toBe(run.url.origin);
    expect(run.logUrl.pathname).toBe(`${run.url.pathname}logs/session%20one.jsonl`);

    const page = await fetch(run.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(CSP);
    const html = await page.text();
    expect(html).toContain('<div id="root"></div>');
    // The header and the built page's own meta policy are one and the same.
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${CSP}" />`);
    const script = html.match(/src="\.\/(assets\/index-[^"]+\.js)"/)![1];
    expect((await fetch(new URL(script, run.url))).status).toBe(200);

    const log = await fetch(run.logUrl);
    expect(log.status).toBe(200);
    expect(log.headers.get('cache-control')).toBe('no-store');
    expect(await log.text()).toBe(logText);

    for (const url of [withWrongToken(run.url), withWrongToken(run.logUrl), new URL('/', run.url), new URL('/logs/session%20one.jsonl', run.url)]) {
      const res = await fetch(url);
      expect(res.status, url.pathname).toBe(403);
      expect(await res.text()).not.toContain('jsonl');
    }
    expect(await rawGet(run.logUrl, `127.0.0.1:${run.url.port}`)).toBe(200);
    expect(await rawGet(run.logUrl, `attacker.example:${run.url.port}`)).toBe(403);
    expect((await fetch(run.logUrl, { method: 'POST', body: 'x' })).status).toBe(405);
    expect((await fetch(new URL('logs/other.jsonl', run.url))).status).toBe(404);

    const stopped = await run.stop('SIGTERM');
    expect(stopped.code).toBe(0);
    expect(stopped.stderr).toMatch(/open: stopped \(SIGTERM\)/);
    await expect(fetch(run.url)).rejects.toThrow();
  }, 60_000);

  it('stops on Ctrl-C (SIGINT) with exit 0', async () => {
    const run = await open([logFile, '--no-browser']);
    expect((await fetch(run.logUrl)).status).toBe(200);
    expect((await run.stop('SIGINT')).code).toBe(0);
  }, 30_000);

  it('starts the browser ($BROWSER here) on the URL it prints', async () => {
    const seen = path.join(dir, 'browser-saw.txt');
    const browser = path.join(dir, 'fake-browser.mjs');
    fs.writeFileSync(browser, `#!/usr/bin/env node\nimport fs from 'node:fs';\nconst r = await fetch(process.argv[2]);\nfs.writeFileSync(${JSON.stringify(seen)}, process.argv[2] + '\\n' + r.status);\n`, { mode: 0o755 });
    const run = await open([logFile], { env: { BROWSER: browser } });
    for (let i = 0; i < 100 && !fs.existsSync(seen); i++) await new Promise((r) => setTimeout(r, 100));
    expect(fs.readFileSync(seen, 'utf8')).toBe(`${run.url.href}\n200`);
    expect((await run.stop()).stderr).not.toContain('could not start a browser');
  }, 30_000);

  it('says so when no browser can be started, and keeps serving', async () => {
    const run = await open([logFile], { env: { BROWSER: path.join(dir, 'no-such-browser') } });
    expect(await run.stderrWith('open: could not start a browser (')).toContain(`${path.join(dir, 'no-such-browser')}: not found); open the URL above yourself`);
    expect((await fetch(run.logUrl)).status).toBe(200);
    await run.stop();
  }, 30_000);

  it('serves a folder of logs read-only: the newest opens, the others are listed, nothing else is served', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-folder-'));
    const older = path.join(root, 'older.jsonl');
    fs.writeFileSync(older, logText);
    fs.utimesSync(older, new Date(2020, 0, 1), new Date(2020, 0, 1));
    fs.mkdirSync(path.join(root, '--proj--', 'sess-1'), { recursive: true });
    fs.writeFileSync(path.join(root, '--proj--', 'sess-1', 'session.jsonl'), logText);
    fs.writeFileSync(path.join(root, 'notes.txt'), 'not a log');
    fs.writeFileSync(path.join(dir, 'outside.jsonl'), 'outside');
    fs.symlinkSync(path.join(dir, 'outside.jsonl'), path.join(root, 'escape.jsonl'));

    const run = await open([root, '--no-browser']);
    expect(run.logUrl.pathname.endsWith('/logs/--proj--/sess-1/session.jsonl')).toBe(true);
    expect(await (await fetch(run.logUrl)).text()).toBe(logText);
    const listed = (await run.stderrWith('  older.jsonl  ')).split('\n').find((l) => l.trim().startsWith('older.jsonl'))!;
    const olderPage = new URL(listed.trim().split(/\s+/)[1]);
    expect(await (await fetch(olderPage.searchParams.get('url')!)).text()).toBe(logText);
    for (const rel of ['notes.txt', 'escape.jsonl', '--proj--/..%2F..%2Foutside.jsonl', '..%2Foutside.jsonl', 'nope.jsonl']) {
      expect((await fetch(new URL(`logs/${rel}`, run.url))).status, rel).toBe(404);
    }
    // The symlink out of the folder is neither listed nor served.
    expect(run.stderr()).toContain(`open: serving 2 logs of ${root} on 127.0.0.1:`);
    expect(run.stderr()).not.toContain('escape.jsonl');
    await run.stop();
  }, 30_000);

  it('a folder\'s newest session opens at its highest generation; its older generations are listed as such', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-folder-'));
    const session = path.join(root, '--proj--', 'sess-1');
    fs.mkdirSync(session, { recursive: true });
    for (const [name, year] of [['session.jsonl', 2024], ['session.v4.jsonl', 2023]] as const) {
      fs.writeFileSync(path.join(session, name), logText);
      fs.utimesSync(path.join(session, name), new Date(year, 0, 1), new Date(year, 0, 1));
    }
    fs.writeFileSync(path.join(session, 'session.v4.jsonl.tmp'), logText);
    const run = await open([root, '--no-browser']);
    expect(run.logUrl.pathname.endsWith('/logs/--proj--/sess-1/session.v4.jsonl')).toBe(true);
    const stderr = await run.stderrWith('(older generation');
    expect(stderr).toContain('open: opened the newest, --proj--/sess-1/session.v4.jsonl; the others:');
    expect(stderr).toMatch(/^ {2}--proj--\/sess-1\/session\.jsonl {2}\S+ {2}\(older generation, immutable; DSH reads --proj--\/sess-1\/session\.v4\.jsonl\)$/m);
    expect(stderr).not.toContain('.tmp');
    await run.stop();
  }, 30_000);

  it('fetches a log URL for the page (the host needs no CORS)', async () => {
    const host = http.createServer((req, res) => {
      if (req.url === '/ci/artifacts/run.jsonl') res.writeHead(200, { 'content-type': 'application/x-ndjson' }).end(logText);
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => host.listen(0, '127.0.0.1', r));
    const { port } = host.address() as { port: number };
    try {
      const run = await open([`http://127.0.0.1:${port}/ci/artifacts/run.jsonl`, '--no-browser']);
      expect(run.logUrl.origin).toBe(run.url.origin);
      expect(run.logUrl.pathname.endsWith('/logs/run.jsonl')).toBe(true);
      expect(await (await fetch(run.logUrl)).text()).toBe(logText);
      expect((await fetch(withWrongToken(run.logUrl))).status).toBe(403);
      await run.stop();
      const gone = await open([`http://127.0.0.1:${port}/ci/artifacts/missing.jsonl`, '--no-browser']);
      const res = await fetch(gone.logUrl);
      expect(res.status).toBe(502);
      expect(await res.text()).toContain('answered 404');
      await gone.stop();
    } finally {
      host.close();
    }
  }, 30_000);

  it('--follow opens the page following the log, which is served by Range at its size now', async () => {
    const growing = path.join(dir, 'growing.jsonl');
    fs.writeFileSync(growing, logText);
    const run = await open([growing, '--no-browser', '--follow']);
    expect(run.url.searchParams.get('follow')).toBe('1');
    fs.appendFileSync(growing, '{"seq":');
    const size = Buffer.byteLength(logText);
    const tail = await fetch(run.logUrl, { headers: { range: `bytes=${size}-` } });
    expect(tail.status).toBe(206);
    expect(tail.headers.get('content-range')).toBe(`bytes ${size}-${size + 6}/${size + 7}`);
    expect(await tail.text()).toBe('{"seq":');
    const past = await fetch(run.logUrl, { headers: { range: `bytes=${size + 7}-` } });
    expect(past.status).toBe(416);
    expect(await (await fetch(run.logUrl)).text()).toBe(logText + '{"seq":');
    await run.stop();
  }, 30_000);

  it('usage mistakes exit 2, unreadable input and a missing build exit 1, each with one line', () => {
    const cases: Array<[string[], number, RegExp, NodeJS.ProcessEnv?]> = [
      [['open'], 2, /^open: give one log, folder or URL; usage: dsh-devtools open /],
      [['open', logFile, '--port', 'abc'], 2, /^open: --port needs a whole number/],
      [['open', logFile, '--at', '-3'], 2, /^open: /],
      [['open', logFile, '--bogus'], 2, /^open: Unknown option '--bogus'; usage: /],
      [['open', path.join(dir, 'missing.jsonl')], 1, /^open: cannot read .*missing\.jsonl$/],
      [['open', 'ftp://example.com/x.jsonl'], 1, /^open: ftp:\/\/example\.com\/x\.jsonl: only http\(s\) URLs can be opened$/],
      [['open', fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-empty-'))], 1, /^open: no logs in /],
      [['open', logFile, '--no-browser'], 1, /^open: the built app is missing \(.*index\.html\); in a clone run `npm run build` first$/, { DSH_DEVTOOLS_APP: dir }],
    ];
    for (const [args, status, message, env] of cases) {
      const run = spawnSync(bundledCommand()[0], [...bundledCommand().slice(1), ...args], { encoding: 'utf8', env: { ...process.env, DSH_DEVTOOLS_APP: builtApp(), ...env } });
      expect(run.status, args.join(' ')).toBe(status);
      expect(run.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(run.stderr.trim()).toMatch(message);
    }
  }, 60_000);

  it('a port in use is one line and exit 1', async () => {
    const run = await open([logFile, '--no-browser']);
    const clash = spawnSync(bundledCommand()[0], [...bundledCommand().slice(1), 'open', logFile, '--no-browser', '--port', run.url.port], { encoding: 'utf8', env: { ...process.env, DSH_DEVTOOLS_APP: builtApp() } });
    expect(clash.status).toBe(1);
    expect(clash.stderr.trim()).toBe(`open: port ${run.url.port} is in use; choose another with --port, or leave --port out for a free one`);
    await run.stop();
  }, 30_000);
});
