// Taking a session elsewhere, in the built app: an assistant event's detail copies its call's
// request as cURL (the core's own command, the key a shell variable), and Export → OpenTelemetry
// downloads the core's trace, which passes through the OTLP protobuf schema.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { loadRun } from '../../src/core/compare/run.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { traceJsonLines } from '../../src/core/otlp/requests.ts';
import { sessionTrace } from '../../src/core/otlp/session-trace.ts';
import { traceSourceOf } from '../../src/core/otlp/source.ts';
import { curlCommand, providerRequest } from '../../src/core/requests/wire.ts';
import { throughProtobuf } from '../helpers/otlp-proto.ts';
import { gotoSeq, ready } from './helpers.ts';

type Case = (ctx: { page: Page; baseUrl: string; shot: (name: string) => Promise<unknown> }) => Promise<void>;

const version = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string }).version;

export const otlpTests: Record<string, Case> = {
  async 'take it elsewhere: Copy as cURL from an assistant event is the core\'s command; Export → OpenTelemetry downloads the core\'s trace'({ page, baseUrl, shot }) {
    const text = fs.readFileSync(path.resolve(process.env.DIST_DIR ?? 'dist', 'demo', 'demo-session.jsonl'), 'utf8');
    const read = readLogText(text);
    const loaded = loadRun(read, 'demo-session.jsonl');
    const call = loaded.run.requests[11];
    const reply = read.events.find((e) => e.seq > call.cut && e.type === 'assistant/message');
    assert.ok(reply, 'call 12 has a reply');

    await page.goto(baseUrl);
    await ready(page);
    // What the page copies, kept where the test can read it (no clipboard permission needed).
    // As a string: a function would carry the test runner's compiled helpers into the page.
    await page.evaluate(`(() => {
      const copied = [];
      window.copied = copied;
      Object.defineProperty(navigator, 'clipboard', { value: { writeText: async (t) => { copied.push(t); } }, configurable: true });
    })()`);
    await gotoSeq(page, reply.seq);
    const detail = page.getByRole('region', { name: 'Event detail' });
    await detail.getByText('model call 12:').waitFor();
    await detail.getByRole('button', { name: 'Copy as cURL' }).click();
    await detail.getByText(/copied a cURL command of call 12/).waitFor();
    await detail.getByRole('button', { name: 'Copy request as JSON' }).click();
    await detail.getByText(/copied the request body of call 12/).waitFor();
    await shot('copy-request');
    const copied = (await page.evaluate('window.copied')) as string[];
    const wire = providerRequest(call);
    assert.equal(copied[0], curlCommand(wire));
    assert.ok(copied[0].includes('${DEEPSEEK_API_KEY}'));
    assert.deepEqual(JSON.parse(copied[1]), wire.body);

    await page.getByRole('button', { name: 'Export' }).click();
    await page.getByRole('combobox', { name: 'Export what' }).selectOption('otlp');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download', exact: true }).click()]);
    assert.equal(download.suggestedFilename(), 'demo-session.otlp.jsonl');
    const got = fs.readFileSync((await download.path())!, 'utf8');
    assert.equal(got, traceJsonLines(sessionTrace(traceSourceOf(loaded), { content: false, redact: (t) => t, version })));
    for (const line of got.trimEnd().split('\n')) assert.deepEqual(throughProtobuf(JSON.parse(line)).back, JSON.parse(line));
    await shot('export-otlp');
  },
};
