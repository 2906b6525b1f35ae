/**
 * The `subagent/descriptor` payload check (spec §4.10; DSH
 * packages/subagent/subagent/src/descriptor.ts). Only version 2 is known:
 * another number yields undefined, a malformed version-2 payload throws.
 */
export interface Descriptor {
  mode: 'one-shot' | 'continuable';
  provider: string;
  label?: string;
}

const ONE_SHOT_KEYS = new Set(['version', 'mode', 'provider', 'label']);
const CONTINUABLE_KEYS = new Set([...ONE_SHOT_KEYS, 'agentProvider', 'agentModel', 'persona', 'toolFilter']);

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function optionalString(o: Record<string, unknown>, key: string): void {
  if (Object.hasOwn(o, key) && typeof o[key] !== 'string') throw new Error(`descriptor ${key} must be a string`);
}

function checkToolFilter(v: unknown): void {
  if (!isRecord(v)) throw new Error('descriptor toolFilter must be an object');
  const keys = Object.keys(v);
  if (keys.some((k) => k !== 'allow' && k !== 'deny') || keys.length === 0) throw new Error('descriptor toolFilter must declare allow and/or deny');
  for (const k of keys) {
    const list = v[k];
    if (!Array.isArray(list) || list.some((s) => typeof s !== 'string')) throw new Error(`descriptor toolFilter.${k} must be strings`);
  }
}

export function parseDescriptor(value: unknown): Descriptor | undefined {
  if (!isRecord(value)) throw new Error('descriptor payload must be an object');
  if (typeof value.version !== 'number') throw new Error('descriptor version must be a number');
  if (value.version !== 2) return undefined;
  const mode = value.mode;
  if (mode !== 'one-shot' && mode !== 'continuable') throw new Error('descriptor mode is invalid');
  const allowed = mode === 'one-shot' ? ONE_SHOT_KEYS : CONTINUABLE_KEYS;
  const unknown = Object.keys(value).find((k) => !allowed.has(k));
  if (unknown !== undefined) throw new Error(`descriptor has unknown field "${unknown}"`);
  if (typeof value.provider !== 'string') throw new Error('descriptor provider must be a string');
  if (mode === 'continuable') {
    if (typeof value.label !== 'string') throw new Error('descriptor label must be a string');
    for (const k of ['agentProvider', 'agentModel', 'persona']) optionalString(value, k);
    if (Object.hasOwn(value, 'toolFilter')) checkToolFilter(value.toolFilter);
  } else {
    optionalString(value, 'label');
  }
  return {
    mode,
    provider: value.provider,
    ...(Object.hasOwn(value, 'label') ? { label: value.label as string } : {}),
  };
}
