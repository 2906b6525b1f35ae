import { jsonEqual, isPlainObject } from '../util/json.ts';
import { boundedLineDiff, type LinePart } from '../prompt/context-diff.ts';

/**
 * What a projection change changed (docs/open-and-navigate.md): for lists (todos, plans'
 * tasks…) the entries added, removed and edited; for anything else a line
 * diff of the two values as indented JSON.
 */
export type ValueDiff =
  | { kind: 'list'; added: ListEntry[]; removed: ListEntry[]; edited: EditedEntry[] }
  | { kind: 'json'; lines: LinePart[] | null };

export interface ListEntry {
  index: number;
  value: unknown;
}

export interface EditedEntry {
  /** Position after the change. */
  index: number;
  before: unknown;
  after: unknown;
}

/** Fields that name an entry of a list, in the order they are tried (a todo is named by its content). */
const IDENTITY_FIELDS = ['id', 'key', 'content', 'name', 'title', 'text'] as const;

/** Values bigger than this (as JSON text) are not line-diffed: the page would stall on them. */
const MAX_JSON_CHARS = 200_000;

/** The diff between two consecutive values of a unit; null when they are deep-equal. */
export function valueDiff(before: unknown, after: unknown): ValueDiff | null {
  if (jsonEqual(before, after)) return null;
  // A list that appears or is cleared (null ↔ []) reads as entries added or removed.
  const listBefore = Array.isArray(before) ? before : before == null && Array.isArray(after) ? [] : null;
  const listAfter = Array.isArray(after) ? after : after == null && Array.isArray(before) ? [] : null;
  if (listBefore && listAfter) return listDiff(listBefore, listAfter);
  return { kind: 'json', lines: jsonLines(before, after) };
}

function jsonLines(before: unknown, after: unknown): LinePart[] | null {
  const a = JSON.stringify(before, null, 2) ?? 'undefined';
  const b = JSON.stringify(after, null, 2) ?? 'undefined';
  if (a.length + b.length > MAX_JSON_CHARS) return null;
  return boundedLineDiff(`${a}\n`, `${b}\n`);
}

/** The field that names every entry of both lists uniquely, if any. */
function identityField(a: readonly unknown[], b: readonly unknown[]): string | null {
  for (const field of IDENTITY_FIELDS) {
    const ok = (list: readonly unknown[]) => {
      const seen = new Set<string>();
      for (const v of list) {
        if (!isPlainObject(v)) return false;
        const id = v[field];
        if (typeof id !== 'string' && typeof id !== 'number') return false;
        const k = String(id);
        if (seen.has(k)) return false;
        seen.add(k);
      }
      return true;
    };
    if (ok(a) && ok(b)) return field;
  }
  return null;
}

function listDiff(before: readonly unknown[], after: readonly unknown[]): ValueDiff {
  const field = identityField(before, after);
  const added: ListEntry[] = [];
  const removed: ListEntry[] = [];
  const edited: EditedEntry[] = [];
  if (field) {
    // Entries keep their name across an edit (a todo's status changes, its content stays).
    const name = (v: unknown) => String((v as Record<string, unknown>)[field]);
    const old = new Map(before.map((v, index) => [name(v), { v, index }]));
    const kept = new Set<string>();
    after.forEach((v, index) => {
      const prior = old.get(name(v));
      if (!prior) added.push({ index, value: v });
      else {
        kept.add(name(v));
        if (!jsonEqual(prior.v, v)) edited.push({ index, before: prior.v, after: v });
      }
    });
    before.forEach((v, index) => { if (!kept.has(name(v))) removed.push({ index, value: v }); });
  } else {
    // Unnamed entries: equal ones are matched first (a common prefix and suffix), the rest by position.
    let head = 0;
    while (head < before.length && head < after.length && jsonEqual(before[head], after[head])) head++;
    let tail = 0;
    while (tail < before.length - head && tail < after.length - head && jsonEqual(before[before.length - 1 - tail], after[after.length - 1 - tail])) tail++;
    const midBefore = before.length - head - tail;
    const midAfter = after.length - head - tail;
    const paired = Math.min(midBefore, midAfter);
    for (let k = 0; k < paired; k++) edited.push({ index: head + k, before: before[head + k], after: after[head + k] });
    for (let k = paired; k < midAfter; k++) added.push({ index: head + k, value: after[head + k] });
    for (let k = paired; k < midBefore; k++) removed.push({ index: head + k, value: before[head + k] });
  }
  return { kind: 'list', added, removed, edited };
}
