import fs from 'node:fs';
import os from 'node:os';
import { sniffEncoding } from '../core/log/bytes.ts';
import { decodedText } from '../core/log/decoded-text.ts';
import { LoadGuard } from '../core/log/memory-budget.ts';
import { readLog } from '../core/log/reader.ts';
import type { ByteReader } from '../core/log/read-back.ts';
import type { ReadProgress } from '../core/log/reader.ts';
import type { ReadResult } from '../core/log/types.ts';
import type { SessionFold } from '../core/session/fold-session.ts';
import { loadSession } from '../core/session/stream-load.ts';

const chunks = (file: string) => fs.createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Uint8Array>;

/** Reads a log file from disk through the same streaming reader the worker uses. */
export async function readLogFile(file: string, onProgress?: (p: ReadProgress) => void): Promise<ReadResult> {
  return readLog(chunks(file), { onProgress });
}

/** A log file's decoded text (zstd and gzip decompressed), for tools that rewrite its lines. */
export function readLogFileText(file: string): Promise<string> {
  return decodedText(chunks(file));
}

/**
 * Loads a log file in one streaming pass, as the app's worker does: the
 * decoded bytes and a few numbers per event stay, events are parsed again
 * when walked (slower, about 4× less memory than events kept as objects).
 * So a log far bigger than a browser tab can hold still loads; one bigger
 * than this machine can hold (most of its memory) stops with a finding.
 */
export async function loadLogFile(file: string, onProgress?: (p: ReadProgress) => void): Promise<SessionFold> {
  const size = fs.statSync(file).size;
  const guard = new LoadGuard(size, {
    bytes: os.totalmem() * 0.8, source: '80% of its memory', place: 'this machine',
    advice: 'Run it on a machine with more memory.',
  });
  guard.check(null);
  return loadSession(chunks(file), { sizeHint: size, readBack: pathReadBack(file), onProgress: (p) => { guard.check(p); onProgress?.(p); } });
}

/**
 * A log file read back at any offset, as the worker reads a dropped File
 * back (FileReaderSync): a plain log's lines are then not kept in memory.
 * The file stays open while the reader lives (as a File keeps its file: it
 * can still be read once removed), and is closed when the reader is collected.
 */
export function pathReadBack(file: string): ByteReader {
  const fd = fs.openSync(file, 'r');
  const size = fs.fstatSync(fd).size;
  const reader: ByteReader = {
    size,
    read(start, end) {
      const out = new Uint8Array(end - start);
      for (let o = 0; o < out.length; ) {
        const n = fs.readSync(fd, out, o, out.length - o, start + o);
        if (n === 0) throw new Error(`${file} is shorter than when it was opened: its lines can no longer be read back.`);
        o += n;
      }
      return out;
    },
  };
  openFiles.register(reader, fd);
  return reader;
}

const openFiles = new FinalizationRegistry<number>((fd) => { try { fs.closeSync(fd); } catch { /* closed already */ } });

/**
 * Whether to stream a log rather than read it whole: events kept as objects
 * take about 4× the log's text (measured on a 54 MB, 600 k-event log), and
 * the analyses as much again, so past an eighth of the JS heap's limit (a
 * compressed file: a fortieth, for its ratio) the streaming load is used.
 */
export function shouldStream(file: string, heapLimit: number): boolean {
  const size = fs.statSync(file).size;
  const head = Buffer.alloc(4);
  const fd = fs.openSync(file, 'r');
  try { fs.readSync(fd, head, 0, 4, 0); } finally { fs.closeSync(fd); }
  const compressed = sniffEncoding(head) !== 'plain';
  return size > heapLimit / (compressed ? 40 : 8);
}
