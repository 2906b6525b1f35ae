import type { LogEvent } from '../log/types.ts';

/**
 * Which messages are which, read off one event: the surface ledger and the
 * prompt analyses both sort messages by these (dsh-log-rules P3.4, P5.1),
 * so they live below both.
 */

export const RUNTIME_CONTEXT_PLUGIN = '@deepseek-ai/dsh-system-prompt';

/** P3.4 ownership test, valid in every version. */
export function isRuntimeContextEvent(event: LogEvent): boolean {
  if (event.type !== 'user/message') return false;
  const source = event.data?.source;
  return source?.kind === 'runtime-context' || (source?.kind === 'plugin' && source?.plugin === RUNTIME_CONTEXT_PLUGIN);
}

/** The P5.1 text class of a system message's content. */
export function systemText(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  if (content.length === 0) return '';
  if (content.length === 1 && content[0]?.type === 'text' && typeof content[0].text === 'string') return content[0].text;
  return undefined;
}
