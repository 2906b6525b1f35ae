/**
 * The surface's node list as fixed-size chunks shared between replay
 * checkpoints. A session on a 1M-token window keeps tens of
 * thousands of nodes between compactions; copying them at every checkpoint
 * made the index grow with (checkpoints × surface). Here a checkpoint keeps
 * only the list of chunks; a chunk is copied when it changes after a
 * checkpoint took it (copy on write), so checkpoints cost what changed
 * between them — the last chunk, and the chunks a replace touched.
 */
const CHUNK = 512;

interface Chunk {
  data: Float64Array;
  size: number;
  /** The checkpoint epoch it was made in: older chunks are shared and never change. */
  epoch: number;
}

/** A frozen node list: the chunks of one checkpoint. */
export type NodeSnapshot = readonly Chunk[];

export class NodeChunks {
  private chunks: Chunk[] = [];
  private epoch = 0;
  private count = 0;

  get length(): number {
    return this.count;
  }

  append(seq: number): void {
    let last = this.chunks[this.chunks.length - 1];
    if (!last || last.size === CHUNK) {
      last = { data: new Float64Array(CHUNK), size: 0, epoch: this.epoch };
      this.chunks.push(last);
    } else if (last.epoch !== this.epoch) {
      last = this.writable(this.chunks.length - 1);
    }
    last.data[last.size++] = seq;
    this.count++;
  }

  /** Nodes `start…end` (surface indexes, inclusive) become the one node `seq` (dsh-log-rules L4.2). */
  replace(start: number, end: number, seq: number): void {
    const [ci, oi] = this.locate(start);
    const [cj, oj] = this.locate(end);
    const first = this.chunks[ci];
    const last = this.chunks[cj];
    const merged = new Float64Array(oi + 1 + (last.size - oj - 1));
    merged.set(first.data.subarray(0, oi));
    merged[oi] = seq;
    merged.set(last.data.subarray(oj + 1, last.size), oi + 1);
    const made: Chunk[] = [];
    for (let o = 0; o < merged.length; o += CHUNK) {
      const data = new Float64Array(CHUNK);
      const part = merged.subarray(o, Math.min(merged.length, o + CHUNK));
      data.set(part);
      made.push({ data, size: part.length, epoch: this.epoch });
    }
    this.chunks.splice(ci, cj - ci + 1, ...made);
    this.count -= end - start;
  }

  /** The list as it is now, for a checkpoint; later changes copy the chunks they touch. */
  snapshot(): NodeSnapshot {
    this.epoch++;
    return this.chunks.slice();
  }

  /**
   * The nodes of a snapshot as a plain list (a seek's starting state), with
   * room for `room` more: a seek appends the nodes of up to a checkpoint's
   * span of events, and an exact-size list copies itself whole at the first
   * append (370k nodes at the end of a long 0.2.1-shaped log: 7.9 ms to make
   * and grow, 3.6 ms with room). V8 keeps the spare capacity when the length
   * is cut back by less than half.
   */
  static toArray(snapshot: NodeSnapshot, room = 0): number[] {
    let n = 0;
    for (const c of snapshot) n += c.size;
    const out = new Array<number>(n + Math.min(room, n));
    let k = 0;
    for (const c of snapshot) for (let i = 0; i < c.size; i++) out[k++] = c.data[i];
    out.length = n;
    return out;
  }

  /** Chunk index and offset of surface index `index`. */
  private locate(index: number): [number, number] {
    let rest = index;
    for (let c = 0; c < this.chunks.length; c++) {
      const size = this.chunks[c].size;
      if (rest < size) return [c, rest];
      rest -= size;
    }
    throw new Error(`node ${index} is past the end of the surface (${this.count} nodes)`);
  }

  /** Chunk `c`, copied first if a checkpoint shares it. */
  private writable(c: number): Chunk {
    const old = this.chunks[c];
    if (old.epoch === this.epoch) return old;
    const copy = { data: old.data.slice(), size: old.size, epoch: this.epoch };
    this.chunks[c] = copy;
    return copy;
  }
}
