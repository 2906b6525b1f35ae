// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { generateFork } from '../../src/core/generate/generate-log.ts';
import { useCompare } from '../../src/store/compare.ts';
import { useCursor } from '../../src/store/cursor.ts';
import { useSession } from '../../src/store/session.ts';
import { CompareView } from '../../src/ui/compare/CompareView.tsx';
import { WorkerClient } from '../../src/worker/client.ts';
import { CompareHost } from '../../src/worker/compare-host.ts';
import { isCompareRequest } from '../../src/worker/compare-protocol.ts';
import { Engine } from '../../src/worker/engine.ts';
import './harness.ts';

afterEach(() => { cleanup(); useCompare.getState().exit(); });

/**
 * The worker as load.worker.ts routes it (the engine, and its compare slot),
 * in process; `hold` keeps the side-by-side answers back until `release`,
 * as a slow first answer at the end of two long sessions does.
 */
function gatedWorker() {
  const engine = new Engine();
  const host = new CompareHost(engine);
  let gate: Promise<void> | null = null;
  let open = () => {};
  const target = {
    onmessage: null as ((e: MessageEvent) => void) | null,
    postMessage(msg: any) {
      const reply = (r: unknown) => target.onmessage?.({ data: r } as MessageEvent);
      if (!isCompareRequest(msg)) { void engine.handle(msg, reply); return; }
      const run = () => void host.handle(msg, reply);
      if (msg.op === 'compare-at' && gate) void gate.then(run); else run();
    },
  };
  return {
    client: new WorkerClient(target),
    hold() { gate = new Promise((resolve) => { open = resolve; }); },
    release() { gate = null; open(); },
  };
}

describe('compare view (issue #15)', () => {
  it('says when the side-by-side panel still shows the answer for earlier cursors, and dims it until the new one comes', async () => {
    const { parent, child } = generateFork({ dialect: 'v4', seed: 6, turns: 4, afterTurn: 2, childTurns: 2 });
    const worker = gatedWorker();
    useSession.setState({ client: worker.client, summary: null, workspace: [], error: null, status: 'idle' });
    await useSession.getState().openMany([{ kind: 'text', text: parent.text, name: 'a.jsonl' }, { kind: 'text', text: child.text, name: 'b.jsonl' }]);
    useCursor.getState().setCount(useSession.getState().summary!.count);
    await act(() => useCompare.getState().start(1));
    expect(useCompare.getState().status).toBe('ready');
    act(() => useCompare.getState().setTab('surface'));
    render(<CompareView />);
    const summaryLine = () => screen.getByLabelText('Paired surfaces').querySelector('p')!.textContent!;
    const seqOf = (index: number) => useSession.getState().summary!.columns.seq[index];
    await waitFor(() => expect(summaryLine()).toContain(`at seq ${seqOf(useCursor.getState().index)}`));
    expect(screen.queryByText(/Comparing at the new cursors/)).toBeNull();
    const before = useCursor.getState().index;

    // A step whose answer is slow: the old answer stays, marked as such.
    worker.hold();
    const next = Math.max(0, before - 5);
    act(() => useCursor.getState().seek(next));
    const note = await screen.findByText(/Comparing at the new cursors/);
    expect(note.textContent).toContain(`A at seq ${seqOf(before)}`);
    expect(document.querySelector('.compare-panel')!.getAttribute('aria-busy')).toBe('true');
    expect(summaryLine()).toContain(`at seq ${seqOf(before)}`);

    worker.release();
    await waitFor(() => expect(summaryLine()).toContain(`at seq ${seqOf(next)}`));
    expect(screen.queryByText(/Comparing at the new cursors/)).toBeNull();
    expect(document.querySelector('.compare-panel')!.getAttribute('aria-busy')).toBe('false');
  });
});
