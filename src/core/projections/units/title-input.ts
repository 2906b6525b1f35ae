import { z } from 'zod';
import type { LogEvent } from '../../log/types.ts';
import type { ProjectionUnit } from '../types.ts';
import { cleanTitleText } from './title-text.ts';

export interface TitlePrompt {
  seq: number;
  /** The prompt's text blocks joined by line feeds, as logged (not cleaned). */
  text: string;
}
export interface TitleInputState {
  first: TitlePrompt | null;
  count: number;
  lastSeq: number | null;
}

const EMPTY: TitleInputState = { first: null, count: 0, lastSeq: null };
const seq = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/**
 * The prompt a `user/message` gives a title, or undefined: only a human's
 * (source kind `user`), its text blocks joined by line feeds, and only when
 * something visible is left once cleaned. Reads the message as DSH does,
 * without guards: a message with no source or no content array throws.
 */
function titlePromptOf(event: LogEvent): TitlePrompt | undefined {
  if (event.type !== 'user/message') return undefined;
  const message = event.data as { source: { kind?: unknown }; content: { type?: unknown; text?: unknown }[] };
  if (message.source.kind !== 'user') return undefined;
  const text = message.content.filter((block) => block.type === 'text').map((block) => block.text).join('\n');
  return cleanTitleText(text).length === 0 ? undefined : { seq: event.seq, text };
}

/**
 * `titleInput` (dsh-log-rules J4.5; seed and 0.2.1-alpha.2, stateVersion 3): a
 * host-only unit the title service reads. The first human prompt with
 * visible text, how many there have been, and the seq of the last one.
 */
export const titleInputUnit: ProjectionUnit<TitleInputState, TitleInputState> = {
  key: 'titleInput',
  stateVersion: 3,
  hostOnly: true,
  stateSchema: z.object({
    first: z.object({ seq, text: z.string() }).strict().nullable(),
    count: z.number().int().nonnegative(),
    lastSeq: seq.nullable(),
  }).strict().refine(
    (s) => (s.first === null && s.lastSeq === null && s.count === 0) || (s.first !== null && s.lastSeq !== null && s.count > 0 && s.first.seq <= s.lastSeq),
    'title input state must pair its count with first and last message seqs',
  ),
  reads: ['user/message'],
  init: () => EMPTY,
  apply: (state, event) => {
    const prompt = titlePromptOf(event);
    if (prompt === undefined) return state;
    return { first: state.first ?? prompt, count: state.count + 1, lastSeq: prompt.seq };
  },
  view: (state) => state,
};
