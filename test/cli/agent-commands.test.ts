// The commands an agent drives (calls, around, find, state, request) and the
// trace export, run as the package runs them: answers checked against the
// core's own results for the same log, and every bound held.
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRun } from '../../src/core/compare/run.ts';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { inspect } from '../../src/core/inspect.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { providerRequest } from '../../src/core/requests/wire.ts';
import { bundledCommand, cliBundle } from '../helpers/open-cli.ts';
import { throughProtobuf } from '../helpers/otlp-proto.ts';
import { logWithSecrets, PLANTED_TEXTS } from '../helpers/planted-secrets.ts';

const run = (...args: string[]) => { const [node, ...bundle] = bundledCommand(); return spawnSync(node, [...bundle, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 }); };
const runAsync = (args: string[], env: NodeJS.ProcessEnv = process.env) => { const [node, ...bundle] = bundledCommand(); return promisify(execFile)(node, [...bundle, ...args], { encoding: 'utf8', env, maxBuffer: 64 << 20 }); };

let dir: string;
let log: string;
let text: string;
beforeAll(async () => {
  await cliBundle();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-agent-'));
  log = path.join(dir, 'session.jsonl');
  text = generateLog({ dialect: 'v4', seed: 21, turns: 6, compactEvery: 3 }).text;
  fs.writeFileSync(log, text);
}, 60_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

describe('the agent commands', () => {
  it('calls --json: a line per model call, as the request analysis has them; --max-bytes cuts with a line that says where to go on', () => {
    const calls = loadRun(readLogText(text), 'session.jsonl').run.requests;
    const all = run('calls', log, '--json', '--max-bytes', '0');
    expect(all.status).toBe(0);
    const lines = all.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(calls.length);
    lines.forEach((l, i) => {
      expect(l.call).toBe(i + 1);
      expect(l.seq).toBe(calls[i].cut);
      expect(l.turnStep).toBe(`${calls[i].turn}.${calls[i].step}`);
      expect(l.inputTokens).toBe(calls[i].usage?.inputTokens ?? null);
      expect(l.cacheBreak).toEqual(calls[i].prefix.previous === null || calls[i].prefix.extendsPrevious ? null : calls[i].prefix.reasons);
    });
    expect(lines.some((l) => l.cacheBreak?.includes('compaction'))).toBe(true);
    const cut = run('calls', log, '--json', '--max-bytes', '900');
    expect(bytes(cut.stdout)).toBeLessThanOrEqual(900);
    const shown = cut.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    const tail = shown.pop();
    expect(tail).toEqual({ truncated: true, shown: shown.length, total: calls.length, next: `--from ${shown.length + 1}` });
    const rest = run('calls', log, '--json', '--from', String(shown.length + 1), '--max-bytes', '0').stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect([...shown, ...rest]).toEqual(lines);
    expect(run('calls', log).status).toBe(2);
  });

  it('around --seq: the events either side, the one asked for marked, previews bounded', () => {
    const read = readLogText(text);
    const seq = read.events[40].seq;
    const out = JSON.parse(run('around', log, '--seq', String(seq), '--before', '3', '--after', '2', '--preview', '30', '--json').stdout);
    expect(out.events.map((e: { seq: number }) => e.seq)).toEqual(read.events.slice(37, 43).map((e) => e.seq));
    expect(out.events.filter((e: { at?: true }) => e.at).map((e: { seq: number }) => e.seq)).toEqual([seq]);
    for (const e of out.events) expect(e.preview.length).toBeLessThanOrEqual(30);
    const small = run('around', log, '--seq', String(seq), '--before', '50', '--after', '50', '--json', '--max-bytes', '1500');
    expect(bytes(small.stdout)).toBeLessThanOrEqual(1500);
    // 40 events before it and 50 after: 91 in the window, cut to what fits.
    expect(JSON.parse(small.stdout).truncated[0]).toMatchObject({ path: 'events', of: 91 });
  });

  it("find: the app's search language, every match counted, the text around the word", () => {
    const read = readLogText(text);
    const out = JSON.parse(run('find', log, 'type:tool/call', '--json', '--limit', '3').stdout);
    expect(out.total).toBe(read.events.filter((e) => e.type === 'tool/call').length);
    expect(out.matches).toHaveLength(3);
    const word = read.events.find((e) => e.type === 'user/message')!.data.content[0].text.split(/\s+/)[1].toLowerCase();
    const found = JSON.parse(run('find', log, `role:user ${word}`, '--json').stdout);
    expect(found.total).toBeGreaterThan(0);
    for (const m of found.matches) expect(m.context.toLowerCase()).toContain(word);
  });

  it('state --at: the surface, projections and prompt the core gives at that seq, within --max-bytes', () => {
    const read = readLogText(text);
    const at = read.events[Math.floor(read.events.length / 2)].seq;
    const expected = inspect(read, { at });
    const out = JSON.parse(run('state', log, '--at', String(at), '--json', '--max-bytes', '0').stdout);
    expect(out.asOfSeq).toBe(at);
    expect(out.surface.ids).toEqual(expected.surface.nodes);
    expect(Object.keys(out.projections)).toEqual(Object.keys(expected.projections));
    for (const [k, p] of Object.entries(expected.projections)) expect(out.projections[k]).toMatchObject({ observedSeq: p.observedSeq, value: p.value });
    expect(out.systemPrompt.text).toBe(expected.systemPrompt.text);
    const small = run('state', log, '--at', String(at), '--json', '--max-bytes', '2600');
    expect(bytes(small.stdout)).toBeLessThanOrEqual(2601);
    expect(JSON.parse(small.stdout).truncated.map((c: { path: string }) => c.path)).toContain('systemPrompt.text');
    // A bound nothing can meet says so, in JSON.
    const none = run('state', log, '--at', String(at), '--json', '--max-bytes', '100').stdout;
    expect(JSON.parse(none)).toEqual({ truncated: true, error: 'does not fit --max-bytes 100' });
    expect(bytes(none)).toBeLessThanOrEqual(100);
  });

  it('request --call: the DeepSeek body; --curl sends exactly it, the key from the environment, to a local server', async () => {
    const calls = loadRun(readLogText(text), 'session.jsonl').run.requests;
    const body = JSON.parse(run('request', log, '--call', '3').stdout);
    expect(body).toEqual(providerRequest(calls[2]).body);
    expect(body.messages[0].role).toBe('system');
    expect(run('request', log, '--call', String(calls.length + 1)).status).toBe(1);
    const curl = run('request', log, '--call', '3', '--curl').stdout;
    expect(curl).not.toMatch(/Bearer (?!\$\{DEEPSEEK_API_KEY\})/);
    const got: { url?: string; headers?: http.IncomingHttpHeaders; body?: string } = {};
    const server = http.createServer((req, res) => {
      let b = '';
      req.on('data', (c) => (b += c));
      req.on('end', () => { Object.assign(got, { url: req.url, headers: req.headers, body: b }); res.end('data: [DONE]\n\n'); });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as { port: number }).port;
      await promisify(execFile)('bash', ['-c', curl], { env: { ...process.env, DEEPSEEK_BASE_URL: `http://127.0.0.1:${port}`, DEEPSEEK_API_KEY: 'sk-test-from-env' } });
    } finally {
      server.close();
    }
    expect(got.url).toBe('/chat/completions');
    expect(got.headers?.authorization).toBe('Bearer sk-test-from-env');
    expect(got.headers?.['x-deepseek-harness-session-id']).toBe(readLogText(text).header!.id);
    expect(JSON.parse(got.body!)).toEqual(body);
  });
});

describe('export-otlp', () => {
  it('--out writes OTLP/JSON lines that pass through the protobuf schema; secrets stay out unless --raw', () => {
    const secretLog = path.join(dir, 'secrets.jsonl');
    fs.writeFileSync(secretLog, logWithSecrets());
    const out = path.join(dir, 'trace.jsonl');
    const r = run('export-otlp', secretLog, '--out', out, '--content');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^trace [0-9a-f]{32}: \d+ spans/);
    const file = fs.readFileSync(out, 'utf8');
    for (const line of file.trimEnd().split('\n')) expect(throughProtobuf(JSON.parse(line)).back).toEqual(JSON.parse(line));
    for (const s of PLANTED_TEXTS) expect(file).not.toContain(s);
    expect(run('export-otlp', secretLog, '--out', out, '--content', '--raw').status).toBe(0);
    const raw = fs.readFileSync(out, 'utf8');
    for (const s of PLANTED_TEXTS) expect(raw).toContain(s);
    expect(run('export-otlp', secretLog, '--raw', '--out', out).status).toBe(2);
    expect(run('export-otlp', secretLog).status).toBe(2);
  });

  it('--endpoint POSTs each request as OTLP/HTTP JSON to a collector, with the headers asked for', async () => {
    const received: { path: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
    const server = http.createServer((req, res) => {
      let b = '';
      req.on('data', (c) => (b += c));
      req.on('end', () => {
        received.push({ path: req.url ?? '', headers: req.headers, body: b });
        res.setHeader('content-type', 'application/json');
        res.end('{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as { port: number }).port;
      const file = path.join(dir, 'file.jsonl');
      expect(run('export-otlp', log, '--out', file).status).toBe(0);
      const r = await runAsync(['export-otlp', log, '--endpoint', `http://127.0.0.1:${port}/v1/traces`, '--header', 'authorization=Bearer collector-token', '--header', 'x-tenant=dev']);
      expect(r.stderr).toMatch(/→ http:\/\/127\.0\.0\.1:\d+\/v1\/traces in \d+ request/);
      const lines = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
      expect(received.map((q) => q.body)).toEqual(lines);
      for (const q of received) {
        expect(q.path).toBe('/v1/traces');
        expect(q.headers['content-type']).toBe('application/json');
        expect(q.headers.authorization).toBe('Bearer collector-token');
        expect(q.headers['x-tenant']).toBe('dev');
        expect(throughProtobuf(JSON.parse(q.body)).back).toEqual(JSON.parse(q.body));
      }
    } finally {
      server.close();
    }
  });
});
