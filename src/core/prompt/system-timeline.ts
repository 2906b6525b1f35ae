// Section ids (P…) are those of docs/dsh-log-rules.md.
import type { LogEvent } from '../log/types.ts';
import type { SurfaceContext, SurfacePlan, SurfaceState } from '../surface/types.ts';
import { canonicalHeader, isScrubbed } from './request-header.ts';
import { readsOf, SURFACE_CHANGING_TYPES, type SurfaceVisitor } from '../surface/walk.ts';
import { findVariableReference } from './interpolate.ts';
import { latestSystemNode, systemText } from './system-nodes.ts';
import type { SurfaceLedger } from '../surface/ledger.ts';
import { TextPool } from '../util/text-pool.ts';
import { firstWhere } from '../util/sorted.ts';
import { finding, type PromptFinding } from '../diagnostics/prompt-findings.ts';

/**
 * The effective system prompt over the log (P5.4):
 * rc.8 from the latest `request/header.system`; mid/newest from the latest
 * non-dormant surviving `system/message` node. Built in one walk; queried
 * at any seq by binary search.
 */
export interface SystemPromptState {
  /** From this seq on (inclusive) the state holds. */
  seq: number;
  /** The event that set it: a request/header, a system/message, or a replace that shadowed one. */
  setBy: string;
  /** '' no prompt; undefined opaque content; null nothing sent yet. */
  text: string | undefined | null;
  /** The header or system node carrying the text. */
  sourceSeq: number | null;
  scrubbed: boolean;
}

/** One committed system/message (also later shadowed ones): the prompt-change history (P5.4). */
export interface SystemPromptCommit {
  seq: number;
  op: 'append' | 'replace-head' | 'clear-tail' | 'replace-tail';
  text: string | undefined;
  /** The node it replaced, for replace ops. */
  replaces?: number;
}

export interface SystemPromptAt {
  text: string | undefined | null;
  sourceSeq: number | null;
  /** The event that last changed the effective prompt at or before the seq. */
  setBySeq: number | null;
  setBy: string | null;
  /** True when the event at exactly this seq changed it. */
  changedAt: boolean;
  scrubbed: boolean;
}

export class SystemPromptTimeline implements SurfaceVisitor {
  readonly reads = readsOf(SURFACE_CHANGING_TYPES, ['request/header']);
  readonly states: SystemPromptState[] = [];
  readonly commits: SystemPromptCommit[] = [];
  readonly findings: PromptFinding[] = [];
  private readonly fromHeader: boolean;

  /** `fromHeader`: rc.8 (and mid logs with no system/message at all). `ledger` walks before this timeline. */
  constructor(fromHeader: boolean, private readonly ledger: SurfaceLedger, private readonly pool = new TextPool()) {
    this.fromHeader = fromHeader;
  }

  /** Chunk deltas neither carry nor move a prompt. */
  run(): void {}

  after(event: LogEvent, _state: SurfaceState, plan: SurfacePlan, ctx: SurfaceContext): void {
    if (this.fromHeader) {
      if (event.type !== 'request/header') return;
      const system = canonicalHeader(event.data?.header ?? {}).system ?? '';
      this.push(event, system, event.seq);
      return;
    }
    if (event.type === 'system/message' && (plan.kind === 'append' || plan.kind === 'replace')) this.recordCommit(event, plan, ctx);
    const touches = event.type === 'system/message' ? plan.kind !== 'reject' && plan.kind !== 'none' : plan.kind === 'replace' || plan.kind === 'project';
    if (!touches) return;
    const latest = latestSystemNode(this.ledger.systemNodes());
    this.push(event, latest ? latest.text : null, latest?.seq ?? null);
  }

  private recordCommit(event: LogEvent, plan: SurfacePlan, ctx: SurfaceContext): void {
    const text = systemText(event.data?.message?.content);
    if (text === undefined) this.findings.push(finding('prompt.system-opaque', `system/message at seq ${event.seq} has opaque content`, event.seq));
    else if (text !== '' && !isScrubbed(text) && findVariableReference(text)) {
      this.findings.push(finding('prompt.unresolved-variable', `system prompt at seq ${event.seq} contains ${findVariableReference(text)}`, event.seq));
    }
    if (plan.kind === 'append') {
      this.commits.push({ seq: event.seq, op: 'append', text });
      return;
    }
    if (plan.kind !== 'replace') return;
    const replaced = plan.shadowed[0];
    const nonSystem = plan.shadowed.filter((s) => ctx.eventAt(s)?.type !== 'system/message');
    if (nonSystem.length) this.findings.push(finding('prompt.head-shadowed', `system/message replace at seq ${event.seq} shadows non-system nodes ${nonSystem.join(', ')}`, event.seq));
    const head = this.ledger.systemNodes()[0];
    const op = head?.seq === event.seq ? 'replace-head' : text === '' ? 'clear-tail' : 'replace-tail';
    this.commits.push({ seq: event.seq, op, text, replaces: replaced });
  }

  private push(event: LogEvent, text: string | undefined | null, sourceSeq: number | null): void {
    const last = this.states.at(-1);
    if (last && last.text === text && last.sourceSeq === sourceSeq) return;
    // The same prompt carried by many headers: one copy of the text for every state.
    text = this.pool.text(text);
    this.states.push({ seq: event.seq, setBy: event.type, text, sourceSeq, scrubbed: isScrubbed(text) });
  }

  /** The effective prompt after the event at `seq` (P5.4). */
  at(seq: number): SystemPromptAt {
    const found = firstWhere(this.states.length, (i) => !(this.states[i].seq <= seq)) - 1;
    if (found < 0) return { text: null, sourceSeq: null, setBySeq: null, setBy: null, changedAt: false, scrubbed: false };
    const s = this.states[found];
    return { text: s.text, sourceSeq: s.sourceSeq, setBySeq: s.seq, setBy: s.setBy, changedAt: s.seq === seq, scrubbed: s.scrubbed };
  }
}
