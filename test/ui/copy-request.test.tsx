// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadRun } from '../../src/core/compare/run.ts';
import { redactSecrets } from '../../src/core/export/redact.ts';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { traceJsonLines } from '../../src/core/otlp/requests.ts';
import { sessionTrace } from '../../src/core/otlp/session-trace.ts';
import { traceSourceOf } from '../../src/core/otlp/source.ts';
import { curlCommand, providerRequest } from '../../src/core/requests/wire.ts';
import { useCursor } from '../../src/store/cursor.ts';
import { useSession } from '../../src/store/session.ts';
import { EventInspector } from '../../src/ui/inspector/EventInspector.tsx';
import { ExportDialog } from '../../src/ui/loading/ExportDialog.tsx';
import { version } from '../../package.json';
import { loadText } from './harness.ts';

let copied: string[] = [];
beforeEach(() => {
  copied = [];
  Object.defineProperty(navigator, 'clipboard', { value: { writeText: async (t: string) => { copied.push(t); } }, configurable: true });
});
afterEach(cleanup);

const log = generateLog({ dialect: 'v4', seed: 31, turns: 3 });
const calls = loadRun(readLogText(log.text), 'run.jsonl').run.requests;

describe('the request as the provider got it, and the session as a trace, from the app', () => {
  it("an assistant message's detail copies its call's body and cURL command, the core's own", async () => {
    await loadText(log.text, 'run.jsonl');
    const summary = useSession.getState().summary!;
    const k = 2;
    act(() => useCursor.getState().seek(summary.callCuts[k]));
    render(<EventInspector />);
    fireEvent.click(await screen.findByRole('button', { name: 'Copy request as JSON' }));
    await screen.findByText(/copied the request body of call 3/);
    const wire = providerRequest(calls[k]);
    expect(JSON.parse(copied[0])).toEqual(wire.body);
    fireEvent.click(screen.getByRole('button', { name: 'Copy as cURL' }));
    await screen.findByText(/copied a cURL command of call 3/);
    expect(copied[1]).toBe(curlCommand(wire));
    expect(copied[1]).toContain('${DEEPSEEK_API_KEY}');
  });

  it('Export → OpenTelemetry writes the trace the core makes of the log', async () => {
    await loadText(log.text, 'run.jsonl');
    render(<ExportDialog onClose={() => {}} />);
    fireEvent.change(screen.getByRole('combobox', { name: 'Export what' }), { target: { value: 'otlp' } });
    fireEvent.click(screen.getByRole('checkbox', { name: /With message content/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    await screen.findByText(/run\.otlp\.jsonl: \d+ secrets? redacted/);
    const expected = traceJsonLines(sessionTrace(traceSourceOf(loadRun(readLogText(log.text), 'run.jsonl')), { content: true, redact: (t) => redactSecrets(t).text, version }));
    expect(copied[0]).toBe(expected);
    expect(copied[0]).toContain('gen_ai.input.messages');
  });
});
