import { decodedText } from '../core/log/decoded-text.ts';
import { readLogText } from '../core/log/reader.ts';
import { applyEdits } from '../core/whatif/apply-edits.ts';
import { editedLogName, type Edit } from '../core/whatif/edits.ts';
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
  private edited: string | null = null;

  constructor(private readonly compare: CompareHost) {}

  handle(req: WhatIfRequest, post: Post): Promise<void> {
    return answer(WHATIF_OPERATIONS, this as WhatIfAnswers, req, post, {
      failure: (err) => (err instanceof LoadStopped ? { finding: err.finding } : {}),
    });
  }

  async load(source: LoadSource, edits: readonly Edit[], onProgress: (p: LoadProgress) => void): Promise<WhatIfLoaded> {
    this.edited = null;
    const text = await decodedText((await openSource(source)).chunks);
    const edited = applyEdits(text, readLogText(text), edits);
    this.edited = edited.text;
    const summary = await this.compare.load({ kind: 'text', text: edited.text, name: editedLogName(source.name) }, onProgress);
    return { summary, problems: edited.problems, bytes: new TextEncoder().encode(edited.text).length };
  }

  calls(names: { a: string; b: string }): WhatIfCall[] {
    const a = this.compare.openA();
    const b = this.compare.openB();
    if (!a || !b) throw new Error('no what-if loaded');
    return whatIfCalls(this.compare.compare(names).report.rows, a.prompts.requests.requests, b.prompts.requests.requests);
  }

  text(): string {
    if (this.edited === null) throw new Error('no what-if loaded');
    return this.edited;
  }
}
