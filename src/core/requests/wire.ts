import type { ContentBlock, Message } from '../messages/types.ts';
import type { LoopRequest, ModelRequest } from './build.ts';

/**
 * The HTTP request DSH's DeepSeek adapter sends for a model call
 * (docs/dsh-log-rules.md § The provider request), rebuilt from the call's
 * exact loop request: `POST {base}/chat/completions` with the OpenAI-style
 * chat body. The log holds neither the base URL nor the key: the base is
 * `$DEEPSEEK_BASE_URL` or the public endpoint, as DSH resolves it, and the
 * key is always the `$DEEPSEEK_API_KEY` placeholder — never anything from the log.
 * Other providers' bodies are built by a library DSH calls, so for them
 * only the loop request is exact.
 */

export const DEEPSEEK_PUBLIC_BASE = 'https://api.deepseek.com';
export const API_KEY_PLACEHOLDER = '$DEEPSEEK_API_KEY';

export interface ProviderRequest {
  /** `deepseek`: the body the DeepSeek adapter serialises; `loop`: another provider's, whose wire body is not DSH's, so the loop request stands in. */
  kind: 'deepseek' | 'loop';
  method: 'POST';
  /** The endpoint with the public base (the shell form reads `$DEEPSEEK_BASE_URL` first). */
  url: string | null;
  headers: [string, string][];
  body: unknown;
  /** What the copy cannot hold exactly (image bytes, a scrubbed fixture, another provider). */
  notes: string[];
}

type WireMessage = Record<string, unknown>;

const textOf = (blocks: readonly ContentBlock[], type = 'text') => blocks.filter((b) => b.type === type).map((b) => String(b.text ?? '')).join('');

/** A tool result's nested content as the adapter sends it: its text, or a stand-in when it has none. */
function resultText(content: unknown): string {
  if (typeof content === 'string') return content || '(no output)';
  const text = Array.isArray(content) ? textOf(content as ContentBlock[]) : '';
  return text || '(no output)';
}

function imagePart(block: ContentBlock, notes: Set<string>): WireMessage {
  const a = (block.attachment ?? {}) as Record<string, unknown>;
  notes.add('image bytes are not in a DSH log: each image is sent as a data URL the copy leaves empty');
  return { type: 'image_url', image_url: { url: `data:${typeof a.mediaType === 'string' ? a.mediaType : 'image/png'};base64,` } };
}

/** One DSH message as the adapter's wire messages (a user message with tool results becomes the user text, then one `tool` message each). */
function wireMessages(m: Message, notes: Set<string>): WireMessage[] {
  const blocks = m.content ?? [];
  switch (m.role) {
    case 'system': return [{ role: 'system', content: textOf(blocks) }];
    // Developer messages (tool additions and removals) are not sent when no tool update is configured (the viewer cannot know it).
    case 'developer': return [];
    case 'tool': return [{ role: 'tool', tool_call_id: String(m.toolCallId ?? ''), content: resultText(blocks) }];
    case 'assistant': {
      const out: WireMessage = { role: 'assistant', content: textOf(blocks) };
      const reasoning = textOf(blocks, 'reasoning');
      if (reasoning) out.reasoning_content = reasoning;
      const calls = blocks.filter((b) => b.type === 'tool-call');
      if (calls.length) out.tool_calls = calls.map((c) => ({ id: String(c.id ?? ''), type: 'function', function: { name: String(c.name ?? ''), arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {}) } }));
      return [out];
    }
    default: {
      const results = blocks.filter((b) => b.type === 'tool-result');
      const images = blocks.filter((b) => b.type === 'image');
      const out: WireMessage[] = [];
      const text = textOf(blocks);
      if (text || results.length === 0) {
        out.push({ role: 'user', content: images.length ? [...(text ? [{ type: 'text', text }] : []), ...images.map((b) => imagePart(b, notes))] : text });
      }
      for (const r of results) out.push({ role: 'tool', tool_call_id: String(r.toolCallId ?? ''), content: resultText(r.content) });
      return out;
    }
  }
}

/** Whether DSH's own DeepSeek adapter serves this provider id. */
export const isDeepSeekProvider = (provider: string | undefined): boolean => provider === 'deepseek-official';

