import { z } from 'zod';
import { isAbsolutePath } from './header.ts';
import type { Dialect, LogEvent } from './types.ts';

/**
 * Payload schemas for the events the core reads (dsh-log-rules L3, load-time checks
 * L4.7, E12/E14). Schemas are loose: unknown extra fields are allowed, and
 * nested content blocks are opaque beyond what the fold relies on — DSH's own
 * admission skips them too (L10.8). Surface rules live in the fold, not here.
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

/** Why a request header was written (newest DSH, P4; dsh-log-rules V2). */
const HEADER_REASONS = ['initial', 'resume', 'change', 'series'] as const;
const headerReasons: ReadonlySet<unknown> = new Set(HEADER_REASONS);

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
  // Format 4's system prompt has its own source kind (L3; DSH refuses another on restore).
  'system/message': z.object({ ...turnStep, message: dialect === 'v4' ? message('system').extend({ source: z.object({ kind: z.literal('system-prompt') }).loose() }) : message('system') }).loose(),
  'developer/message': z.object({ ...turnStep, message: message('developer') }).loose(),
  'assistant/chunk': z.object({ ...turnStep, chunk: z.object({ type: nonEmpty }).loose() }).loose(),
  // From format 2 a reply carries its stream (L3); DSH refuses one without it on restore.
  // Checked in formats 3 and 4 (their own dialects); a format-2 log is read with rc.8's rules.
  'assistant/message': z.object({ ...turnStep, message: assistantMessage, ...(dialect === 'v0' ? {} : { stream: z.array(z.unknown()) }) }).loose(),
  'assistant/attempt': z.object({ ...turnStep, stream: z.array(z.unknown()) }).loose(),
  'tool/call': z.object({ ...turnStep, callId: nonEmpty, name: z.string(), arguments: z.string() }).loose(),
  'tool/result': z.object({ ...turnStep, message: dialect === 'v4' ? toolResultV4 : toolResultV0 }).loose(),
  'request/header': dialect === 'v4'
    ? z.object({ header: z.object({ config: requestConfig }).loose(), reason: z.enum(HEADER_REASONS), startsSeries: z.literal(true).optional() }).loose()
    : z.object({ header: z.object({ config: requestConfig }).loose(), reason: nonEmpty }).loose(),
  'request/context': z.object({ provider: nonEmpty, model: nonEmpty }).loose(),
  'todo/write': z.object({ todos: z.array(z.object({ content: z.string(), status: z.string() }).loose()) }).loose(),
  'session/end-seed': z.object({}).loose(),
  // Background jobs (dsh-log-rules V6): the id pairs a settlement with its registration; every
  // other field is optional and shown as logged.
  'job/registered': z.object({ id: nonEmpty }).loose(),
  'job/settled': z.object({ id: nonEmpty }).loose(),
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
  'system/message': (d, dialect) => turnStepOk(d) && messageOk(d.message, 'system') && (dialect !== 'v4' || d.message.source.kind === 'system-prompt'),
  'developer/message': (d) => turnStepOk(d) && messageOk(d.message, 'developer'),
  'assistant/message': (d, dialect) => turnStepOk(d) && messageOk(d.message, 'assistant') && d.message.source.kind === 'model'
    && isNonEmpty(d.message.source.provider) && isNonEmpty(d.message.source.model) && (dialect === 'v0' || Array.isArray(d.stream)),
  'tool/result': (d, dialect) => turnStepOk(d) && isObject(d.message) && toolResultOk(d.message, dialect),
  'request/header': (d, dialect) => isObject(d) && isNonEmpty(d.reason) && isObject(d.header) && isObject(d.header.config)
    && isNonEmpty(d.header.config.provider) && isNonEmpty(d.header.config.model)
    && (d.header.config.reasoningEffort === undefined || isNonEmpty(d.header.config.reasoningEffort))
    && (dialect !== 'v4' || (headerReasons.has(d.reason) && (d.startsSeries === undefined || d.startsSeries === true))),
  'request/context': (d) => isObject(d) && isNonEmpty(d.provider) && isNonEmpty(d.model),
};

const cache = new Map<Dialect, Record<string, z.ZodType>>();

export interface PayloadProblem {
  path: string;
  message: string;
}

/** A payload check of one event type: the first problem, or null. */
export type PayloadCheck = (event: LogEvent) => PayloadProblem | null;

/**
 * The payload check of one event type in a dialect, or null when the core
 * has no schema for the type. A reader resolves it once per type, so an
 * event costs one lookup of its type rather than one per table.
 */
export function payloadCheckOf(type: string, dialect: Dialect): PayloadCheck | null {
  let table = cache.get(dialect);
  if (!table) cache.set(dialect, (table = schemas(dialect)));
  const schema = table[type];
  if (!schema) return null;
  const quick = QUICK_VALID[type];
  return (event) => (quick?.(event.data, dialect) ? null : schemaProblem(event, schema));
}

