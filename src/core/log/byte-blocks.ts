/** One block of copies: `live` views not yet released, `fill` bytes written. */
interface Block {
  bytes: Uint8Array<ArrayBuffer>;
  fill: number;
  live: number;
}

/**
 * Copies of reused bytes (see ReusedBytes), packed into blocks that are
 * written again once every copy in them is released. A log's lines are let go
 * in order soon after they are read, so a load of any length cycles through a
 * few blocks instead of leaving a buffer per chunk for the collector.
 */
export class ByteBlocks {
  private current: Block | null = null;
  private readonly spare: Uint8Array<ArrayBuffer>[] = [];
  /** The blocks with copies in them, by buffer (a released view finds its block). */
  private readonly blocks = new Map<ArrayBufferLike, Block>();

  constructor(readonly blockBytes = BLOCK_BYTES, private readonly maxSpare = MAX_SPARE_BLOCKS) {}

  /** A copy of `bytes` (at most `blockBytes` of them), valid until it is released. */
  copy(bytes: Uint8Array): Uint8Array {
    if (bytes.length > this.blockBytes) throw new RangeError(`a copy of ${bytes.length} bytes does not fit a block of ${this.blockBytes}`);
    let block = this.current;
    // Every copy in the current block released: it is written again from its start.
    if (block && block.live === 0) block.fill = 0;
    if (!block || block.fill + bytes.length > this.blockBytes) {
      if (block && block.live === 0) this.recycle(block);
      block = this.current = this.open();
    }
    const view = block.bytes.subarray(block.fill, block.fill + bytes.length);
    view.set(bytes);
    block.fill += bytes.length;
    block.live++;
    return view;
  }

  /** `view` (a copy, or any other bytes: those are left alone) is no longer read. */
  release(view: Uint8Array): void {
    const block = this.blocks.get(view.buffer);
    if (!block) return;
    block.live--;
    if (block.live === 0 && block !== this.current) this.recycle(block);
  }

  /**
   * Copies no longer read (the log is read to its end): spare blocks go, and so does the current
   * one if nothing in it is read. Copies made later (a followed log grows) get new blocks.
   */
  trim(): void {
    this.spare.length = 0;
    if (this.current && this.current.live === 0) {
      this.blocks.delete(this.current.bytes.buffer);
      this.current = null;
    }
  }

  /** Blocks held now, in use or spare. */
  get blockCount(): number {
    return this.blocks.size + this.spare.length;
  }

  private open(): Block {
    const block = { bytes: this.spare.pop() ?? new Uint8Array(this.blockBytes), fill: 0, live: 0 };
    this.blocks.set(block.bytes.buffer, block);
    return block;
  }

  private recycle(block: Block): void {
    this.blocks.delete(block.bytes.buffer);
    if (this.spare.length < this.maxSpare) this.spare.push(block.bytes);
  }
}

/** The size of the chunks a browser or Node reads a file in: a copied log is held as finely as a plain one. */
const BLOCK_BYTES = 64 * 1024;
/**
 * Blocks kept for reuse beyond the ones in use: a frame's lines are let go together, so a frame of
 * 245 KB hands back four blocks at once; with two kept, the bench's 10 MB raw-frame zstd log made
 * 98 blocks for 11 in use, and its peak outside the young generation was 2 MB higher.
 * Spares go when the read ends (trim).
 */
const MAX_SPARE_BLOCKS = 16;
