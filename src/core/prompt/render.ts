// Section ids (P…) are those of docs/dsh-log-rules.md.
import { interpolate, type Interpolatable } from './interpolate.ts';
import type { PromptAssembly } from './types.ts';

/** Rendering of an assembly (P2). */

/** The line every non-empty runtime-context snapshot starts with (P2.2). */
export const RUNTIME_CONTEXT_FRAMING = 'Current runtime context. This snapshot supersedes earlier runtime-context snapshots.';

/** The text logged when the runtime context became empty (P2.2, agent-loop runtime-context.ts). */
export const RUNTIME_CONTEXT_CLEARED = 'Current runtime context: none. Earlier runtime-context snapshots no longer apply.';

/** One rendered (already interpolated) runtime-context contribution. */
export interface ContextSnapshotSection {
  name: string;
  text: string;
}

/**
 * The system prompt text (P2.1): each section interpolated (or literal when
 * `interpolate === false`, newest builds), empty results dropped —
 * whitespace-only kept — and the rest joined by a blank line.
 */
export function renderPrompt(assembly: Pick<PromptAssembly, 'sections' | 'variables'>): string {
  const parts: string[] = [];
  for (const section of assembly.sections) {
    const text = section.interpolate === false ? section.text : interpolate(section, assembly.variables, 'section');
    if (text.length > 0) parts.push(text);
  }
  return parts.join('\n\n');
}

/** Every context interpolated, with no opt-out; empty ones dropped (P2.2). */
export function renderContextSections(assembly: Pick<PromptAssembly, 'contexts' | 'variables'>): ContextSnapshotSection[] {
  const out: ContextSnapshotSection[] = [];
  for (const context of assembly.contexts as readonly Interpolatable[]) {
    const text = interpolate(context, assembly.variables, 'context');
    if (text.length > 0) out.push({ name: context.name, text });
  }
  return out;
}

/** The snapshot message text for rendered sections: framing + body, or '' (P2.2). */
export function joinContextSections(sections: readonly ContextSnapshotSection[]): string {
  const body = sections.map((s) => s.text).join('\n\n');
  return body.length === 0 ? '' : `${RUNTIME_CONTEXT_FRAMING}\n\n${body}`;
}

/** renderContextSections then joinContextSections (P2.2). */
export function renderContextSnapshot(assembly: Pick<PromptAssembly, 'contexts' | 'variables'>): string {
  return joinContextSections(renderContextSections(assembly));
}
