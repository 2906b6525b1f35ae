import type { LoadedRun } from '../compare/run.ts';
import { callMessagesInOrder } from '../requests/call-messages.ts';
import { pairToolCalls } from '../replay/tool-pairs.ts';
import type { TraceSource } from './session-trace.ts';

/** What a trace export reads of a log loaded whole (the CLI and tests; the worker builds it from its open log). */
export function traceSourceOf(loaded: LoadedRun): TraceSource {
  const { run, replay, prompts } = loaded;
  const eventAtIndex = (i: number) => {
    const seq = run.seqAt(i);
    return seq === undefined ? undefined : run.eventAt(seq);
  };
  return {
    run,
    loggedCount: replay.session.loggedCount,
    pairs: pairToolCalls(run.count, run.columns.typeId, run.typeNames, eventAtIndex, (seq) => run.indexOfSeq(seq)),
    callMessages: callMessagesInOrder(replay, prompts.surfaceTotals),
  };
}
