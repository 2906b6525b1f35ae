import { readLogText } from '../../src/core/log/reader.ts';
import type { LogEvent, SessionHeader } from '../../src/core/log/types.ts';
import { foldProjections, type FoldProjectionsOptions } from '../../src/core/projections/index.ts';
import { foldSession } from '../../src/core/session/fold-session.ts';
import { header, jsonl, type Row } from '../helpers/log-builder.ts';

/** Events with seq = index and time = 1000 + seq, as a log would hold them. */
export function evs(...specs: [type: string, data: unknown, extra?: Partial<LogEvent>][]): LogEvent[] {
  return specs.map(([type, data, extra], seq) => ({ type, seq, time: 1000 + seq, data, ...extra }));
}

export const hdr = (extra: Row = {}) => header(extra) as unknown as SessionHeader;

/** Reads a JSONL log built in the test through the real reader and session fold. */
export function foldText(rows: Row[], headerExtra: Row = {}, options: FoldProjectionsOptions = {}) {
  const session = foldSession(readLogText(jsonl([header(headerExtra), ...rows])));
  const registry = foldProjections(session.read.header, session.events, { dialect: session.read.dialect, ...options });
  return { session, registry };
}

/** Final value of one unit after folding bare events (rc.8 rules unless told). */
export function valueAfter(key: string, events: LogEvent[], options: FoldProjectionsOptions = {}, h: SessionHeader = hdr()) {
  const registry = foldProjections(h, events, options);
  // A host-only unit (out of the snapshot, as in DSH) is read from its cell.
  const cell = registry.cell(key);
  return cell?.hostOnly ? cell.view : registry.snapshot().values[key];
}
