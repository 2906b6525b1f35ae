import type { LogEvent } from '../log/types.ts';

/**
 * ToolHistoryProjection, newest builds (dsh-log-rules P6.5): the
 * baseline tools plus developer-message additions the loop request carries
 * as `toolHistory`. Fold it over every event in log order.
 */
export interface ToolHistoryUpdate {
  messageId: string;
  additions: unknown[];
}

export interface ToolHistory {
  tools: unknown[];
  updates: ToolHistoryUpdate[];
}

export interface ToolHistorySnapshot extends ToolHistory {
  /** True when active tools ≠ available names: the "current tools only" fallback. */
  fallback: boolean;
}

/** A tool's name; scrubbed fixtures list bare names instead of schemas. */
const nameOf = (t: unknown): string | undefined =>
  typeof t === 'string' ? t : t && typeof t === 'object' ? (t as { name?: string }).name : undefined;
const toolsOf = (header: unknown): unknown[] => {
  const tools = (header as { tools?: unknown })?.tools;
  return Array.isArray(tools) ? tools : [];
};

export class ToolHistoryFold {
  private readonly headers = new Map<number, unknown[]>();
  private declared = new Map<string, string>();
  private active: unknown[] = [];
  private available = new Set<string>();
  private history: ToolHistory = { tools: [], updates: [] };
  private seenHeader = false;
  baselineSeq: number | undefined;
  /** Problems found while folding (a missing addition definition). */
  readonly problems: { seq: number; message: string }[] = [];

  apply(event: LogEvent): void {
    if (event.type === 'request/header') this.onHeader(event);
    else if (event.type === 'developer/message') this.onDeveloper(event);
  }

  private onHeader(event: LogEvent): void {
    const tools = toolsOf(event.data?.header);
    this.headers.set(event.seq, tools);
    const redeclared = tools.some((t) => {
      const name = nameOf(t);
      return name !== undefined && this.declared.has(name) && this.declared.get(name) !== JSON.stringify(t);
    });
    if (!this.seenHeader || event.data?.reason === 'series' || event.data?.startsSeries === true || redeclared) {
      this.baselineSeq = event.seq;
      this.declared = new Map(tools.map((t) => [nameOf(t) ?? '', JSON.stringify(t)]));
      this.history = { tools, updates: [] };
      this.available = new Set(tools.map((t) => nameOf(t) ?? ''));
    }
    this.seenHeader = true;
    this.active = tools;
  }

  private onDeveloper(event: LogEvent): void {
    const message = event.data?.message;
    const blocks: any[] = Array.isArray(message?.content) ? message.content : [];
    const defs = this.headers.get(event.data?.headerSeq) ?? [];
    const additions: unknown[] = [];
    for (const block of blocks) {
      if (block?.type === 'tool-addition') {
        const def = defs.find((t) => nameOf(t) === block.toolName);
        if (def === undefined) {
          this.problems.push({ seq: event.seq, message: `tool history: missing definition for ${block.toolName}` });
          continue;
        }
        additions.push(def);
        this.declared.set(block.toolName, JSON.stringify(def));
        this.available.add(block.toolName);
      } else if (block?.type === 'tool-removal') {
        this.available.delete(block.toolName);
      }
    }
    this.history = { tools: this.history.tools, updates: [...this.history.updates, { messageId: message?.id, additions }] };
  }

  snapshot(): ToolHistorySnapshot {
    const names = this.active.map((t) => nameOf(t) ?? '');
    const same = names.length === this.available.size && names.every((n) => this.available.has(n));
    return same ? { ...this.history, fallback: false } : { tools: this.active, updates: [], fallback: true };
  }
}
