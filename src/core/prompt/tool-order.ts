import type { ToolSchema } from './types.ts';

/** Tool ordering (dsh-log-rules P1.5). */

/** The rest entry of config `toolOrder`: where unlisted tools go. */
export const TOOL_ORDER_REST = '<unlisted-tools>';

/** Load-time check of config `toolOrder`: no duplicates, the rest marker present. */
export function validateToolOrder(toolOrder: readonly string[] | undefined): readonly string[] | undefined {
  if (toolOrder === undefined) return undefined;
  const seen = new Set<string>();
  for (const name of toolOrder) {
    if (seen.has(name)) throw new Error(`toolOrder lists "${name}" more than once`);
    seen.add(name);
  }
  if (!seen.has(TOOL_ORDER_REST)) {
    throw new Error(`toolOrder must contain the "${TOOL_ORDER_REST}" rest entry (where unlisted tools are inserted)`);
  }
  return toolOrder;
}

/** Locale-independent code-unit comparison. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const byName = (a: ToolSchema, b: ToolSchema) => compareCodeUnits(a.name, b.name);

/**
 * Assembly-time order: no toolOrder → name order; otherwise walk toolOrder,
 * the rest marker inserting every unlisted tool by name, a listed name every
 * collected tool so named (none, or several — no dedup).
 */
export function orderTools(tools: readonly ToolSchema[], toolOrder: readonly string[] | undefined, knownNames: ReadonlySet<string>): ToolSchema[] {
  if (tools.some((t) => t.name === TOOL_ORDER_REST)) {
    throw new Error(`tool provider returned reserved tool name "${TOOL_ORDER_REST}" (reserved for toolOrder's rest entry)`);
  }
  if (toolOrder === undefined) return tools.slice().sort(byName);
  const unknown = toolOrder.filter((n) => n !== TOOL_ORDER_REST && !knownNames.has(n));
  if (unknown.length > 0) {
    const known = [...knownNames].sort().join(', ') || '(none)';
    throw new Error(`toolOrder lists unregistered tool${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')}; known tools: ${known}`);
  }
  const listed = new Set(toolOrder);
  const rest = tools.filter((t) => !listed.has(t.name)).sort(byName);
  const out: ToolSchema[] = [];
  for (const name of toolOrder) {
    if (name === TOOL_ORDER_REST) out.push(...rest);
    else out.push(...tools.filter((t) => t.name === name));
  }
  return out;
}
