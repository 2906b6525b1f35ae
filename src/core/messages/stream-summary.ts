import type { LogEvent } from '../log/types.ts';

/**
 * What one streamed model output said, in a line (docs/open-and-navigate.md): the content
 * blocks it opened, the start of its text and reasoning, each tool call's
 * name and the start of its arguments, how it finished (its duration is in the
 * replay columns' times); from its
 * `assistant/chunk` events (StreamChunk shapes, dsh-log-rules L1.6d).
 */
export interface StreamSummary {
  chunks: number;
  /** Block kinds in the order they started (text, reasoning, tool-call…). */
  blocks: string[];
  text: string;
  reasoning: string;
  toolCalls: { id: string | null; name: string | null; arguments: string }[];
  finish: string | null;
  /** Output tokens its usage chunk reported. */
  outputTokens: number | null;
}

/** Previews keep this many characters of each text (the row shows one line). */
const KEEP = 160;

const add = (s: string, more: unknown) => (s.length >= KEEP || typeof more !== 'string' ? s : (s + more).slice(0, KEEP));

export function summarizeStream(events: readonly LogEvent[]): StreamSummary {
  const out: StreamSummary = { chunks: 0, blocks: [], text: '', reasoning: '', toolCalls: [], finish: null, outputTokens: null };
  const calls = new Map<string, StreamSummary['toolCalls'][number]>();
  for (const e of events) {
    if (e.type !== 'assistant/chunk') continue;
    out.chunks++;
    const c = e.data?.chunk;
    if (typeof c !== 'object' || c === null) continue;
    switch (c.type) {
      case 'block-start': if (typeof c.blockType === 'string') out.blocks.push(c.blockType); break;
      case 'text-delta': out.text = add(out.text, c.text); break;
      case 'reasoning-delta': out.reasoning = add(out.reasoning, c.text); break;
      case 'tool-call-delta': {
        const key = typeof c.id === 'string' && c.id ? c.id : `#${String(c.index)}`;
        let call = calls.get(key);
        if (!call) { call = { id: typeof c.id === 'string' && c.id ? c.id : null, name: null, arguments: '' }; calls.set(key, call); out.toolCalls.push(call); }
        if (typeof c.name === 'string' && c.name) call.name = c.name;
        call.arguments = add(call.arguments, c.argumentsDelta);
        break;
      }
      case 'usage': if (typeof c.usage?.outputTokens === 'number') out.outputTokens = c.usage.outputTokens; break;
      case 'finish': out.finish = typeof c.reason === 'string' ? c.reason : typeof c.reason?.kind === 'string' ? c.reason.kind : null; break;
    }
  }
  return out;
}

/** The summary as the events list's one-line preview. */
export function streamPreview(s: StreamSummary): string {
  const parts: string[] = [];
  if (s.reasoning) parts.push(`thinking "${s.reasoning.slice(0, 60)}${s.reasoning.length > 60 ? '…' : ''}"`);
  if (s.text) parts.push(`"${s.text.slice(0, 80)}${s.text.length > 80 ? '…' : ''}"`);
  for (const c of s.toolCalls) parts.push(`→ ${c.name ?? '(tool)'}(${c.arguments.slice(0, 60)}${c.arguments.length > 60 ? '…' : ''})`);
  if (s.finish) parts.push(`· ${s.finish}`);
  return parts.join(' ');
}
