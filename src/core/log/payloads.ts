import { z } from 'zod';
import type { Dialect, LogEvent } from './types.ts';

/**
 * Payload schemas for the events the core reads (spec §3, load-time checks
 * §4.7, E12/E14). Schemas are loose: unknown extra fields are allowed, and
 * nested content blocks are opaque beyond what the fold relies on — DSH's own
 * admission skips them too (§10.8). Surface rules live in the fold, not here.
 */
const nonEmpty = z.string().min(1);
const positive = z.number().int().positive();
const turnStep = { turn: positive, step: positive };

const source = z.object({ kind: nonEmpty }).loose();
const message = (role: string) =>
  z.object({ id: nonEmpty, role: z.literal(role), content: z.array(z.unknown()), source }).loose();

const modelSource = z.object({ kind: z.literal('model'), provider: nonEmpty, model: nonEmpty }).loose();
const assistantMessage = message('assistant').extend({ source: modelSource });

const toolResultBlock = z.object({ type: z.literal('tool-result'), toolCallId: nonEmpty, content: z.array(z.unknown()) }).loose();
const toolSource = z.object({ kind: z.literal('tool'), callId: nonEmpty }).loose();
const toolResultV0 = message('user')
  .extend({ source: toolSource, content: z.tuple([toolResultBlock]) })
  .refine((m) => m.source.callId === m.content[0].toolCallId, { message: 'source.callId must equal the tool-result block toolCallId' });
const toolResultV4 = message('tool')
  .extend({ source: toolSource, toolCallId: nonEmpty, isError: z.boolean().optional() })
  .refine((m) => m.source.callId === m.toolCallId, { message: 'source.callId must equal toolCallId' });

const requestConfig = z.object({
  provider: nonEmpty,
  model: nonEmpty,
  reasoningEffort: nonEmpty.optional(),
}).loose();

const schemas = (dialect: Dialect): Record<string, z.ZodType> => ({
  'turn/start': z.object({ turn: positive }).loose(),
  'turn/end': z.object({ turn: positive, reason: z.object({ kind: nonEmpty }).loose() }).loose(),
  'step/start': z.object(turnStep).loose(),
  'step/end': z.object(turnStep).loose(),
  'user/message': message('user'),
  'system/message': z.object({ ...turnStep, message: message('system') }).loose(),
  'developer/message': z.object({ ...turnStep, message: message('developer') }).loose(),
  'assistant/chunk': z.object({ ...turnStep, chunk: z.object({ type: nonEmpty }).loose() }).loose(),
  'assistant/message': z.object({ ...turnStep, message: assistantMessage }).loose(),
  'assistant/attempt': z.object({ ...turnStep, stream: z.array(z.unknown()) }).loose(),
  'tool/call': z.object({ ...turnStep, callId: nonEmpty, name: z.string(), arguments: z.string() }).loose(),
  'tool/result': z.object({ ...turnStep, message: dialect === 'v4' ? toolResultV4 : toolResultV0 }).loose(),
  'request/header': z.object({ header: z.object({ config: requestConfig }).loose(), reason: nonEmpty }).loose(),
  'request/context': z.object({ provider: nonEmpty, model: nonEmpty }).loose(),
  'todo/write': z.object({ todos: z.array(z.object({ content: z.string(), status: z.string() }).loose()) }).loose(),
  'session/end-seed': z.object({}).loose(),
});

/**
 * Sufficient conditions for the most numerous small payloads: when one holds,
 * the schema above holds too, so zod (which copies what it parses, and runs
 * without its JIT under the app's CSP) is skipped. When one fails, zod still
 * decides and words the finding. A test checks the implication on mutated payloads.
 */
const isPositiveInt = (v: unknown) => Number.isSafeInteger(v) && (v as number) > 0;
const isNonEmpty = (v: unknown) => typeof v === 'string' && v.length > 0;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const turnStepOk = (d: any) => isObject(d) && isPositiveInt(d.turn) && isPositiveInt(d.step);
const messageOk = (m: any, role: string) =>
  isObject(m) && isNonEmpty(m.id) && m.role === role && Array.isArray(m.content) && isObject(m.source) && isNonEmpty(m.source.kind);
const toolResultOk = (m: any, dialect: Dialect): boolean => {
  if (!isObject(m.source) || m.source.kind !== 'tool' || !isNonEmpty(m.source.callId)) return false;
  if (dialect === 'v4') return messageOk(m, 'tool') && isNonEmpty(m.toolCallId) && m.source.callId === m.toolCallId && (m.isError === undefined || typeof m.isError === 'boolean');
  const block: any = Array.isArray(m.content) && m.content.length === 1 ? m.content[0] : null;
  return messageOk(m, 'user') && isObject(block) && block.type === 'tool-result' && isNonEmpty(block.toolCallId)
    && Array.isArray(block.content) && m.source.callId === block.toolCallId;
};
export const QUICK_VALID: Record<string, (d: any, dialect: Dialect) => boolean> = {
  'turn/start': (d) => isObject(d) && isPositiveInt(d.turn),
  'turn/end': (d) => isObject(d) && isPositiveInt(d.turn) && isObject(d.reason) && isNonEmpty(d.reason.kind),
  'step/start': turnStepOk,
  'step/end': turnStepOk,
  'assistant/chunk': (d) => turnStepOk(d) && isObject(d.chunk) && isNonEmpty(d.chunk.type),
  'tool/call': (d) => turnStepOk(d) && isNonEmpty(d.callId) && typeof d.name === 'string' && typeof d.arguments === 'string',
  'user/message': (d) => messageOk(d, 'user'),
  'system/message': (d) => turnStepOk(d) && messageOk(d.message, 'system'),
  'developer/message': (d) => turnStepOk(d) && messageOk(d.message, 'developer'),
  'assistant/message': (d) => turnStepOk(d) && messageOk(d.message, 'assistant') && d.message.source.kind === 'model'
    && isNonEmpty(d.message.source.provider) && isNonEmpty(d.message.source.model),
  'tool/result': (d, dialect) => turnStepOk(d) && isObject(d.message) && toolResultOk(d.message, dialect),
  'request/header': (d) => isObject(d) && isNonEmpty(d.reason) && isObject(d.header) && isObject(d.header.config)
    && isNonEmpty(d.header.config.provider) && isNonEmpty(d.header.config.model)
    && (d.header.config.reasoningEffort === undefined || isNonEmpty(d.header.config.reasoningEffort)),
  'request/context': (d) => isObject(d) && isNonEmpty(d.provider) && isNonEmpty(d.model),
};

const cache = new Map<Dialect, Record<string, z.ZodType>>();

export interface PayloadProblem {
  path: string;
  message: string;
}

/** Checks one event's payload; returns the first problem or null. */
export function checkPayload(event: LogEvent, dialect: Dialect): PayloadProblem | null {
  let table = cache.get(dialect);
  if (!table) cache.set(dialect, (table = schemas(dialect)));
  const schema = table[event.type];
  if (!schema) return null;
  if (QUICK_VALID[event.type]?.(event.data, dialect)) return null;
  const result = schema.safeParse(event.data);
  if (result.success) return null;
  const issue = result.error.issues[0];
  const path = ['data', ...issue.path.map(String)].join('.');
  if (event.type === 'request/header' && issue.path[1] === 'config') {
    return { path, message: `request/header at index ${event.seq} lacks provider/model (${path}: ${issue.message})` };
  }
  return { path, message: `${path}: ${issue.message}` };
}
