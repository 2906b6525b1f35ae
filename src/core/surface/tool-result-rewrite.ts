import type { LogEvent } from '../log/types.ts';
import { isPlainObject, jsonEqual } from '../util/json.ts';
import type { SurfaceContext } from './types.ts';

/**
 * Tool-result replacement (dsh-log-rules L4.4, E9): pruning may shrink a tool output
 * but must keep everything else — one node, a tool/result, equal data once
 * the result content is blanked. rc.8 blanks the inner block's content; V4
 * tool messages carry content directly.
 */
export function checkToolResultRewrite(event: LogEvent, shadowed: number[], ctx: SurfaceContext): string | null {
  if (shadowed.length !== 1) return 'tool/result surface replacement must rewrite exactly one current node';
  const target = ctx.eventAt(shadowed[0]);
  if (!target || target.type !== 'tool/result') return 'tool/result surface replacement must target a current tool/result';
  const blank = ctx.dialect === 'v4' ? blankV4 : blankV0;
  if (!jsonEqual(blank(event.data), blank(target.data))) return 'tool/result surface replacement may change only content';
  return null;
}

function blankV0(data: unknown): unknown {
  if (!isPlainObject(data) || !isPlainObject(data.message) || !Array.isArray(data.message.content)) return data;
  const [first, ...rest] = data.message.content;
  const block = isPlainObject(first) ? { ...first, content: null } : first;
  return { ...data, message: { ...data.message, content: [block, ...rest] } };
}

function blankV4(data: unknown): unknown {
  if (!isPlainObject(data) || !isPlainObject(data.message)) return data;
  return { ...data, message: { ...data.message, content: null } };
}
