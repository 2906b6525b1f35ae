import { callTokens, type CallTokens } from '../core/charts/series.ts';
import type { ModelRequest } from '../core/requests/build.ts';
import type { RequestRow } from './protocol.ts';

/** Where a call's cut lies in the event order. */
type IndexOfSeq = (seq: number) => number;

/** A call's token figures as the Requests table and the usage chart read them. */
export function tokensOfCall(call: ModelRequest, i: number, indexOfSeq: IndexOfSeq): CallTokens {
  const breaks = call.prefix.extendsPrevious ? [] : call.prefix.reasons;
  return callTokens(i, indexOfSeq(call.cut), call.usage, call.route?.contextWindow, breaks, { provider: call.config?.provider, model: call.config?.model });
}

/** The Requests table's row of call `i`. */
function rowOf(r: ModelRequest, i: number, indexOfSeq: IndexOfSeq): RequestRow {
  return {
    index: r.index, cut: r.cut, cutIndex: indexOfSeq(r.cut), turn: r.turn, step: r.step, attempt: r.attempt,
    model: r.config ? `${r.config.provider}/${r.config.model}` : '(no header)',
    messageCount: r.messageCount, toolCount: r.tools.names.length,
    keptMessages: r.prefix.keptMessages, previousMessageCount: r.prefix.previousMessageCount,
    keptBytes: r.prefix.keptBytes, bytes: r.prefix.bytes, extendsPrevious: r.prefix.extendsPrevious,
    reasons: r.prefix.reasons, cacheReadTokens: r.prefix.cacheReadTokens, inputTokens: r.prefix.inputTokens, outcome: r.outcome,
    tokens: tokensOfCall(r, i, indexOfSeq),
  };
}

/**
 * Every call's row, the first `same` taken from `kept` (rows made for the
 * same calls earlier that still hold: a followed log's refresh makes only
 * the rows of calls new or changed since, so it costs what was appended,
 * not every call of the log).
 */
export function requestRows(calls: readonly ModelRequest[], indexOfSeq: IndexOfSeq, kept: readonly RequestRow[] = [], same = 0): RequestRow[] {
  const rows = kept.slice(0, same);
  for (let i = rows.length; i < calls.length; i++) rows.push(rowOf(calls[i], i, indexOfSeq));
  return rows;
}
