import type { DiagnosticCode } from '../diagnostics/diagnostic.ts';
import { knownEventTypes, MESSAGE_PROJECTION_TYPES, surfaceEventTypes } from '../log/event-types.ts';
import type { LogEvent } from '../log/types.ts';
import { hasExactKeys, isPlainObject, isSeq } from '../util/json.ts';
import { checkDeveloperRules, checkEventLocalV4 } from './developer-rules.ts';
import { messageInterpreters } from './message-projections.ts';
import { checkToolResultRewrite } from './tool-result-rewrite.ts';
import type { SurfaceContext, SurfacePlan, SurfaceState } from './types.ts';

/**
 * Plans one event against the current surface without changing it (dsh-log-rules
 * L4.8–L4.9). The full fold, the replay index and the checks all go through
 * this one function and applySurfacePlan — never a second copy of a rule.
 * Checks run in DSH's order, and the first failure is the plan's rejection.
 */
export function planSurfaceEvent(state: SurfaceState, event: LogEvent, ctx: SurfaceContext): SurfacePlan {
  const { seq, type } = event;
  const v0 = ctx.dialect === 'v0';

  // 2. Surface marker (L4.1, E5).
  if (!surfaceEventTypes(ctx.dialect).has(type)) {
    // Unknown types stay opaque: E5 judges known log-only types, and a required
    // unknown one is already reported as newer than this app (L2.3, E4) — it may
    // be a newer surface type. V3+ keeps unknown ignorable events opaque too;
    // rc.8 still checks their marker.
    if ((!v0 || !event.ignorable) && !knownEventTypes(ctx.dialect).has(type)) return { kind: 'none', seq };
    if (event.surfaceOp !== undefined) return rejectAt(seq, 'surface.marker', `session event "${type}" is not surface-eligible and cannot carry surfaceOp`);
    if (event.sourceEventSeqs !== undefined) return rejectAt(seq, 'surface.marker', `session event "${type}" is not surface-eligible and cannot carry sourceEventSeqs`);
    if (ctx.dialect === 'v4') {
      const local = checkEventLocalV4(event);
      if (local) return rejectAt(seq, 'surface.event-local', local);
      if (MESSAGE_PROJECTION_TYPES.has(type)) return planProjection(state, event, ctx);
    }
    return { kind: 'none', seq };
  }

  const op = event.surfaceOp;
  if (op === undefined) return rejectAt(seq, 'surface.marker', `session event "${type}" is surface-eligible and requires a surfaceOp marker`);
  let endpoints: { start: number; end: number } | null = null;
  if (op !== 'append') {
    if (!isPlainObject(op)) return rejectAt(seq, 'surface.op', `session event "${type}" carries an invalid surfaceOp`);
    const keys = v0 ? ['op', 'start', 'end'] : ['op', 'startSeq', 'endSeq'];
    const o = op as Record<string, unknown>;
    if (!hasExactKeys(o, keys) || o.op !== 'replace' || !isSeq(o[keys[1]]) || !isSeq(o[keys[2]])) {
      const renamed = v0 ? 'startSeq' in o : 'start' in o;
      const hint = renamed ? ` (format ${v0 ? '0–2 uses start/end' : '3+ uses startSeq/endSeq'})` : '';
      return rejectAt(seq, 'surface.op', `session event "${type}" carries an invalid replace surfaceOp${hint}`);
    }
    endpoints = { start: o[keys[1]] as number, end: o[keys[2]] as number };
    if (ctx.dialect === 'v4' && (endpoints.start >= seq || endpoints.end >= seq)) {
      return rejectAt(seq, 'surface.op', `surface replace at seq ${seq}: endpoints must reference earlier events`);
    }
  }

  // 3. sourceEventSeqs (L4.3, E8).
  const sources = event.sourceEventSeqs;
  if (sources !== undefined) {
    const problem = checkSources(sources, event, v0);
    if (problem) return rejectAt(seq, 'surface.sources', problem);
  }

  // 4. V4 developer and event-local rules (L4.6–L4.7).
  if (ctx.dialect === 'v4') {
    const developer = checkDeveloperRules(event, ctx);
    if (developer) return rejectAt(seq, 'surface.developer', developer);
    const local = checkEventLocalV4(event);
    if (local) return rejectAt(seq, 'surface.event-local', local);
  }

  if (!endpoints) return { kind: 'append', seq };

  // 5. Replace (L4.2, L4.4, L4.5).
  const { start, end } = endpoints;
  const startIndex = state.nodes.indexOf(start);
  if (startIndex < 0) return rejectAt(seq, 'surface.endpoint', `surface replace: start seq ${start} not found in surface`);
  const endIndex = state.nodes.indexOf(end);
  if (endIndex < 0) return rejectAt(seq, 'surface.endpoint', `surface replace: end seq ${end} not found in surface`);
  if (startIndex > endIndex) return rejectAt(seq, 'surface.endpoint', `surface replace: start seq ${start} (index ${startIndex}) is after end seq ${end} (index ${endIndex})`);
  const shadowed = state.nodes.slice(startIndex, endIndex + 1);
  const cited = new Set(sources ?? []);
  const missing = shadowed.filter((s) => !cited.has(s));
  if (missing.length) return rejectAt(seq, 'surface.uncovered', `surface replace: sourceEventSeqs must include every shadowed surface node; missing ${missing.join(', ')}`);
  if (type === 'tool/result') {
    const problem = checkToolResultRewrite(event, shadowed, ctx);
    if (problem) return rejectAt(seq, 'surface.tool-result-rewrite', problem);
  }
  if (!v0 && startIndex === 0 && ctx.eventAt(state.nodes[0])?.type === 'system/message') {
    if (type !== 'system/message' || shadowed.length !== 1) {
      return rejectAt(seq, 'surface.system-head', `surface replace at seq ${seq} would shadow the protected system prompt head (node ${state.nodes[0]}); only a system/message may replace it, alone`);
    }
  }
  return { kind: 'replace', seq, start, end, startIndex, endIndex, shadowed };
}

