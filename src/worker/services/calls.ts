import type { EventStore } from '../../core/log/event-store.ts';
import type { Replay } from '../../core/replay/replay-index.ts';
import { surfaceBeforeOf, type PromptAnalysis } from '../../core/requests/analyze.ts';
import { callMessagesAt, callMessagesInOrder, type CallMessages } from '../../core/requests/call-messages.ts';
import { plainRequestWith, type ModelRequest } from '../../core/requests/build.ts';
import type { CallTokens } from '../../core/charts/series.ts';
import type { ListWindow, RequestCopy, RequestDetail } from '../protocol.ts';
import { tokensOfCall } from '../request-rows.ts';
import { firstWhere } from '../../core/util/sorted.ts';
import { clampWindow } from './window.ts';
import { curlCommand, providerRequest } from '../../core/requests/wire.ts';

/** Messages a request's detail shows at a time. */
const REQUEST_PAGE = 50;

/**
 * The open log's model calls: one call with a window of its messages and
 * what changed since the call before, its exact request as JSON, and every
 * call's logged usage. A long session's calls carry tens of thousands of
 * messages each, so messages are derived for the window asked, never kept.
 */
export class CallsService {
  constructor(private readonly replay: Replay<EventStore>, private readonly prompts: PromptAnalysis) {}

  /** Every model call of the log, in order. */
  get list(): readonly ModelRequest[] {
    return this.prompts.requests.requests;
  }

  /**
   * One model call, with a window of its messages (the newest page unless
   * asked) and a message-level diff against the previous call, made from
   * the two contexts' tails after the messages they share.
   */
  request(index: number, window?: ListWindow): RequestDetail {
    const list = this.list;
    const request = list[index];
    if (!request) throw new Error(`no request ${index}`);
    const at = this.messageNodesBefore(request.cut);
    const total = at.count;
    const w = clampWindow(window ?? { from: Math.max(0, total - REQUEST_PAGE), count: REQUEST_PAGE }, total);
    const messages = at.seqsFrom(w.from).slice(0, w.count).map((s) => at.message(s));
    const plain = plainRequestWith(request, messages);
    const messageWindow = { from: w.from, total };
    const previous = request.prefix.previous === null ? null : list[request.prefix.previous];
    if (!previous) return { request: plain, messageWindow, messageDiff: null };
    // The first `kept` messages are the same in both calls: only what follows them can differ.
    const kept = request.prefix.keptMessages;
    const before = this.messageNodesBefore(previous.cut);
    const removedFrom = new Set(before.seqsFrom(kept).map((s) => before.message(s).id));
    const addedTo = new Set(at.seqsFrom(kept).map((s) => at.message(s).id));
    return {
      request: plain,
      messageWindow,
      messageDiff: {
        kept,
        removed: [...removedFrom].filter((id) => !addedTo.has(id)),
        added: [...addedTo].filter((id) => !removedFrom.has(id)),
      },
    };
  }

  /** The exact loop request of a call as JSON text (to copy or download: every message, derived once). */
  requestJson(index: number): string {
    const request = this.list[index];
    if (!request) throw new Error(`no request ${index}`);
    return JSON.stringify(request.loopRequest, null, 2);
  }

  /** Each model call's logged usage, by call: derived when asked, not kept (a long session has thousands of calls). */
  tokens(): CallTokens[] {
    const replay = this.replay;
    return this.list.map((r, i) => tokensOfCall(r, i, (seq) => replay.indexOfSeq(seq)));
  }

  /** The last call whose cut is at or before `seq` (cuts ascend in call order). */
  callAtOrBefore(seq: number): ModelRequest | undefined {
    const list = this.list;
    return list[firstWhere(list.length, (i) => list[i].cut > seq) - 1];
  }

  /**
   * A call's request as the provider got it (core/requests/wire.ts): the body as JSON, and as a
   * cURL command when DSH's own adapter built it (the key a shell variable, never the log's).
   */
  providerCopy(index: number): RequestCopy {
    const request = this.list[index];
    if (!request) throw new Error(`no request ${index}`);
    const wire = providerRequest(request);
    return { kind: wire.kind, json: JSON.stringify(wire.body, null, 2), curl: wire.kind === 'deepseek' ? curlCommand(wire) : null, notes: wire.notes };
  }

  /** Every call's messages in cut order, from one forward walk (an export of each call's input). */
  messagesInOrder(): (cut: number) => CallMessages {
    return callMessagesInOrder(this.replay, this.prompts.surfaceTotals);
  }

  /** The surface before a cut: its message-bearing nodes and a way to read one's message. */
  messageNodesBefore(cut: number): CallMessages {
    return callMessagesAt(surfaceBeforeOf(this.replay), this.replay.session.eventAt, this.prompts.surfaceTotals.silent, cut);
  }
}
