// The what-if workload (docs/whatif.md): the re-fold the user waits for after "Re-fold and
// compare" — the open log's lines rebuilt with one edit near its end, the edited log loaded
// into compare's slot, aligned with the original and its calls' tokens counted — against
// the app's whole load of the same log, in turns in one run; then a second re-fold of the same open
// log with another edit, as a user trying edits one after another waits for it.
import { readLogText } from '../../src/core/log/reader.ts';
import type { Edit } from '../../src/core/whatif/edits.ts';
import { CompareHost } from '../../src/worker/compare-host.ts';
import { WhatIfHost } from '../../src/worker/whatif-host.ts';
import { baseline, workerLoad } from './loads.ts';

export interface WhatIfMeasure {
  name: string;
  events: number;
  edit: Edit;
  /** Medians over the runs. */
  loadMs: number;
  refoldMs: number;
  /** A second re-fold of the same open log with another edit (the compare slot keeps the original's trails). */
  againMs: number;
  baselineMs: number;
  /** The re-fold's time over the whole load's: at most 1 is the target. */
  refoldOverLoad: number;
  againOverLoad: number;
  changedCalls: number;
  runs: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** One edit near the end: new text for the last tool result before the last `share` of the log. */
function editNearEnd(text: string, share = 0.01): Edit {
  const { events } = readLogText(text);
  const from = Math.floor(events.length * (1 - share));
  const result = events.slice(0, from).reverse().find((e) => e.type === 'tool/result') ?? events[from];
  return result.type === 'tool/result' ? { kind: 'text', seq: result.seq, text: '(output truncated)' } : { kind: 'drop', seq: result.seq };
}

export async function whatIfBench(name: string, bytes: Uint8Array, runs = 3): Promise<WhatIfMeasure> {
  const text = new TextDecoder().decode(bytes);
  const edit = editNearEnd(text);
  const another = editNearEnd(text, 0.02);
  const loads: number[] = [];
  const refolds: number[] = [];
  const agains: number[] = [];
  const baselines: number[] = [];
  let changedCalls = 0;
  let events = 0;
  for (let r = 0; r < runs; r++) {
    baselines.push(baseline(bytes));
    let t = performance.now();
    const { engine, summary } = await workerLoad(bytes, name);
    loads.push(performance.now() - t);
    events = summary.count;
    const compare = new CompareHost(engine);
    const whatIf = new WhatIfHost(compare);
    t = performance.now();
    const source = { kind: 'file' as const, file: new Blob([bytes as Uint8Array<ArrayBuffer>]), name };
    const refold = async (edits: Edit[]) => {
      const loaded = await whatIf.load(source, edits, () => {});
      const names = { a: name, b: loaded.summary.name };
      compare.compare(names);
      return whatIf.calls(names);
    };
    const calls = await refold([edit]);
    refolds.push(performance.now() - t);
    changedCalls = calls.filter((c) => c.status !== 'same').length;
    t = performance.now();
    await refold([another]);
    agains.push(performance.now() - t);
    compare.drop();
  }
  const loadMs = median(loads);
  const refoldMs = median(refolds);
  const againMs = median(agains);
  const ratio = (ms: number) => Math.round((ms / loadMs) * 100) / 100;
  return { name, events, edit, loadMs, refoldMs, againMs, baselineMs: median(baselines), refoldOverLoad: ratio(refoldMs), againOverLoad: ratio(againMs), changedCalls, runs };
}

export function printWhatIf(m: WhatIfMeasure): void {
  console.log(`\nwhat if: ${m.name}, ${m.events.toLocaleString('en-US')} events, one edit near the end (${m.edit.kind} at seq ${m.edit.kind === 'insert-user' ? m.edit.before : m.edit.seq}; ${m.changedCalls} calls change)`);
  console.log(`  whole load        ${m.loadMs.toFixed(0)} ms (${(m.loadMs / m.baselineMs).toFixed(2)}× JSON.parse)`);
  console.log(`  re-fold + compare ${m.refoldMs.toFixed(0)} ms (${(m.refoldMs / m.baselineMs).toFixed(2)}× JSON.parse) = ${m.refoldOverLoad}× the whole load (medians of ${m.runs})`);
  console.log(`  again, another edit ${m.againMs.toFixed(0)} ms (${(m.againMs / m.baselineMs).toFixed(2)}× JSON.parse) = ${m.againOverLoad}× the whole load`);
}
