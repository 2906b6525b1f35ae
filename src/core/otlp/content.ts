import type { ContentBlock, Message } from '../messages/types.ts';
import type { AttributeValue } from './otlp-json.ts';

/**
 * Message content in the two shapes tracing backends read: the GenAI
 * conventions' message JSON (`{role, parts}`, docs/otlp.md) and
 * OpenInference's flattened `llm.input_messages.N.message.*` attributes.
 * Every text passes through `redact` (the export redactor, or the identity
 * for `--raw`).
 */

export type Redact = (text: string) => string;

/** A GenAI message part. */
type Part = Record<string, unknown> & { type: string };

/** The text a block holds as plain text (a tool result's content may be a string or a list of blocks). */
export function blockText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined ? '' : JSON.stringify(content);
  return content.map((b) => (b && typeof b === 'object' && typeof (b as ContentBlock).text === 'string' ? (b as ContentBlock).text as string : JSON.stringify(b))).join('\n');
}

function partOf(block: ContentBlock, redact: Redact): Part {
  switch (block.type) {
    case 'text': return { type: 'text', content: redact(String(block.text ?? '')) };
    case 'reasoning': return { type: 'reasoning', content: redact(String(block.text ?? '')) };
    case 'tool-call': return { type: 'tool_call', id: String(block.id ?? ''), name: String(block.name ?? ''), arguments: redact(typeof block.arguments === 'string' ? block.arguments : JSON.stringify(block.arguments ?? null)) };
    case 'tool-result': return { type: 'tool_call_response', id: String(block.toolCallId ?? ''), response: redact(blockText(block.content)) };
    case 'image': {
      const a = (block.attachment ?? {}) as Record<string, unknown>;
      // Image bytes are not in a DSH log: the part names the image only.
      return { type: 'image', mime_type: typeof a.mediaType === 'string' ? a.mediaType : undefined, name: typeof a.name === 'string' ? redact(a.name) : undefined };
    }
    default: return { type: block.type, content: redact(JSON.stringify(block)) };
  }
}

/** A DSH message as a GenAI message: V4 tool results (role `tool`) become one tool_call_response part. */
export function genAiMessage(m: Message, redact: Redact): { role: string; parts: Part[] } {
  if (m.role === 'tool') return { role: 'tool', parts: [{ type: 'tool_call_response', id: String(m.toolCallId ?? ''), response: redact(blockText(m.content)) }] };
  const parts = m.content.map((b) => partOf(b, redact));
  // ≤V3 tool results are user messages holding tool-result blocks: the conventions' role for them is `tool`.
  const role = m.role === 'user' && parts.length > 0 && parts.every((p) => p.type === 'tool_call_response') ? 'tool' : m.role;
  return { role, parts };
}

/** A message's text as one string (text blocks, then reasoning), for OpenInference's `message.content`. */
function plainText(m: { parts: Part[] }): string {
  return m.parts.map((p) => (typeof p.content === 'string' ? p.content : typeof p.response === 'string' ? p.response : '')).filter(Boolean).join('\n');
}

/** OpenInference's flattened messages under `prefix` (`llm.input_messages`), numbered from `from`. */
export function openInferenceMessages(prefix: string, messages: readonly { role: string; parts: Part[] }[], from = 0): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  messages.forEach((m, i) => {
    const at = `${prefix}.${from + i}.message`;
    out[`${at}.role`] = m.role;
    const text = plainText(m);
    if (text) out[`${at}.content`] = text;
    let k = 0;
    for (const p of m.parts) {
      if (p.type !== 'tool_call') continue;
      out[`${at}.tool_calls.${k}.tool_call.id`] = String(p.id);
      out[`${at}.tool_calls.${k}.tool_call.function.name`] = String(p.name);
      out[`${at}.tool_calls.${k}.tool_call.function.arguments`] = String(p.arguments);
      k++;
    }
    const response = m.parts.find((p) => p.type === 'tool_call_response');
    if (response) out[`${at}.tool_call_id`] = String(response.id);
  });
  return out;
}
