import type { ModelRequest } from '../requests/build.ts';
import type { BreakReason } from '../requests/prefix.ts';

/**
 * One model call as a line an agent reads (`dsh-devtools calls --json`):
 * where it is, what it was sent, what it cost, why its cache broke, how it ended.
 */
export interface CallLine {
  /** 1-based, as the app numbers calls. */
  call: number;
  /** The seq the call is cut at (the scrubber and `--at` take it). */
  seq: number;
  turnStep: string;
  attempt: number;
  model: string | null;
  messages: number;
  /** Leading messages the call shares with the one before (its cached prefix). */
  keptMessages: number;
  inputTokens: number | null;
  outputTokens: number | null;
  cacheReadTokens: number | null;
  /** Why the cached prefix broke (null: the call extends the one before). */
  cacheBreak: BreakReason[] | null;
  outcome: string | null;
}

const count = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export function callLine(r: ModelRequest): CallLine {
  return {
    call: r.index + 1,
    seq: r.cut,
    turnStep: `${r.turn}.${r.step}`,
    attempt: r.attempt,
    model: r.config ? `${r.config.provider}/${r.config.model}` : null,
    messages: r.messageCount,
    keptMessages: r.prefix.keptMessages,
    inputTokens: count(r.usage?.inputTokens),
    outputTokens: count(r.usage?.outputTokens),
    cacheReadTokens: count(r.usage?.cacheReadTokens),
    cacheBreak: r.prefix.previous === null || r.prefix.extendsPrevious ? null : r.prefix.reasons,
    outcome: r.outcome ?? null,
  };
}
