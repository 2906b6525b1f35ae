import type { ListWindow, LoadProgress, LoadSource, LoadSummary } from './protocol.ts';
import type { WorkerClient } from './client.ts';
import { summaryFromWire, type WireSummary } from './request-rows-wire.ts';
import type { CompareAt, CompareView, RowExplanation } from './compare-protocol.ts';

/** Compare-mode calls (issue #20) over the app's one worker connection. */
export interface CompareClient {
  load(source: LoadSource, onProgress?: (p: LoadProgress) => void): Promise<LoadSummary>;
  drop(): Promise<void>;
  compare(names: { a: string; b: string }): Promise<CompareView>;
  at(a: number, b: number, window?: ListWindow): Promise<CompareAt>;
  explain(row: number): Promise<RowExplanation>;
}

export function compareClient(client: WorkerClient): CompareClient {
  return {
    load: (source, onProgress) => client.send<WireSummary>({ op: 'compare-load', source }, onProgress).then(summaryFromWire),
    drop: () => client.send({ op: 'compare-drop' }),
    compare: (names) => client.send({ op: 'compare', names }),
    at: (a, b, window) => client.send({ op: 'compare-at', a, b, window }),
    explain: (row) => client.send({ op: 'compare-explain', row }),
  };
}
