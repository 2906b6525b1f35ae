import type { EventList } from '../log/event-list.ts';
import type { LinePrefilter } from './line-prefilter.ts';

/** A block of lines read at once: one decode and one case-insensitive search rule most of them out. */
const BLOCK_BYTES = 64 * 1024;
/** Blocks read before the screen judges whether they pay, and the share that must rule something out. */
const TRIAL_BLOCKS = 32;
const USEFUL_SHARE = 0.25;

/**
 * A scan's view of `LinePrefilter` over a log's events in order: whether
 * event i may match, from the raw text of its block of lines first and then
 * of its own line. Blocks stop being read when most of them rule nothing out
 * (a word or flag nearly every line holds), so such a search costs about what
 * the line checks cost. In Chromium a block's decode and case-insensitive
 * search cost a fraction of its lines' (the real-shaped 1M log, a word no line
 * holds: 1.4 s with blocks, 2.4 s a line at a time).
 */
export class LineScreen {
  /**
   * The block read last: the events before `to`, its text, its bits, whether the tool check lets it
   * through (worked out when first asked, as of its first event `from`), and whether it ruled one out.
   */
  private block: { from: number; to: number; text: string; bits: number; tool: boolean | null; ruledOut: boolean } = { from: 0, to: 0, text: '', bits: 0, tool: true, ruledOut: false };
  /**
   * The line read last: the events before `to`, and its bits, worked out when first asked (null
   * before); `changed`: the reader changed its event (no raw line).
   */
  private line: { to: number; text: string; packed: boolean; changed: boolean; bits: number | null } = { to: 0, text: '', packed: false, changed: false, bits: 0 };
  private blocksRead = 0;
  private blocksUseful = 0;
  private useBlocks = true;

  /**
   * `tool`: a `tool:` filter's checks of a block's and a line's text as of an event (tool-lines.ts);
   * a block is checked as of its first event (a call noted inside it names the tool in its text).
   * Either `filter` or `tool` may be absent.
   */
  constructor(
    private readonly events: Required<Pick<EventList, 'rawLines'>>,
    private readonly filter: LinePrefilter | null,
    private readonly blockBytes = BLOCK_BYTES,
    private readonly tool: { block(text: string, at: number): boolean; line(text: string, at: number): boolean } | null = null,
  ) {}

  /** Whether event i (of type `typeId`) may match; asked in increasing order of i. */
  admits(i: number, typeId: number): boolean {
    const { filter, tool } = this;
    if (this.useBlocks && i >= this.block.to) this.nextBlock(i);
    if (this.useBlocks && i < this.block.to && !this.blockAdmits(typeId)) {
      this.block.ruledOut = true;
      return false;
    }
    const line = this.lineAt(i);
    if (filter) {
      line.bits ??= filter.lineBits(line.text, line.packed);
      if (!filter.admits(line.bits, typeId)) return false;
    }
    // A line the reader changed is read as parsed.
    return !tool || line.changed || tool.line(line.text, i);
  }

  private blockAdmits(typeId: number): boolean {
    const b = this.block;
    if (this.filter && !this.filter.admits(b.bits, typeId)) return false;
    if (!this.tool) return true;
    b.tool ??= this.tool.block(b.text, b.from);
    return b.tool;
  }

  private lineAt(i: number): LineScreen['line'] {
    if (i >= this.line.to) {
      const raw = this.events.rawLines(i);
      // A line the reader changed lets everything through and is read as parsed.
      this.line = raw ? { to: raw.to, text: raw.text, packed: raw.packed, changed: false, bits: null } : { to: i + 1, text: '', packed: false, changed: true, bits: -1 };
    }
    return this.line;
  }

  private nextBlock(i: number): void {
    if (this.blocksRead > 0 && this.block.ruledOut) this.blocksUseful++;
    if (this.blocksRead >= TRIAL_BLOCKS && this.blocksUseful < this.blocksRead * USEFUL_SHARE) {
      this.useBlocks = false;
      return;
    }
    const raw = this.events.rawLines(i, this.blockBytes);
    // A line the reader changed is no block: it neither counts in the trial nor rules anything out.
    if (raw) this.blocksRead++;
    this.block = raw
      ? { from: i, to: raw.to, text: raw.text, bits: this.filter ? this.filter.blockBits(raw.text, raw.packed) : -1, tool: null, ruledOut: false }
      : { from: i, to: i + 1, text: '', bits: -1, tool: true, ruledOut: false };
  }
}
