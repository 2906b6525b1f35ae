import { isPlainObject } from '../util/json.ts';

/**
 * Message source kinds (dsh-log-rules L3.4; V4.2). A source is
 * attribution only: the model request never reads it, and readers keep kinds
 * they do not know as logged. The app labels the ones it knows and shows any
 * other kind by its own name, never dropping or rewriting it.
 */
const LABELS: Readonly<Record<string, string>> = {
  user: 'user',
  model: 'model',
  tool: 'tool result',
  'system-prompt': 'system prompt',
  'runtime-context': 'runtime context',
  'time-context': 'time context',
  'compact-checkpoint': 'compaction checkpoint',
  'compact-basic': 'compaction checkpoint',
  'ptc-mode': 'PTC mode',
  'model-selection': 'model selection',
  goal: 'goal round',
  'tool-registry': 'tool registry',
  // Same-version additions of 0.2.1-alpha.2 (V4.2).
  'working-directory': 'working directory',
  'user-question-reply': 'question reply',
  'tmux-context': 'tmux context',
};

/**
 * Each fixed text a source label may print, with a text the message's line
 * then holds (lower case): the kind it names, or the key that adds it ("question
 * reply" comes with its kind, `user-question-reply`; a "·" cannot be in a word a
 * search looks for). The whole-log search relies on this being complete
 * (search/line-prefilter.ts).
 */
export const SOURCE_LABEL_TRIGGERS: readonly (readonly [label: string, lineHolds: string])[] = [
  ...Object.entries(LABELS).map(([kind, label]) => [label, kind] as const),
  ['user via RPC', 'rpcid'],
  ['to', 'callid'],
  ['plugin', 'plugin'],
];

const MAX = 48;
const short = (s: string) => (s.length > MAX ? `${s.slice(0, MAX - 1)}…` : s);

/** The source kind as logged, or null when the message has none. */
export function sourceKind(source: unknown): string | null {
  return isPlainObject(source) && typeof source.kind === 'string' ? source.kind : null;
}

/** A short plain-text label for a message source; unknown kinds by name. */
export function sourceLabel(source: unknown): string | null {
  const kind = sourceKind(source);
  if (kind === null || !isPlainObject(source)) return null;
  // The `user` kind with rpcId: a prompt that came in over the RPC/SDK channel.
  if (kind === 'user' && typeof source.rpcId === 'string') return `user via RPC ${short(source.rpcId)}`;
  if (kind === 'user-question-reply') {
    const outcome = typeof source.outcome === 'string' ? source.outcome : null;
    const call = typeof source.callId === 'string' ? ` to ${short(source.callId)}` : '';
    return `question reply${outcome ? ` (${outcome})` : ''}${call}`;
  }
  // rc.8–V3 plugin sources, and V4's `plugin:<name>` kinds of migrated plugins (L3.4).
  if (kind === 'plugin') {
    const form = typeof source.form === 'string' ? ` · ${short(source.form)}` : '';
    return `plugin ${typeof source.plugin === 'string' ? short(source.plugin) : ''}`.trim() + form;
  }
  if (kind.startsWith('plugin:')) return `plugin ${short(kind.slice('plugin:'.length))}`;
  // Own keys only: a kind named like an Object property ("constructor") is shown by its name.
  return (Object.hasOwn(LABELS, kind) ? LABELS[kind] : undefined) ?? short(kind);
}

/**
 * The label a list shows before a message preview: none for the kinds a
 * role already says (a user's prompt, a model reply, a tool result, the
 * system prompt).
 */
export function sourceTag(source: unknown): string | null {
  const kind = sourceKind(source);
  if (kind === 'model' || kind === 'tool' || kind === 'system-prompt') return null;
  if (kind === 'user' && !(isPlainObject(source) && typeof source.rpcId === 'string')) return null;
  return sourceLabel(source);
}
