/**
 * Bytes in a buffer that is written again once they have been handed on (the
 * zstd decoder's output arena): valid until the consumer asks for the next
 * chunk, so whoever keeps them keeps a copy (LineStore does). A class of its
 * own so a keeper can tell them from bytes it may hold as they are.
 */
export class ReusedBytes extends Uint8Array {
  /**
   * fzstd tests an output buffer it is given with `buf == 1`; for a plain typed array that turns
   * every byte into text (a frame decoded 1.7× slower). Compared with a number, this is NaN.
   */
  [Symbol.toPrimitive](): number {
    return NaN;
  }
}
