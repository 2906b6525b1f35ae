import { isPluginRecordType } from '../log/event-types.ts';

/**
 * Event families: how the timeline colours and filters events. A display
 * grouping only — no DSH rule depends on it.
 */
export const FAMILIES = ['boundary', 'message', 'chunk', 'request', 'tool', 'projection', 'compaction', 'plugin', 'job', 'other'] as const;
export type Family = (typeof FAMILIES)[number];

export function familyOf(type: string): Family {
  // Plugin records (dsh-log-rules V4.3): their own lane, never folded into the surface.
  if (isPluginRecordType(type)) return 'plugin';
  if (type === 'turn/start' || type === 'turn/end' || type === 'step/start' || type === 'step/end' || type === 'session/end-seed') return 'boundary';
  if (type.endsWith('/message')) return 'message';
  if (type === 'assistant/chunk' || type === 'assistant/attempt') return 'chunk';
  if (type.startsWith('request/') || type.startsWith('llm/')) return 'request';
  if (type.startsWith('tool') || type.startsWith('approval/')) return 'tool';
  if (type.startsWith('compaction/') || type === 'image/offload') return 'compaction';
  // Background jobs (V6): their own lane beside the Jobs bars.
  if (type.startsWith('job/')) return 'job';
  if (type.includes('/')) return 'projection';
  return 'other';
}