/** The adapter's body: model, messages (the header's system prompt first), stream, thinking, tools, sampling. */
export function deepseekBody(loop: LoopRequest, notes: Set<string> = new Set()): Record<string, unknown> {
  const messages: WireMessage[] = [];
  if (typeof loop.system === 'string' && loop.system) messages.push({ role: 'system', content: loop.system });
  for (const m of loop.messages) messages.push(...wireMessages(m, notes));
  const body: Record<string, unknown> = { model: loop.model, messages, stream: true, stream_options: { include_usage: true } };
  const effort = loop.reasoningEffort;
  if (effort === 'off') body.thinking = { type: 'disabled' };
  else if (effort === 'low' || effort === 'high' || effort === 'max') { body.thinking = { type: 'enabled' }; body.reasoning_effort = effort; }
  else if (effort !== undefined) notes.add(`reasoning effort ${JSON.stringify(effort)} is not one the adapter sends`);
  if (Array.isArray(loop.tools) && loop.tools.length) {
    body.tools = loop.tools.map((t: { name?: unknown; description?: unknown; parameters?: unknown }) => ({ type: 'function', function: { name: t?.name, description: t?.description, parameters: t?.parameters } }));
  } else if (typeof loop.tools === 'string') notes.add('the tools were scrubbed from this fixture');
  if (loop.temperature !== undefined) body.temperature = loop.temperature;
  if (loop.maxTokens !== undefined) body.max_tokens = loop.maxTokens;
  if (loop.stop !== undefined) body.stop = loop.stop;
  if (typeof loop.system === 'string' && /^\{\{.*\}\}$/.test(loop.system)) notes.add('the system prompt was scrubbed from this fixture');
  return body;
}

/** The provider request of a model call. */
export function providerRequest(call: Pick<ModelRequest, 'loopRequest' | 'config'>): ProviderRequest {
  const loop = call.loopRequest;
  const provider = call.config?.provider ?? loop.provider;
  if (!isDeepSeekProvider(provider)) {
    return {
      kind: 'loop', method: 'POST', url: null, headers: [['content-type', 'application/json']], body: loop,
      notes: [`provider ${JSON.stringify(provider ?? '(none)')} is not DSH's DeepSeek adapter: its wire body is built outside DSH, so this is the exact loop request`],
    };
  }
  const notes = new Set<string>();
  const body = deepseekBody(loop, notes);
  const headers: [string, string][] = [
    ['authorization', `Bearer ${API_KEY_PLACEHOLDER}`],
    ['content-type', 'application/json'],
    ['accept', 'text/event-stream'],
  ];
  if (typeof loop.sessionId === 'string' && loop.sessionId) headers.push(['x-deepseek-harness-session-id', loop.sessionId]);
  return { kind: 'deepseek', method: 'POST', url: `${DEEPSEEK_PUBLIC_BASE}/chat/completions`, headers, body, notes: [...notes] };
}

/** A shell-safe single-quoted word. */
const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

/**
 * The request as a cURL command: the base from `$DEEPSEEK_BASE_URL` when
 * set (as DSH reads it), the key from `$DEEPSEEK_API_KEY`, the body on
 * standard input (a quoted here-document: nothing in it is expanded).
 */
export function curlCommand(request: ProviderRequest): string {
  if (request.kind !== 'deepseek') throw new Error(request.notes[0] ?? 'no provider request');
  const body = JSON.stringify(request.body);
  const lines = [`curl -sS -N "\${DEEPSEEK_BASE_URL:-${DEEPSEEK_PUBLIC_BASE}}/chat/completions"`];
  for (const [name, value] of request.headers) {
    // The key stays a variable the shell expands; every other value is quoted as it is.
    lines.push(name === 'authorization' ? `-H "authorization: Bearer \${DEEPSEEK_API_KEY}"` : `-H ${quote(`${name}: ${value}`)}`);
  }
  lines.push(`--data-binary @- <<'DSH_REQUEST_BODY'`);
  return `${lines.join(' \\\n  ')}\n${body}\nDSH_REQUEST_BODY\n`;
}
