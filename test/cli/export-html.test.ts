// `dsh-devtools export-html`: one HTML file with the app and the log, redacted
// unless --raw; the planted secrets are searched in the written bytes and in
// the log the file carries (base64 → gunzip).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { embeddedLogOfHtml, singleFileHtml } from '../../src/core/share/single-file.ts';
import { bundledCommand, cliBundle } from '../helpers/open-cli.ts';
import { logWithSecrets, PLANTED_TEXTS } from '../helpers/planted-secrets.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'export-html-'));
const app = path.join(dir, 'app');
const run = (args: string[], env: Record<string, string> = { DSH_DEVTOOLS_APP: app }) => {
  const [node, ...bundle] = bundledCommand();
  return spawnSync(node, [...bundle, 'export-html', ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
};
const carried = (html: string) => {
  const log = embeddedLogOfHtml(html)!;
  return { log, text: zlib.gunzipSync(Buffer.from(log.data, 'base64')).toString('utf8') };
};

beforeAll(async () => {
  await cliBundle();
  // A stand-in for the built dist/dsh-devtools.html: the same writer, small parts.
  fs.mkdirSync(app, { recursive: true });
  fs.writeFileSync(path.join(app, 'dsh-devtools.html'), await singleFileHtml({ css: 'body{}', script: 'console.log(1)', worker: 'self.onmessage=null' }, null));
  fs.writeFileSync(path.join(dir, 'secrets.jsonl'), logWithSecrets());
}, 60_000);

describe('dsh-devtools export-html', () => {
  it('writes the app and the redacted log, at the asked seq; no planted secret in the bytes or in the log it carries', () => {
    const out = path.join(dir, 'repro.html');
    const r = run([path.join(dir, 'secrets.jsonl'), '--out', out, '--at', '40']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^.*repro\.html: [\d.]+ KiB \(the app [\d.]+ KiB, the log [\d.]+ KiB gzipped to [\d.]+ KiB\); 6 secrets redacted\n$/);
    expect(r.stderr).toContain('redacted line 6: api key');
    const html = fs.readFileSync(out, 'utf8');
    const { log, text } = carried(html);
    expect(log).toMatchObject({ name: 'secrets.jsonl', view: 'cs=40', redacted: true, redactions: 6 });
    for (const secret of PLANTED_TEXTS) {
      expect(html).not.toContain(secret);
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('[REDACTED api key]');
  });

  it('--raw keeps the log as it is (and says so)', () => {
    const out = path.join(dir, 'raw.html');
    const r = run([path.join(dir, 'secrets.jsonl'), '--out', out, '--raw']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('not redacted (--raw)');
    const { log, text } = carried(fs.readFileSync(out, 'utf8'));
    expect(text).toBe(fs.readFileSync(path.join(dir, 'secrets.jsonl'), 'utf8'));
    expect(log).toMatchObject({ redacted: false, view: '' });
  });

  it('says when the built app is missing, and what a usage mistake is', () => {
    const missing = run([path.join(dir, 'secrets.jsonl'), '--out', path.join(dir, 'x.html')], { DSH_DEVTOOLS_APP: path.join(dir, 'nowhere') });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/the built single-file app is missing \(.*nowhere\/dsh-devtools\.html\); in a clone run `npm run build` first/);
    expect(run([path.join(dir, 'secrets.jsonl')]).status).toBe(2);
    expect(run([path.join(dir, 'secrets.jsonl'), '--out', 'x.html', '--at', 'ten']).stderr).toContain('--at needs a whole number');
    const none = run([path.join(dir, 'none.jsonl'), '--out', path.join(dir, 'y.html')]);
    expect(none.status).toBe(1);
    expect(none.stderr).toContain('none.jsonl: no such log file');
  });
});
