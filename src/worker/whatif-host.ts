import { decodedText } from '../core/log/decoded-text.ts';
import type { EventStore } from '../core/log/event-store.ts';
import type { ScanStats } from '../core/log/types.ts';
import { lineOffset, planEdits, type EditableLog, type EditedLog, type EditPlan } from '../core/whatif/apply-edits.ts';
import { inheritedEventCount, isInheritedMarker } from '../core/workspace/forks.ts';
import type { OpenLog } from './open-log/open-log.ts';
import { editedLogName, type Edit } from '../core/whatif/edits.ts';
import { editsFromParam } from '../core/whatif/edits-schema.ts';
import { whatIfCalls, type WhatIfCall } from '../core/whatif/whatif.ts';
import type { CompareHost } from './compare-host.ts';
import { LoadStopped } from '../core/log/load-stopped.ts';
import { openSource } from './load/open-source.ts';
import { answer, type Post } from './operation-table.ts';
import type { LoadProgress, LoadSource } from './protocol.ts';
import { WHATIF_OPERATIONS, type WhatIfAnswers, type WhatIfLoaded, type WhatIfRequest } from './whatif-protocol.ts';

/**
 * What if (docs/whatif.md): the open log's text edited by the core's
 * `applyEdits` and loaded into compare's slot as B, so compare mode (its
 * aligner, side-by-side panels and cursors) shows what the edits change.
 * The edited text stays here, to download, until the next what-if.
 */
export class WhatIfHost implements WhatIfAnswers {
  private edited: Blob | null = null;

  constructor(private readonly compare: CompareHost) {}

  handle(req: WhatIfRequest, post: Post): Promise<void> {
    return answer(WHATIF_OPERATIONS, this as WhatIfAnswers, req, post, {
      failure: (err) => (err instanceof LoadStopped ? { finding: err.finding } : {}),
    });
  }

  async load(source: LoadSource, edits: readonly Edit[], onProgress: (p: LoadProgress) => void): Promise<WhatIfLoaded> {
    this.edited = null;
    const a = this.compare.openA();
    if (!a) throw new Error('no log open to edit');
    const plan = planEdits(editableOpenLog(a), edits);
    const { session } = a.replay;
    const { file, bytes, edited } = await editedLog(source, plan, session.events, session.read.scan.encoding);
    this.edited = file;
    const name = editedLogName(source.name);
    // As a file when it is one, or when a helper folds projection units: a load hands it the file (shared, not copied).
    const summary = await this.compare.load(bytes && !this.compare.helped() ? { kind: 'bytes', bytes, name } : { kind: 'file', file, name }, onProgress);
    this.compare.sharesWithA(plan.sharedBefore);
    return { summary, problems: edited.problems, bytes: file.size };
  }

  calls(names: { a: string; b: string }): WhatIfCall[] {
    const a = this.compare.openA();
    const b = this.compare.openB();
    if (!a || !b) throw new Error('no what-if loaded');
    return whatIfCalls(this.compare.compare(names).report.rows, { requests: a.prompts.requests.requests, surfaceTotals: a.prompts.surfaceTotals }, { requests: b.prompts.requests.requests, surfaceTotals: b.prompts.surfaceTotals });
  }

  parse(param: string): ReturnType<typeof editsFromParam> {
    return editsFromParam(param);
  }

  file(): Blob {
    if (this.edited === null) throw new Error('no what-if loaded');
    return this.edited;
  }
}

const NDJSON = 'application/x-ndjson';

/**
 * The edited log. An opened file that is a plain log keeps its bytes before
 * the plan's first line as a slice of itself (the store knows where that
 * line starts), and only the rest is read and rewritten: an edit near the end
 * of a long log costs its tail, and its kept lines are never read into
 * memory. A compressed file (its decoded offsets are not its bytes'), text,
 * bytes or a download are decoded whole; then `bytes` holds the result too.
 */
async function editedLog(source: LoadSource, plan: EditPlan, store: EventStore, encoding: ScanStats['encoding']): Promise<{ file: Blob; bytes: Uint8Array | null; edited: EditedLog }> {
  const from = plan.firstLine > 1 ? store.lineByteStart(plan.firstEvent) : -1;
  if (source.kind === 'file' && from > 0 && encoding === 'plain') {
    const edited = plan.rewrite(await source.file.slice(from).text());
    return { file: new Blob([source.file.slice(0, from), edited.text], { type: NDJSON }), bytes: null, edited };
  }
  const text = await decodedText((await openSource(source)).chunks);
  const at = lineOffset(text, plan.firstLine);
  const edited = plan.rewrite(text.slice(at));
  const bytes = new TextEncoder().encode(text.slice(0, at) + edited.text);
  return { file: new Blob([bytes], { type: NDJSON }), bytes, edited };
}

/**
 * The open log as the edits read it: its store's seqs, origins and events,
 * so a what-if does not read the log a second time (the lines themselves
 * come from its source, decoded again: the store may not keep them all).
 */
function editableOpenLog(log: OpenLog): EditableLog {
  const { session, index } = log.replay;
  const store = session.events;
  const count = session.loggedCount;
  // The seq column went to the page with the summary; the replay's own seq index answers.
  const seqs = new Float64Array(count);
  for (let i = 0; i < count; i++) seqs[i] = log.replay.seqAt(i)!;
  // The fork cut (L1.7): the last tagged end-seed, found by its type column, not by reading every event.
  const endSeed = index.typeNames.indexOf('session/end-seed');
  let marker: number | null = null;
  if (endSeed >= 0) {
    for (let i = count - 1; i >= 0 && marker === null; i--) {
      if (index.columns.typeId[i] === endSeed && isInheritedMarker(store.at(i)!)) marker = seqs[i];
    }
  }
  return {
    header: session.read.header,
    count,
    seqs,
    indexOfSeq: (seq) => store.indexOfSeq(seq),
    origin: (i) => store.origin(i)!,
    event: (i) => store.at(i)!,
    inheritedSeq: inheritedEventCount(session.read.header, marker),
  };
}
