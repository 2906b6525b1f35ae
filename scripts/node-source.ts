import fs from 'node:fs';
import { readLog } from '../src/core/log/reader.ts';
import type { ReadResult } from '../src/core/log/types.ts';

/** Reads a log file from disk through the same streaming reader the worker uses. */
export async function readLogFile(file: string): Promise<ReadResult> {
  const stream = fs.createReadStream(file, { highWaterMark: 1 << 20 });
  return readLog(stream as AsyncIterable<Uint8Array>);
}
