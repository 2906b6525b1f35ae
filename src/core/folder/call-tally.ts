import type { LogEvent } from '../log/types.ts';
import { runMember, type PackedRun } from '../log/packed-rows.ts';
import { CutDetector, cutModeFor, type CutMode } from '../requests/cuts.ts';
import { canonicalHeader } from '../prompt/request-header.ts';
import { usageOfStream, type Usage } from '../requests/build.ts';
import type { SessionHeader } from '../log/types.ts';
import { stepKey } from '../util/step-key.ts';

/** A model name as the table shows it: `provider/model` ('?' for a part the header does not give). */
export type ModelName = string;

interface TalliedCall {
  model: ModelName;
  usage: Usage | undefined;
}

/** Token use of one model over a log's calls. */
export interface ModelUse {
  model: ModelName;
  calls: number;
  tokensIn: number;
  tokensOut: number;
  cacheReads: number;
}

/**
 * The model calls of a log counted as the request analysis cuts them
 * (requests/cuts.ts), without rebuilding any request: a summary needs only
 * how many calls, under which model, with what usage. Which cut mode
 * applies is known only at the end (whether the log has chunk events), so
 * both detectors run and the right one is read then.
 */
class ModeTally {
  readonly detector: CutDetector;
  readonly calls: TalliedCall[] = [];
  /** Chunk mode: (turn:step) → the call whose deltas are streaming (a usage chunk belongs to it). */
  private readonly streaming = new Map<string, number>();

  constructor(readonly mode: CutMode) {
    this.detector = new CutDetector(mode);
  }

  see(event: LogEvent, model: ModelName): void {
    const cut = this.detector.next(event);
    if (cut) {
      const call: TalliedCall = { model, usage: undefined };
      if (cut.kind !== 'chunk') call.usage = event.data?.usage ?? usageOfStream(event.data?.stream);
      else this.streaming.set(stepKey(cut.turn, cut.step), this.calls.length);
      this.calls.push(call);
    }
    if (this.mode === 'chunk' && event.type === 'assistant/chunk' && event.data?.chunk?.type === 'usage') {
      const index = this.streaming.get(stepKey(event.data.turn, event.data.step));
      if (index !== undefined) this.calls[index].usage = event.data.chunk.usage;
    }
  }
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

export class CallTally {
  private readonly chunk = new ModeTally('chunk');
  private readonly settlement = new ModeTally('settlement');
  private model: ModelName = '?/?';
  private hasChunks = false;

  /** The model of the calls from here on, from a request/header's config. */
  header(event: LogEvent): void {
    const config = canonicalHeader(event.data?.header).config;
    const part = (v: unknown) => (typeof v === 'string' && v !== '' ? v : '?');
    this.model = `${part(config?.provider)}/${part(config?.model)}`;
  }

  event(event: LogEvent): void {
    if (event.type === 'assistant/chunk') this.hasChunks = true;
    this.chunk.see(event, this.model);
    this.settlement.see(event, this.model);
  }

  /** A packed run: only its first member can cut (as the request builder reads it). */
  run(run: PackedRun): void {
    this.hasChunks = true;
    this.chunk.see(runMember(run, 0), this.model);
  }

  /** Per model, in order of first use. */
  finish(header: SessionHeader | null): ModelUse[] {
    const tally = cutModeFor(header, this.hasChunks) === 'chunk' ? this.chunk : this.settlement;
    const byModel = new Map<ModelName, ModelUse>();
    for (const c of tally.calls) {
      let use = byModel.get(c.model);
      if (!use) byModel.set(c.model, (use = { model: c.model, calls: 0, tokensIn: 0, tokensOut: 0, cacheReads: 0 }));
      use.calls++;
      use.tokensIn += num(c.usage?.inputTokens);
      use.tokensOut += num(c.usage?.outputTokens);
      use.cacheReads += num(c.usage?.cacheReadTokens);
    }
    return [...byModel.values()];
  }
}
