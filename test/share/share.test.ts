// Sharing a log without a server (issue #22): redaction of a whole log, the
// gzip it travels as, the link fragment and the single-file app.
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { zstdRawFrame } from '../../src/core/fuzz/encode.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { foldSession } from '../../src/core/session/fold-session.ts';
import { fromBase64, toBase64 } from '../../src/core/share/base64.ts';
import { DEFAULT_LINK_LIMIT, logFragment, readLogFragment, shareableView } from '../../src/core/share/fragment.ts';
import { packLog, unpackLog } from '../../src/core/share/pack-log.ts';
import { redactLogText } from '../../src/core/share/redact-log.ts';
import { appPartsFromHtml, embeddedLogOfHtml, singleFileHtml } from '../../src/core/share/single-file.ts';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { logWithSecrets, PLANTED_TEXTS } from '../helpers/planted-secrets.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();

describe('base64 and base64url', () => {
  it('agree with Node for every length around the padding boundaries, both ways', () => {
    for (let n = 0; n < 70; n++) {
      const bytes = crypto.randomBytes(n);
      expect(toBase64(bytes)).toBe(bytes.toString('base64'));
      expect(toBase64(bytes, true)).toBe(bytes.toString('base64url'));
      expect([...fromBase64(bytes.toString('base64'))]).toEqual([...bytes]);
      expect([...fromBase64(bytes.toString('base64url'), true)]).toEqual([...bytes]);
    }
  });
  it('refuses a character outside the alphabet, and a length no encoding has, saying where', () => {
    expect(() => fromBase64('ab%d', true)).toThrow(/character "%" at 2 is not base64url/);
    expect(() => fromBase64('ab+d', true)).toThrow(/not base64url/);
    expect(() => fromBase64('abcde', true)).toThrow(/5 characters cannot be base64/);
  });
});

describe('redacting a whole log', () => {
  const text = logWithSecrets();
  const r = redactLogText(text);

  it('removes the planted API key, bearer token and private key, and says what it replaced where', () => {
    for (const secret of PLANTED_TEXTS) {
      expect(text).toContain(secret);
      expect(r.text).not.toContain(secret);
    }
    expect(r.count).toBe(r.hits.length);
    expect(new Set(r.hits.map((h) => h.what))).toEqual(new Set(['api key', 'bearer token', 'private key']));
  });

  it('keeps the log the same log: every line still JSON, lines without secrets byte for byte, the same events and surface', () => {
    const before = text.split('\n');
    const after = r.text.split('\n');
    expect(after.length).toBe(before.length);
    for (let i = 0; i < before.length; i++) {
      if (before[i] && after[i]) expect(() => JSON.parse(after[i])).not.toThrow();
      if (!PLANTED_TEXTS.some((s) => before[i].includes(s))) expect(after[i]).toBe(before[i]);
    }
    const a = foldSession(readLogText(text));
    const b = foldSession(readLogText(r.text));
    expect(b.events.map((e) => `${e.seq}:${e.type}`)).toEqual(a.events.map((e) => `${e.seq}:${e.type}`));
    expect(b.surface.nodes).toEqual(a.surface.nodes);
    expect(b.diagnostics.map((d) => d.code)).toEqual(a.diagnostics.map((d) => d.code));
  });

  it('masks a secret the model streamed in pieces: chunk rows, packed members and a message\'s inline stream', () => {
    const key = 'sk-proj-PLANTEDk3y0123456789abcdefXYZ';
    const pieces = ['My key is sk-pr', 'oj-PLAN', 'TEDk3y01234', '56789abcdefXYZ. Done'];
    const chunk = (seq: number, text: string) => JSON.stringify({ type: 'assistant/chunk', seq, time: seq, data: { turn: 1, step: 1, chunk: { type: 'text-delta', index: 0, text } } });
    const rows = [
      chunk(1, pieces[0]),
      JSON.stringify({ type: 'text-chunks', seq0: 2, time0: 2, data: { turn: 1, step: 1, index: 0, dt: [0], texts: pieces.slice(1, 3) } }),
      chunk(4, pieces[3]),
      JSON.stringify({ type: 'assistant/message', seq: 5, time: 5, data: { turn: 1, step: 1, message: { role: 'assistant', content: [{ type: 'text', text: pieces.join('') }] }, stream: [{ type: 'text-chunks', index: 0, dt: [0, 0, 0], texts: pieces }] } }),
      '{"type":"turn/end","seq":6}',
    ];
    const out = redactLogText(rows.join('\n'));
    const [a, b, c, d, e] = out.text.split('\n').map((l) => JSON.parse(l));
    const masked = `My key is ${'*'.repeat(key.length)}. Done`;
    expect([a.data.chunk.text, ...b.data.texts, c.data.chunk.text].join('')).toBe(masked);
    expect(b.data.texts.map((t: string) => t.length)).toEqual([pieces[1].length, pieces[2].length]);
    expect(d.data.stream[0].texts.join('')).toBe(masked);
    expect(d.data.message.content[0].text).toBe('My key is [REDACTED api key]. Done');
    expect(out.text).not.toMatch(/PLAN|TEDk3y|56789abc/);
    expect(out.hits).toEqual([{ line: 1, what: 'api key (streamed)' }, { line: 4, what: 'api key (streamed)' }, { line: 4, what: 'api key' }]);
    expect(e).toEqual({ type: 'turn/end', seq: 6 });
  });

  it('replaces the value of a field named like a secret whole, and leaves numbers and short values alone', () => {
    const line = '{"type":"x","seq":1,"data":{"api_key":"abc\\"defghij","input_token":12345678,"token":"short","note":"password=hunter2hunter2"}}';
    const out = redactLogText(line);
    expect(JSON.parse(out.text).data).toEqual({ api_key: '[REDACTED]', input_token: 12345678, token: 'short', note: 'password=[REDACTED]' });
    expect(out.count).toBe(2);
    expect(redactLogText('{"a":1}\n{"b":"plain text"}')).toEqual({ text: '{"a":1}\n{"b":"plain text"}', count: 0, hits: [] });
  });
});

