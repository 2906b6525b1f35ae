import { grownTo } from '../util/typed.ts';
import { countAtOrBelow } from '../util/sorted.ts';

/**
 * The surface's totals after every surface change (seq, messages, estimated
 * tokens), kept as three typed columns so a cursor anywhere in a long log
 * reads "N messages, ~T tokens" with a binary search instead of visiting
 * every node (docs/long-sessions.md).
 */
export class SurfaceTotals {
  private seqs = new Float64Array(256);
  private messages = new Uint32Array(256);
  private tokens = new Float64Array(256);
  private n = 0;
  /** Surface nodes that carry no message (an empty assistant turn, a malformed payload): few, so a set. */
  readonly silent = new Set<number>();

  /** Records the totals after the surface change at `seq` (seqs ascend). */
  record(seq: number, messages: number, tokens: number): void {
    if (this.n === this.seqs.length) {
      const size = this.n * 2;
      this.seqs = grownTo(this.seqs, size);
      this.messages = grownTo(this.messages, size);
      this.tokens = grownTo(this.tokens, size);
    }
    if (this.n > 0 && this.seqs[this.n - 1] === seq) this.n--;
    this.seqs[this.n] = seq;
    this.messages[this.n] = messages;
    this.tokens[this.n] = tokens;
    this.n++;
  }

  /** The totals after the event at `seq`: those of the last surface change at or before it. */
  at(seq: number): { messages: number; tokens: number } {
    const k = countAtOrBelow(this.seqs, seq, this.n);
    return k === 0 ? { messages: 0, tokens: 0 } : { messages: this.messages[k - 1], tokens: this.tokens[k - 1] };
  }

  /** How many surface changes were recorded. */
  get length(): number {
    return this.n;
  }

  /** The seq and token estimate after change `i` (0 ≤ i < length): a chart walks these in order. */
  seqAt(i: number): number {
    return this.seqs[i];
  }

  tokensAt(i: number): number {
    return this.tokens[i];
  }

  /** Trims the columns to what was recorded (the walk is over). */
  trim(): void {
    this.seqs = this.seqs.slice(0, this.n);
    this.messages = this.messages.slice(0, this.n);
    this.tokens = this.tokens.slice(0, this.n);
  }
}
