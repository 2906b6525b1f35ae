import type { EventStore } from '../../core/log/event-store.ts';
import { admitSystemPrompt, type Admission, type AdmissionFlags } from '../../core/prompt/admission.ts';
import { boundedLineDiff } from '../../core/prompt/context-diff.ts';
import { plainSnapshot } from '../../core/prompt/context-stream.ts';
import type { Replay } from '../../core/replay/replay-index.ts';
import type { PromptAnalysis } from '../../core/requests/analyze.ts';
import type { ContextComparison, PromptAtCursor } from '../protocol.ts';

/** The open log's system prompt and runtime context at a cursor, and what a new prompt would do there. */
export class PromptService {
  constructor(private readonly replay: Replay<EventStore>, private readonly prompts: PromptAnalysis) {}

  /** The effective system prompt at event `index`, and its diff against the one before it. */
  prompt(index: number): PromptAtCursor {
    const prompts = this.prompts;
    const seq = this.replay.session.events.at(index)?.seq ?? -1;
    const at = prompts.systemPrompt.at(seq);
    const before = at.setBySeq !== null && at.setBySeq > 0 ? prompts.systemPrompt.at(at.setBySeq - 1) : null;
    const previousText = before ? before.text : null;
    const diff = typeof at.text === 'string' && typeof previousText === 'string' ? boundedLineDiff(previousText, at.text) : null;
    return {
      source: prompts.systemPromptSource, text: at.text, setBySeq: at.setBySeq, setBy: at.setBy, changedAt: at.changedAt,
      scrubbed: at.scrubbed, previousText, diff, contextSeq: prompts.runtimeContext.effectiveAt(seq),
    };
  }

  /** Two runtime-context snapshots by seq (a null: the one before b) and their section diff. */
  context(a: number | null, b: number): ContextComparison {
    const { runtimeContext } = this.prompts;
    const snapshots = runtimeContext.snapshots;
    const bEntry = snapshots.find((s) => s.seq === b);
    if (!bEntry) throw new Error(`no runtime-context snapshot at seq ${b}`);
    const aSeq = a ?? bEntry.previousSeq;
    const aEntry = aSeq === null ? undefined : snapshots.find((s) => s.seq === aSeq);
    const diff = aEntry ? (runtimeContext.compare(aEntry.seq, b) ?? bEntry.diff) : bEntry.diff;
    return { a: aEntry ? plainSnapshot(aEntry) : null, b: plainSnapshot(bEntry), diff };
  }

  /** What DSH's system-prompt projection would commit for `text` on the surface at event `index` (dsh-log-rules P5.2). */
  admit(index: number, text: string, flags: AdmissionFlags): Admission {
    const { state } = this.replay.surfaceAt(index);
    return admitSystemPrompt(state, { dialect: this.replay.session.read.dialect, eventAt: this.replay.session.eventAt }, text, flags);
  }
}
