// Section ids (P…) are those of docs/dsh-log-rules.md.
import type { LogEvent } from '../log/types.ts';
import { isRuntimeContextEvent, RUNTIME_CONTEXT_PLUGIN } from '../messages/classify.ts';
import { joinContextSections, RUNTIME_CONTEXT_CLEARED, RUNTIME_CONTEXT_FRAMING, type ContextSnapshotSection } from './render.ts';

/**
 * Runtime-context snapshots as logged (P2.2, P3.2–P3.4,
 * P4.4): the owned `user/message`s in each dialect's source shape.
 */

export { isRuntimeContextEvent, RUNTIME_CONTEXT_PLUGIN };

export type SnapshotForm =
  /** `form:'snapshot'` with sections. */
  | 'snapshot'
  /** The CLEARED marker (no form/sections). */
  | 'cleared'
  /** Older fixtures: owned text with no form/sections; sections are a heuristic split. */
  | 'legacy';

export interface ContextSnapshot {
  seq: number;
  /** The source shape: rc.8/mid plugin source, or v4 `runtime-context`. */
  sourceShape: 'plugin' | 'runtime-context';
  form: SnapshotForm;
  /** The single text block, or undefined when the content is not exactly one text block. */
  text: string | undefined;
  /** `source.sections`, [] for CLEARED, or a heuristic split for legacy snapshots. */
  sections: ContextSnapshotSection[];
  /** True when `sections` came from splitting the text (legacy form): mark it as a guess. */
  heuristic: boolean;
}

/** The text of a message whose content is exactly one text block (P4.1). */
export function singleText(content: unknown): string | undefined {
  return Array.isArray(content) && content.length === 1 && content[0]?.type === 'text' && typeof content[0].text === 'string'
    ? content[0].text
    : undefined;
}

/** Reads one owned snapshot event. */
export function readSnapshot(event: LogEvent): ContextSnapshot {
  const source = event.data?.source ?? {};
  const text = singleText(event.data?.content);
  const sourceShape = source.kind === 'runtime-context' ? 'runtime-context' : 'plugin';
  if (source.form === 'snapshot' && Array.isArray(source.sections)) {
    const sections = (source.sections as unknown[]).map((s: any) => ({ name: String(s?.name), text: String(s?.text) }));
    return { seq: event.seq, sourceShape, form: 'snapshot', text, sections, heuristic: false };
  }
  if (text === RUNTIME_CONTEXT_CLEARED) return { seq: event.seq, sourceShape, form: 'cleared', text, sections: [], heuristic: false };
  return { seq: event.seq, sourceShape, form: 'legacy', text, sections: splitLegacy(text ?? ''), heuristic: true };
}

/** A heuristic for sectionless snapshots: drop the framing line, split on blank lines (P4.4). */
function splitLegacy(text: string): ContextSnapshotSection[] {
  const prefix = `${RUNTIME_CONTEXT_FRAMING}\n\n`;
  const body = text.startsWith(prefix) ? text.slice(prefix.length) : text;
  return body === '' ? [] : body.split('\n\n').map((t, i) => ({ name: `#${i + 1}`, text: t }));
}

export interface SnapshotCheck {
  code: 'context.join-mismatch' | 'context.cleared-with-sections' | 'context.duplicate-section' | 'context.not-single-text' | 'context.empty-sections';
  message: string;
}

/** The P2.2 join invariant and the P10 runtime-context shape checks for one snapshot event. */
export function checkSnapshot(event: LogEvent, snapshot: ContextSnapshot): SnapshotCheck[] {
  const out: SnapshotCheck[] = [];
  const seq = event.seq;
  if (snapshot.text === undefined) out.push({ code: 'context.not-single-text', message: `runtime-context snapshot at seq ${seq} is not a single text block` });
  const source = event.data?.source ?? {};
  if (snapshot.form === 'snapshot') {
    const joined = joinContextSections(snapshot.sections);
    if (snapshot.text !== undefined && snapshot.text !== joined) {
      out.push({ code: 'context.join-mismatch', message: `runtime-context snapshot at seq ${seq}: text differs from joinContextSections(source.sections)` });
    }
    if (snapshot.sections.length === 0 && snapshot.text !== RUNTIME_CONTEXT_CLEARED) {
      out.push({ code: 'context.empty-sections', message: `runtime-context snapshot at seq ${seq} has empty sections but is not the CLEARED marker` });
    }
    const names = new Set<string>();
    for (const s of snapshot.sections) {
      if (names.has(s.name)) out.push({ code: 'context.duplicate-section', message: `runtime-context snapshot at seq ${seq} repeats section "${s.name}"` });
      names.add(s.name);
    }
    if (snapshot.text === RUNTIME_CONTEXT_CLEARED) out.push({ code: 'context.cleared-with-sections', message: `CLEARED runtime-context marker at seq ${seq} carries sections` });
  } else if (snapshot.form === 'cleared' && (source.form !== undefined || source.sections !== undefined)) {
    out.push({ code: 'context.cleared-with-sections', message: `CLEARED runtime-context marker at seq ${seq} carries form/sections` });
  }
  return out;
}
