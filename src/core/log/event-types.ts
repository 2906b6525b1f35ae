import type { Dialect, LogEvent } from './types.ts';

/**
 * DSH's event vocabulary (dsh-log-rules L3). A type outside the vocabulary of the
 * log's dialect is unknown: required unless marked `ignorable` (L2.3).
 */
/** rc.8's 48 types (KNOWN_SESSION_EVENT_TYPES of 0.1.0-rc.8). */
const RC8_TYPES = [
  // core execution (L3.1)
  'turn/start', 'turn/end', 'step/start', 'step/end',
  'user/message', 'assistant/chunk', 'assistant/message',
  'tool/call', 'tool/result', 'request/header', 'request/context',
  'todo/write', 'session/end-seed',
  // compaction (L3.2)
  'compaction/start', 'compaction/summary', 'compaction/end', 'compaction/prune',
  // plugin-owned, log-only (L3.3)
  'agent/inbox/spliced', 'agent-preset/selected',
  'approval/asked', 'approval/decided', 'approval/policy', 'sandbox/mode',
  'permission/preset', 'plan/mode',
  'command/run', 'command/done', 'feedback/record',
  'goal/change', 'schedule/change', 'hook/invoked', 'hook/result',
  'llm/retry', 'llm/retry-started', 'session/title', 'session/title-llm-request',
  'subagent/descriptor',
  'team/member', 'team/task', 'team/message/queued', 'team/message/delivered',
  'tool-workflow/run-start', 'tool-workflow/agent-start', 'tool-workflow/agent-end', 'tool-workflow/run-end',
  'tool/code-dispatch-start', 'tool/code-dispatch',
  'web/deepseek-search-llm-request',
] as const;

/** Added after rc.8 and known to V3/V4-era readers. */
const LATER_TYPES = [
  'model/selection', 'subagent/model-selection-policy',
  'system/message', 'assistant/attempt', 'feedback/message-put', 'feedback/message-delete',
  'subagent/catalog', 'tool/ptc-dispatch-start', 'tool/ptc-dispatch',
  'deliverables/presented', 'workspace/changes', 'session-log-deepseek/delivery-accepted',
] as const;
const V4_ONLY_TYPES = ['developer/message', 'image/offload'] as const;
/**
 * Added to format 4 without a format bump (dsh-log-rules V2–V3, V6): 0.2.1-alpha.2's
 * catalog has 60 types, our V4 list the other 59; 0.2.1-rc.2 adds the two
 * background-job records (log-only). Logs keep `version: 4`, so the V4
 * dialect admits them (older format-4 builds refuse them, dsh-log-rules V3).
 */
const V4_SAME_VERSION_TYPES = ['working-directory/change', 'job/registered', 'job/settled'] as const;
/** Dropped by V2/V3 (chunks moved into assistant/message; code-dispatch renamed). */
const RETIRED_AFTER_V0 = new Set(['assistant/chunk', 'tool/code-dispatch-start', 'tool/code-dispatch']);

const V0_SET: ReadonlySet<string> = new Set<string>(RC8_TYPES);
const V3_SET: ReadonlySet<string> = new Set<string>(
  [...RC8_TYPES, ...LATER_TYPES].filter((t) => !RETIRED_AFTER_V0.has(t)),
);
const V4_SET: ReadonlySet<string> = new Set<string>([...V3_SET, ...V4_ONLY_TYPES, ...V4_SAME_VERSION_TYPES]);

export function knownEventTypes(dialect: Dialect): ReadonlySet<string> {
  return dialect === 'v0' ? V0_SET : dialect === 'v3' ? V3_SET : V4_SET;
}

/**
 * Plugin records (V4.3): `plugin:` then lowercase slash-separated
 * segments (`plugin:translator/request`, `plugin:test.bridge/entry_1`), written
 * with `ignorable: true` and no surface fields, outside the known vocabulary.
 * A segment may not be empty or start with `-`.
 */
const PLUGIN_RECORD_TYPE = /^plugin:[a-z0-9][a-z0-9._-]*(?:\/[a-z0-9][a-z0-9._-]*)*$/;

export function isPluginRecordType(type: string): boolean {
  return type.startsWith('plugin:') && PLUGIN_RECORD_TYPE.test(type);
}

/** A plugin record as DSH writes it: the grammar above and the ignorable marker (L2.3, V4.3). */
export function isPluginRecord(event: { type: string; ignorable?: true }): boolean {
  return event.ignorable === true && isPluginRecordType(event.type);
}

/** The first format whose vocabulary has `type`, for messages about a log that says an older one. */
export function laterDialectKnowing(type: string, dialect: Dialect): Dialect | null {
  if (dialect === 'v0' && V3_SET.has(type)) return 'v3';
  if (dialect !== 'v4' && V4_SET.has(type)) return 'v4';
  return null;
}

/** Types whose events become surface nodes and must carry `surfaceOp` (L4.1). */
const SURFACE_V0 = new Set(['user/message', 'assistant/message', 'tool/result']);
const SURFACE_V3 = new Set([...SURFACE_V0, 'system/message']);
const SURFACE_V4 = new Set([...SURFACE_V3, 'developer/message']);

export function surfaceEventTypes(dialect: Dialect): ReadonlySet<string> {
  return dialect === 'v0' ? SURFACE_V0 : dialect === 'v3' ? SURFACE_V3 : SURFACE_V4;
}

/**
 * Whether an event belongs to the human transcript (L7, DSH's `isAppendSurfaceEvent`): a surface
 * type of the dialect appended by intent, whatever the fold made of it. An unknown type with a
 * `surfaceOp` stays opaque (L2.3), so it is not one.
 */
export function isAppendSurfaceEvent(event: Pick<LogEvent, 'type' | 'surfaceOp'>, dialect: Dialect): boolean {
  return event.surfaceOp === 'append' && surfaceEventTypes(dialect).has(event.type);
}

/** Log-only events that rewrite earlier messages' content (L6.4). */
export const MESSAGE_PROJECTION_TYPES: ReadonlySet<string> = new Set(['image/offload']);

/** Packed chunk row tags (L1.6c): bare, slash-less, like `session`. */
export const PACKED_ROW_TYPES: ReadonlySet<string> = new Set(['text-chunks', 'reasoning-chunks', 'tool-call-chunks']);

export function dialectOf(version: number): Dialect {
  if (version >= 4) return 'v4';
  if (version === 3) return 'v3';
  return 'v0';
}
