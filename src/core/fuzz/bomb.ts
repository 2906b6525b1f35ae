import { generateLog } from '../generate/generate-log.ts';
import { concatBytes, zstdFrame } from './encode.ts';

const enc = new TextEncoder();

/**
 * A decompression bomb (docs/diagnostics.md, hostile sizes), built with the project's own zstd
 * writer: a valid log (its header and setup events, then `turns` turns), then a user/message
 * whose text runs to `lineBytes` bytes of 'a' and never ends (no closing quote, no
 * newline). The long run is RLE blocks, so 800 MB take about 24 KB.
 */
export function zstdBomb(lineBytes: number, { turns = 0, seed = 18 } = {}): { bytes: Uint8Array; head: string } {
  const log = generateLog({ dialect: 'v4', seed, turns });
  const next = log.events.length;
  const head = log.text;
  const open = `{"type":"user/message","seq":${next},"time":${Date.UTC(2025, 0, 1)},"surfaceOp":"append","data":{"id":"bomb","role":"user","content":[{"type":"text","text":"`;
  const bytes = concatBytes([
    zstdFrame([enc.encode(head)]),
    zstdFrame([enc.encode(open), { repeat: 0x61, count: lineBytes - open.length }]),
  ]);
  return { bytes, head };
}
