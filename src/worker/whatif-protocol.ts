import type { EditProblem } from '../core/whatif/apply-edits.ts';
import type { Edit } from '../core/whatif/edits.ts';
import type { WhatIfCall } from '../core/whatif/whatif.ts';
import { operation, type ClientOf, type RequestOf } from './operation-table.ts';
import { loadProgressTransfer } from './operations.ts';
import type { LoadProgress, LoadSource, LoadSummary } from './protocol.ts';
import { summaryFromWire, summaryToWire } from './request-rows-wire.ts';

/** The edited log, loaded into the compare slot as B. */
export interface WhatIfLoaded {
  summary: LoadSummary;
  /** What an edit could not do, or which references it broke. */
  problems: EditProblem[];
  /** The edited log's size in bytes (UTF-8). */
  bytes: number;
}

/** What the what-if host answers (whatif-host.ts). */
export interface WhatIfAnswers {
  /** Applies `edits` to the log of `source` (the open one) and loads the result as compare's B. */
  load(source: LoadSource, edits: readonly Edit[], onProgress: (p: LoadProgress) => void): Promise<WhatIfLoaded>;
  /** Each aligned call's estimated input tokens and kept prefix, before and after (after `compare`). */
  calls(names: { a: string; b: string }): WhatIfCall[];
  /** The edited log, to download (a Blob crosses to the page without a copy of its bytes). */
  file(): Blob;
  /** A link's edit list checked as untrusted input (the page carries no schema library). */
  parse(param: string): { ok: true; edits: Edit[] } | { ok: false; error: string };
}

const op = operation<WhatIfAnswers>();

/**
 * The what-if operations (docs/whatif.md): the open log edited and re-folded
 * into the compare slot, so compare mode shows the original (A) against what
 * the model would have seen (B).
 */
export const WHATIF_OPERATIONS = {
  'whatif-load': op({
    params: ['source', 'edits'],
    progress: true,
    run: (host: WhatIfAnswers, source: LoadSource, edits: readonly Edit[], onProgress: (p: LoadProgress) => void) => host.load(source, edits, onProgress),
    // The summary's columns and rows travel as transferred buffers, as a load's do (request-rows-wire.ts).
    encode: (r: WhatIfLoaded) => { const { wire, transfer } = summaryToWire(r.summary); return { wire: { ...r, summary: wire }, transfer }; },
    decode: (r: WhatIfLoaded) => ({ ...r, summary: summaryFromWire(r.summary) }),
    progressTransfer: loadProgressTransfer,
  }),
  'whatif-calls': op({ params: ['names'], run: (host, names: { a: string; b: string }) => host.calls(names) }),
  'whatif-file': op({ params: [], run: (host) => host.file() }),
  'whatif-parse': op({ params: ['param'], run: (host, param: string) => host.parse(param) }),
};

export type WhatIfRequest = RequestOf<typeof WHATIF_OPERATIONS>;
export type WhatIfClient = ClientOf<typeof WHATIF_OPERATIONS>;

export function isWhatIfRequest(msg: unknown): msg is WhatIfRequest {
  return typeof msg === 'object' && msg !== null && Object.hasOwn(WHATIF_OPERATIONS, (msg as { op?: string }).op ?? '');
}
