import type { EventStore } from '../../core/log/event-store.ts';
import { replaceMarks, surfaceSeries, type ChartData, type ReplaceMark } from '../../core/charts/series.ts';
import type { Replay } from '../../core/replay/replay-index.ts';
import type { PromptAnalysis } from '../../core/requests/analyze.ts';
import type { CallsService } from './calls.ts';

/** The Charts tab's data: the surface's token series, every call's usage, and the replaces it marks. */
export class ChartsService {
  /** The replaces the usage chart marks (compactions told apart), found at open. */
  private readonly marks: ReplaceMark[];

  constructor(private readonly replay: Replay<EventStore>, private readonly prompts: PromptAnalysis, private readonly calls: CallsService, compactionIndexes: readonly number[]) {
    this.marks = replaceMarks(replay.session.surface.replacements, (seq) => replay.indexOfSeq(seq), compactionIndexes);
  }

  /**
   * `withCalls: false` leaves the calls out: the page has their figures already (each request row's
   * `tokens`), and 27,542 of them cost about 100 ms of structured clone each way.
   */
  charts(withCalls = true): ChartData {
    const replay = this.replay;
    return {
      surface: surfaceSeries(this.prompts.surfaceTotals, (seq) => replay.indexOfSeq(seq)),
      calls: withCalls ? this.calls.tokens() : [],
      marks: this.marks,
    };
  }
}