describe('packing a log (redacted gzip)', () => {
  it('gzips the redacted text; unpacking gives it back; zstd and gzip logs pack as their text', async () => {
    const text = logWithSecrets();
    const packed = await packLog([enc.encode(text)], { redact: true });
    const plain = dec.decode(await unpackLog(packed.gzip));
    expect(plain).toBe(redactLogText(text).text);
    expect(packed.plainBytes).toBe(enc.encode(plain).length);
    expect(packed.redactions).toBe(redactLogText(text).count);
    expect(zlib.gunzipSync(packed.gzip).toString('utf8')).toBe(plain);
    const raw = await packLog([enc.encode(text)], { redact: false });
    expect(dec.decode(await unpackLog(raw.gzip))).toBe(text);
    expect(raw).toMatchObject({ redacted: false, redactions: 0 });
    const fromZstd = await packLog([zstdRawFrame(enc.encode(text))], { redact: false });
    expect(dec.decode(await unpackLog(fromZstd.gzip))).toBe(text);
    const fromGzip = await packLog([zlib.gzipSync(text)], { redact: true });
    expect(dec.decode(await unpackLog(fromGzip.gzip))).toBe(plain);
  });

  it('a torn or corrupt gzip is an error, not a shorter log', async () => {
    const { gzip } = await packLog([enc.encode(generateLog({ dialect: 'v4', seed: 2, turns: 2 }).text)], { redact: false });
    await expect(unpackLog(gzip.subarray(0, gzip.length - 20))).rejects.toThrow(/gzip/);
    const corrupt = gzip.slice();
    for (let i = 20; i < 60; i++) corrupt[i] ^= 0x5a;
    await expect(unpackLog(corrupt)).rejects.toThrow(/gzip/);
  });
});

