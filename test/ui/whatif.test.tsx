// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { readLogText } from '../../src/core/log/reader.ts';
import { editsToParam, MAX_LINK_EDITS_BYTES } from '../../src/core/whatif/edits-link.ts';
import { editsFromParam } from '../../src/core/whatif/edits-schema.ts';
import { editedLogName, type Edit } from '../../src/core/whatif/edits.ts';
import { whatIf } from '../../src/core/whatif/whatif.ts';
import { useCompare } from '../../src/store/compare.ts';
import { useCursor } from '../../src/store/cursor.ts';
import { useSession } from '../../src/store/session.ts';
import { decodeHash, encodeHash } from '../../src/store/url.ts';
import { useWhatIf } from '../../src/store/whatif.ts';
import { EventInspector } from '../../src/ui/inspector/EventInspector.tsx';
import { WhatIfBar } from '../../src/ui/whatif/WhatIfBar.tsx';
import { callChangeText, WhatIfCalls } from '../../src/ui/whatif/WhatIfCalls.tsx';
import { WorkerClient } from '../../src/worker/client.ts';
import { CompareHost } from '../../src/worker/compare-host.ts';
import { isCompareRequest } from '../../src/worker/compare-protocol.ts';
import { Engine } from '../../src/worker/engine.ts';
import { WhatIfHost } from '../../src/worker/whatif-host.ts';
import { isWhatIfRequest } from '../../src/worker/whatif-protocol.ts';
import './harness.ts';

afterEach(() => { cleanup(); useWhatIf.getState().clear(); useCompare.getState().exit(); });

/** The worker as load.worker.ts routes it: the engine, its compare slot, and the what-if host over both. */
function worker(): WorkerClient {
  const engine = new Engine();
  const compare = new CompareHost(engine);
  const whatIf = new WhatIfHost(compare);
  const target = {
    onmessage: null as ((e: MessageEvent) => void) | null,
    postMessage(msg: any) {
      const reply = (r: unknown) => target.onmessage?.({ data: r } as MessageEvent);
      if (isWhatIfRequest(msg)) void whatIf.handle(msg, reply);
      else if (isCompareRequest(msg)) void compare.handle(msg, reply);
      else void engine.handle(msg, reply);
    },
  };
  return new WorkerClient(target);
}

async function open(text: string, name = 'run.jsonl'): Promise<void> {
  useSession.setState({ client: worker(), summary: null, workspace: [], error: null, status: 'idle' });
  await useSession.getState().open({ kind: 'text', text, name });
  useCursor.getState().setCount(useSession.getState().summary!.count);
}

/** A Blob's text (jsdom's Blob has no text()). */
const blobText = (blob: Blob) => new Promise<string>((resolve, reject) => {
  const reader = new FileReader();
  reader.onload = () => resolve(reader.result as string);
  reader.onerror = () => reject(reader.error);
  reader.readAsText(blob);
});

const log = generateLog({ dialect: 'v4', seed: 60, turns: 8, compactEvery: 2 });
const lastReplace = readLogText(log.text).events.filter((e) => e.surfaceOp && e.surfaceOp !== 'append').at(-1)!;