/** A rejection (a module function: a closure per planned event would cost on every event). */
function rejectAt(seq: number, code: DiagnosticCode, message: string): SurfacePlan {
  return { kind: 'reject', seq, code, message };
}

function checkSources(sources: unknown, event: LogEvent, v0: boolean): string | null {
  const { seq, type } = event;
  if (!Array.isArray(sources)) return `sourceEventSeqs on event at seq ${seq} must be an array when present`;
  if (!v0 && type === 'assistant/message') return `assistant/message at seq ${seq} embeds its source stream and cannot carry sourceEventSeqs`;
  if (sources.length === 0 && !(v0 && type === 'assistant/message')) return 'sourceEventSeqs must not be empty except on assistant/message';
  // Sources are nearly always ascending (range-encoded): a set is built only once they are not.
  let seen: Set<number> | null = null;
  for (let i = 0; i < sources.length; i++) {
    const s = sources[i];
    if (!(i in sources) || !isSeq(s)) return `session event "${type}" sourceEventSeqs must densely contain non-negative safe integers`;
    if (!seen && i > 0 && s <= sources[i - 1]) seen = new Set(sources.slice(0, i));
    if (seen) {
      if (seen.has(s)) return 'sourceEventSeqs must not contain duplicates';
      seen.add(s);
    }
  }
  for (const s of sources as number[]) {
    if (s >= seq) return `sourceEventSeqs must reference earlier events: ${s} >= current seq ${seq}`;
  }
  return null;
}

function planProjection(state: SurfaceState, event: LogEvent, ctx: SurfaceContext): SurfacePlan {
  const interpreter = messageInterpreters.get(event.type);
  if (!interpreter) {
    return { kind: 'reject', seq: event.seq, code: 'surface.projection', message: `cannot interpret required message-projection event "${event.type}" at seq ${event.seq}: load its owning plugin` };
  }
  const result = interpreter(event, state, ctx);
  if (typeof result === 'string') return { kind: 'reject', seq: event.seq, code: 'surface.projection', message: `${event.type} at seq ${event.seq} cannot be applied: ${result}` };
  return { kind: 'project', seq: event.seq, messages: result };
}