describe('a log inside a link fragment', () => {
  const view = 'log=a.jsonl&h=1-2&c=12&tab=requests&cmp=1';
  const small = async () => ({ name: 'small.jsonl', ...(await packLog([enc.encode(generateLog({ dialect: 'v4', seed: 1, turns: 2 }).text)], { redact: true })) });

  it('round-trips the log and the view, without another log\'s name, fingerprint or compare partner', async () => {
    const log = await small();
    const made = logFragment(view, log);
    expect(made.ok).toBe(true);
    if (!made.ok) return;
    expect(made.fragment.length).toBeLessThanOrEqual(DEFAULT_LINK_LIMIT);
    const read = readLogFragment(`#${made.fragment}`);
    expect(read?.ok).toBe(true);
    if (!read?.ok) return;
    expect([...read.log.gzip]).toEqual([...log.gzip]);
    expect(read.log).toMatchObject({ name: 'small.jsonl', redacted: true, redactions: log.redactions });
    expect(read.view).toBe('c=12&tab=requests');
    expect(shareableView(`#${made.fragment}`)).toBe('c=12&tab=requests');
    expect(readLogFragment('#c=3&tab=prompt')).toBeNull();
  });

  it('over the limit: no fragment, and how long it would be', async () => {
    const log = await small();
    const made = logFragment(view, log, 1024);
    expect(made).toEqual({ ok: false, length: expect.any(Number), limit: 1024 });
    if (!made.ok) expect(made.length).toBeGreaterThan(1024);
  });

  it('a cut, damaged or incomplete fragment says which, never returns part of a log', async () => {
    const made = logFragment(view, await small());
    if (!made.ok) throw new Error('fits');
    const full = `#${made.fragment}`;
    for (const keep of [0.3, 0.6, 0.9, 0.999]) {
      const read = readLogFragment(full.slice(0, Math.floor(full.length * keep)));
      expect(read?.ok).toBe(false);
      if (read && !read.ok) expect(read.error).toMatch(/cut short|malformed/);
    }
    const cut = readLogFragment(full.slice(0, full.length - 40));
    expect(cut?.ok === false && cut.error).toMatch(/^The log in this link is cut short: it holds \d+ of its \d+ bytes/);
    const bad = readLogFragment(full.replace(/z=(.{10})/, 'z=$1%25'));
    expect(bad?.ok === false && bad.error).toMatch(/malformed: character "%"/);
    expect(readLogFragment('#z=AAAA')).toMatchObject({ ok: false, error: expect.stringMatching(/size \(zb\) is missing/) });
    const longer = readLogFragment(full.replace(/zb=(\d+)/, (_, n) => `zb=${Number(n) - 3}`));
    expect(longer?.ok === false && longer.error).toMatch(/holds \d+ bytes where it says/);
  });
});

describe('the single-file app', () => {
  const parts = { css: 'body{color:red}', script: 'const s = "</script><!--"; console.log(s);', worker: 'self.onmessage = () => "</SCRIPT>";' };

  it('allows exactly its inline script and style by hash, and nothing from the network', async () => {
    const html = await singleFileHtml(parts, null);
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)![1];
    const script = /<script type="module" id="dsh-app-script">([\s\S]*?)<\/script>/.exec(html)![1];
    const style = /<style id="dsh-app-style">([\s\S]*?)<\/style>/.exec(html)![1];
    const hash = (t: string) => crypto.createHash('sha256').update(t).digest('base64');
    expect(csp).toContain(`script-src 'sha256-${hash(script)}'`);
    expect(csp).toContain(`style-src 'sha256-${hash(style)}'`);
    expect(csp).toContain("connect-src 'none'");
    expect(csp).toContain('worker-src blob:');
    expect(csp).not.toMatch(/unsafe|https?:/);
    // "</script" and "<!--" in code cannot end or confuse its element; the code means the same.
    expect(script).toBe('const s = "\\x3C/script>\\x3C!--"; console.log(s);');
    expect(html.match(/<\/script>/g)).toHaveLength(3);
    expect(embeddedLogOfHtml(html)).toBeNull();
  });

  it('carries a log that reads back, and is rebuilt from its own parts byte for byte', async () => {
    const packed = await packLog([enc.encode(generateLog({ dialect: 'v0', seed: 4, turns: 2 }).text)], { redact: true });
    const log = { name: 'a <b> & "c".jsonl', gzip: packed.gzip, redacted: true, redactions: 0, view: 'cs=40&tab=prompt' };
    const html = await singleFileHtml(parts, log);
    const embedded = embeddedLogOfHtml(html)!;
    expect(embedded).toMatchObject({ v: 1, name: log.name, encoding: 'gzip', bytes: packed.gzip.length, view: 'cs=40&tab=prompt', redacted: true });
    expect([...fromBase64(embedded.data)]).toEqual([...packed.gzip]);
    expect(html).toContain('<title>a &#60;b&#62; &#38; &#34;c&#34;.jsonl — DSH Devtools</title>');
    expect(html).not.toContain('a <b>');
    const again = await singleFileHtml(appPartsFromHtml(html), log);
    expect(again).toBe(html);
    expect(() => appPartsFromHtml('<html></html>')).toThrow(/not a DSH Devtools single-file app/);
  });
});