describe('what if in the app (docs/whatif.md)', () => {
  it('an edit added from the Event detail is listed; the re-fold opens compare mode on the edited log with the core\'s token figures', async () => {
    await open(log.text);
    const index = useSession.getState().summary!.columns.seq.indexOf(lastReplace.seq);
    act(() => useCursor.getState().seek(index));
    render(<><WhatIfBar /><EventInspector /></>);
    const actions = await screen.findByRole('group', { name: 'What if' });
    fireEvent.click(within(actions).getByRole('button', { name: 'undo this replace' }));
    const bar = screen.getByRole('region', { name: 'What if' });
    expect(within(bar).getByRole('list', { name: 'Edits' }).textContent).toContain(`undo the replace at seq ${lastReplace.seq}`);
    expect(useWhatIf.getState().edits).toEqual([{ kind: 'undo-replace', seq: lastReplace.seq }]);

    await act(() => useWhatIf.getState().run());
    const compare = useCompare.getState();
    expect(compare.status).toBe('ready');
    expect(compare.entry).toBeNull();
    expect(compare.nameB).toBe('run.whatif.jsonl');
    const core = whatIf(log.text, useWhatIf.getState().edits, 'run.jsonl');
    expect(useWhatIf.getState().calls).toEqual(core.report.calls);
    expect(compare.view!.report.firstDivergence?.callA).toBe(core.report.firstDivergence?.callA);
    // The comparison opens at the first call that changed.
    expect(compare.view!.report.rows[compare.row].status).not.toBe('same');

    cleanup();
    render(<WhatIfCalls />);
    const changed = core.report.calls.filter((c) => c.status !== 'same');
    expect(changed.length).toBeGreaterThan(0);
    const rows = screen.getByRole('region', { name: 'What the edits change' }).querySelectorAll('tbody tr');
    expect(rows.length).toBe(changed.length);
    expect(rows[0].getAttribute('aria-label')).toBe(callChangeText(changed[0]));
  });

  it('the edited log downloads as the core writes it; clearing ends compare mode; another log drops the edits', async () => {
    await open(log.text);
    const edits: Edit[] = [{ kind: 'drop', seq: lastReplace.seq }, { kind: 'insert-user', before: lastReplace.seq, text: 'what <b>if</b>' }];
    act(() => useWhatIf.getState().setEdits(edits));
    await act(() => useWhatIf.getState().run());
    const client = useSession.getState().client!;
    const { whatIfClient } = await import('../../src/worker/whatif-client.ts');
    expect(await blobText(await whatIfClient(client)['whatif-file']())).toBe(whatIf(log.text, edits).editedText);
    act(() => useWhatIf.getState().clear());
    expect(useCompare.getState().status).toBe('off');

    act(() => useWhatIf.getState().setEdits(edits));
    await open(generateLog({ dialect: 'v4', seed: 61, turns: 2 }).text, 'other.jsonl');
    expect(useWhatIf.getState().edits).toEqual([]);
  });

  it('a bad edit is reported after the re-fold, not thrown', async () => {
    await open(log.text);
    act(() => useWhatIf.getState().setEdits([{ kind: 'undo-replace', seq: 0 }]));
    await act(() => useWhatIf.getState().run());
    expect(useWhatIf.getState().status).toBe('ready');
    expect(useWhatIf.getState().problems.map((p) => p.message).join()).toMatch(/seq 0 .* is not a replace/);
    expect(useCompare.getState().view!.report.identical).toBe(true);
  });
});

describe('what-if edits in a link', () => {
  it('round-trip through the hash with the comparison\'s cursors', () => {
    const edits: Edit[] = [{ kind: 'text', seq: 4, text: 'ünïcødé & = # ✓' }, { kind: 'undo-replace', seq: 9 }];
    const hash = encodeHash({ log: 'a.jsonl', cursor: 3, whatIf: { edits, folded: true, row: 2, b: 5 } });
    const read = decodeHash(hash).whatIf!;
    expect(read).toMatchObject({ folded: true, row: 2, b: 5 });
    expect(editsFromParam(read.param!)).toEqual({ ok: true, edits });
    expect(editsFromParam(decodeHash(encodeHash({ whatIf: { edits, folded: false } })).whatIf!.param!)).toEqual({ ok: true, edits });
    expect(encodeHash({ whatIf: { edits: [], folded: false } })).toBe('');
  });

  it('a hostile or broken list is refused with a reason', () => {
    expect(editsFromParam('%%%')).toMatchObject({ ok: false });
    expect(editsFromParam(editsToParam([{ kind: 'drop', seq: -1 } as unknown as Edit]))).toMatchObject({ ok: false, error: expect.stringMatching(/edit 0\.seq/) });
    expect(editsFromParam(editsToParam([{ kind: 'exec', cmd: 'rm' } as unknown as Edit]))).toMatchObject({ ok: false });
    const big = editsToParam([{ kind: 'text', seq: 1, text: 'x'.repeat(MAX_LINK_EDITS_BYTES) }]);
    expect(editsFromParam(big)).toMatchObject({ ok: false, error: expect.stringMatching(/over 64 KiB/) });
    expect(editsFromParam(decodeHash(`wi=${encodeURIComponent(big)}`).whatIf!.param!)).toMatchObject({ ok: false, error: expect.stringMatching(/over/) });
  });

  it('the edited log is named as edited', () => {
    expect(editedLogName('session.v4.jsonl.zst')).toBe('session.v4.whatif.jsonl');
    expect(editedLogName('run.jsonl')).toBe('run.whatif.jsonl');
    expect(editedLogName('notes')).toBe('notes.whatif.jsonl');
  });
});
