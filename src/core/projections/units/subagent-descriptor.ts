/**
 * The `subagent/descriptor` payload check (dsh-log-rules J4.10; DSH
 * packages/subagent/subagent/src/descriptor.ts). A runtime knows one version:
 * 2 before format 4, 3 in 0.2.1-alpha.2 (its SUBAGENT_DESCRIPTOR_VERSION,
 * which adds `agentReasoningEffort` to a continuable child, dsh-log-rules V2).
 * Another number yields undefined; a malformed payload of the known one throws.
 */
export type DescriptorVersion = 2 | 3;

export interface Descriptor {
  mode: 'one-shot' | 'continuable';
  provider: string;
  label?: string;
}

const ONE_SHOT_KEYS = new Set(['version', 'mode', 'provider', 'label']);
const CONTINUABLE_KEYS = new Set([...ONE_SHOT_KEYS, 'agentProvider', 'agentModel', 'persona', 'toolFilter']);
const CONTINUABLE_KEYS_V3 = new Set([...CONTINUABLE_KEYS, 'agentReasoningEffort']);

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

export function parseDescriptor(value: unknown, known: DescriptorVersion = 2): Descriptor | undefined {
  if (!isRecord(value)) throw new Error('descriptor payload must be an object');
  if (typeof value.version !== 'number') throw new Error('descriptor version must be a number');
  if (value.version !== known) return undefined;
  const mode = value.mode;
  if (mode !== 'one-shot' && mode !== 'continuable') throw new Error('descriptor mode is invalid');
  const allowed = mode === 'one-shot' ? ONE_SHOT_KEYS : known === 3 ? CONTINUABLE_KEYS_V3 : CONTINUABLE_KEYS;
  const unknown = Object.keys(value).find((k) => !allowed.has(k));
  if (unknown !== undefined) throw new Error(`descriptor has unknown field "${unknown}"`);
  if (typeof value.provider !== 'string') throw new Error('descriptor provider must be a string');
  if (mode === 'continuable') {
    if (typeof value.label !== 'string') throw new Error('descriptor label must be a string');
    for (const k of ['agentProvider', 'agentModel', 'agentReasoningEffort', 'persona']) optionalString(value, k);
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
