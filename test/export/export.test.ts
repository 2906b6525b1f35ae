import { describe, expect, it, vi } from 'vitest';
import { EventStore } from '../../src/core/log/event-store.ts';
import { messagesToMarkdown } from '../../src/core/export/markdown.ts';
import { redactSecrets } from '../../src/core/export/redact.ts';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { Engine } from '../../src/worker/engine.ts';

describe('secret redaction for exports', () => {
  it.each([
    ['OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwx', 'sk-proj-abcdefghijklmnopqrstuvwx'],
    ['Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig', 'eyJhbGciOiJIUzI1NiJ9.payload.sig'],
    ['token ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789'],
    ['aws AKIAABCDEFGHIJKLMNOP here', 'AKIAABCDEFGHIJKLMNOP'],
    ['{"api_key": "0123456789abcdef"}', '0123456789abcdef'],
    ['-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----', 'MIIE'],
  ])('removes %s', (text, secret) => {
    const r = redactSecrets(text);
    expect(r.text).not.toContain(secret);
    expect(r.count).toBeGreaterThan(0);
  });

  it('leaves ordinary text alone', () => {
    const text = 'Run the tests again: npm test -- --run src/utils/duration.test.ts (token budget 4096)';
    expect(redactSecrets(text)).toEqual({ text, count: 0 });
  });
});

describe('exports from the engine', () => {
  it('writes the transcript as Markdown and the request as JSON, redacting by default', async () => {
    const log = generateLog({ dialect: 'v0', seed: 3, turns: 2 });
    // Put a key into the first user prompt, as a user pasting one would.
    const firstPrompt = log.events.find((e) => e.type === 'user/message')!.data.content[0].text as string;
    const withSecret = log.text.replaceAll(JSON.stringify(firstPrompt).slice(1, -1), `My key is sk-ant-abcdefghijklmnopqrstuvwxyz. ${JSON.stringify(firstPrompt).slice(1, -1)}`);
    expect(withSecret).not.toBe(log.text);
    const engine = new Engine();
    const summary = await engine.load({ kind: 'text', text: withSecret, name: 'x.jsonl' }, () => {});
    const last = summary.count - 1;
    const md = engine.export('transcript', 'markdown', last, true);
    expect(md.text).toMatch(/^# Transcript up to seq/);
    expect(md.text).toContain('## user');
    expect(md.text).not.toContain('sk-ant-abcdefghijklmnopqrstuvwxyz');
    expect(md.redactions).toBeGreaterThan(0);
    expect(engine.export('transcript', 'markdown', last, false).text).toContain('sk-ant-abcdefghijklmnopqrstuvwxyz');
    const request = JSON.parse(engine.export('request', 'json', last, true).text);
    expect(Array.isArray(request.messages)).toBe(true);
    const surface = JSON.parse(engine.export('surface', 'json', last, true).text);
    expect(surface.nodes.length).toBeGreaterThan(0);
  });

  it('reads each event of a whole-log export once (a long log is read back from its file for it)', async () => {
    const log = generateLog({ dialect: 'v0', seed: 4, turns: 12 });
    const engine = new Engine();
    const summary = await engine.load({ kind: 'text', text: log.text, name: 'x.jsonl' }, () => {});
    const last = summary.count - 1;
    const reads = vi.spyOn(EventStore.prototype, 'at');
    try {
      for (const format of ['markdown', 'json'] as const) {
        // The surface at the cursor is sought first (a replay seek reads the events since its checkpoint): the same for both.
        engine.export('surface', format, last, false);
        reads.mockClear();
        const text = engine.export('transcript', format, last, false).text;
        const entries = format === 'json' ? JSON.parse(text).length : text.split('\n## ').length - 1;
        expect(entries).toBeGreaterThan(20);
        // The transcript's events, each once (and a tool result's call, which its message names): not once
        // for its seq, once for a list view and once for the export.
        expect(reads.mock.calls.length).toBeGreaterThanOrEqual(entries);
        expect(reads.mock.calls.length).toBeLessThan(1.5 * entries);
      }
    } finally {
      reads.mockRestore();
    }
  });

  it('renders tool calls and results as fenced blocks', () => {
    const md = messagesToMarkdown('t', [{ message: { id: 'a', role: 'assistant', source: { kind: 'model' }, content: [{ type: 'tool-call', id: 'c', name: 'bash', arguments: '{"command":"ls"}' }] } }]);
    expect(md).toContain('**tool call** `bash`');
    expect(md).toContain('```json\n{"command":"ls"}\n```');
  });
});