/** Checks one event's payload; returns the first problem or null. */
export function checkPayload(event: LogEvent, dialect: Dialect): PayloadProblem | null {
  return payloadCheckOf(event.type, dialect)?.(event) ?? null;
}

function schemaProblem(event: LogEvent, schema: z.ZodType): PayloadProblem | null {
  const result = schema.safeParse(event.data);
  if (result.success) return null;
  const issue = result.error.issues[0];
  const path = ['data', ...issue.path.map(String)].join('.');
  if (event.type === 'request/header' && issue.path[1] === 'config') {
    return { path, message: `request/header at index ${event.seq} lacks provider/model (${path}: ${issue.message})` };
  }
  return { path, message: `${path}: ${issue.message}` };
}

/**
 * Payload versions (`data.version`) this app knows. DSH may add a version
 * alternative without a format bump (V4.1), so a number outside the
 * list means a newer DSH wrote it, not that the log is broken.
 */
export const KNOWN_PAYLOAD_VERSIONS: Readonly<Record<string, readonly number[]>> = {
  // v1 adds mode 'unknown', v2 is exactly mode 'external' (V4.2).
  'subagent/catalog': [0, 1, 2],
  // The only goal change version (J4.2).
  'goal/change': [1],
};

/** A `data.version` of a versioned payload that this app does not know, or null. */
export function checkPayloadVersion(event: LogEvent): PayloadProblem | null {
  const known = KNOWN_PAYLOAD_VERSIONS[event.type];
  if (!known || !isObject(event.data)) return null;
  const version = event.data.version;
  if (typeof version !== 'number' || known.includes(version)) return null;
  return { path: 'data.version', message: `${event.type} payload version ${version} is newer than this app knows (it reads version${known.length > 1 ? 's' : ''} ${known.join(', ')})` };
}

/** Whether checkPayloadVersion or checkCatalogShape can find anything in an event of this type. */
export function hasNewerPayloadChecks(type: string): boolean {
  return Object.hasOwn(KNOWN_PAYLOAD_VERSIONS, type) || type === 'working-directory/change' || type === 'subagent/catalog';
}

const CATALOG_MODES = new Set(['continuable', 'one-shot', 'unknown', 'external']);

/**
 * The catalog fact of a `subagent/catalog` payload, as 0.2.1-alpha.2's
 * V3→V4 migration validates it (V4.2, `catalogFact`): v2 ⇔ mode
 * external, v0 has no mode unknown, a continuable child has a label.
 */
function catalogProblem(d: Record<string, unknown>): PayloadProblem | null {
  const at = (path: string, message: string) => ({ path, message });
  if (typeof d.childId !== 'string') return at('data.childId', 'subagent/catalog childId must be a string');
  if (!Number.isSafeInteger(d.childCreatedAt) || (d.childCreatedAt as number) < 0) return at('data.childCreatedAt', 'subagent/catalog childCreatedAt must be a non-negative integer');
  if (typeof d.mode !== 'string' || !CATALOG_MODES.has(d.mode)) return at('data.mode', 'subagent/catalog mode must be continuable, one-shot, unknown or external');
  if ((d.version === 2) !== (d.mode === 'external')) return at('data.mode', `subagent/catalog version ${String(d.version)} cannot have mode ${d.mode} (version 2 is exactly mode external)`);
  if (d.version === 0 && d.mode === 'unknown') return at('data.mode', 'subagent/catalog version 0 has no mode unknown');
  if (d.label !== undefined && typeof d.label !== 'string') return at('data.label', 'subagent/catalog label must be a string');
  if (d.mode === 'continuable' && typeof d.label !== 'string') return at('data.label', 'a continuable subagent/catalog entry needs a label');
  return null;
}

/**
 * Shapes from the 0.2.1-alpha.2 catalog that DSH's restore checks do not
 * refuse a log for (dsh-log-rules V2, V4.2): a mismatch is shown, never a refusal.
 * Some units read them strictly and stop at a bad one (working directory,
 * the subagent catalog): the projections panel shows that at its seq.
 */
export function checkCatalogShape(event: LogEvent, dialect: Dialect): PayloadProblem | null {
  const d = event.data;
  if (event.type === 'working-directory/change' && dialect === 'v4') {
    // An absolute directory (V4.4); the unit's view schema says the same.
    if (!isObject(d) || typeof d.cwd !== 'string' || !isAbsolutePath(d.cwd)) {
      return { path: 'data.cwd', message: 'working-directory/change cwd must be an absolute path' };
    }
  }
  if (event.type === 'subagent/catalog' && dialect !== 'v0') {
    if (!isObject(d)) return { path: 'data', message: 'subagent/catalog payload must be an object' };
    if (typeof d.version !== 'number') return { path: 'data.version', message: 'subagent/catalog needs a numeric version' };
    // An unknown version is reported by checkPayloadVersion; its shape is not ours to judge.
    if (!KNOWN_PAYLOAD_VERSIONS['subagent/catalog'].includes(d.version)) return null;
    return catalogProblem(d);
  }
  return null;
}
