import { once } from 'node:events';
import type { Writable } from 'node:stream';

/** Output gathered before a write: few writes, and never much held. */
const WRITE_BYTES = 1 << 20;

/**
 * `JSON.stringify(value, null, 2)` written in pieces, the same text: the
 * top-level object's members, and each item of a member that is an array,
 * are stringified one at a time. An inspection of a long session lists every
 * model call with its whole context: as one string it outgrew the engine's
 * longest string (a real-shaped 100k-event log: "Invalid string length"
 * after 58 s and 3 GB), written so it is bounded by its biggest call.
 */
export async function writeJson(value: unknown, out: Writable): Promise<void> {
  let pending = '';
  const write = async (text: string) => {
    pending += text;
    if (pending.length < WRITE_BYTES) return;
    const chunk = pending;
    pending = '';
    if (!out.write(chunk)) await once(out, 'drain');
  };
  for (const piece of jsonPieces(value)) await write(piece);
  if (pending && !out.write(pending)) await once(out, 'drain');
}

/** The pieces of `JSON.stringify(value, null, 2)`, in order. */
export function* jsonPieces(value: unknown): Generator<string> {
  const plain = toPlain(value, '');
  if (!isRecord(plain)) {
    yield JSON.stringify(plain, null, 2) ?? 'undefined';
    return;
  }
  // Each member made plain once (a toJSON may derive what it writes).
  const members = Object.keys(plain).map((k) => [k, toPlain(plain[k], k)] as const).filter(([, v]) => serializable(v));
  if (members.length === 0) { yield '{}'; return; }
  yield '{';
  for (let i = 0; i < members.length; i++) {
    const [key, member] = members[i];
    yield `${i ? ',' : ''}\n  ${JSON.stringify(key)}: `;
    if (Array.isArray(member) && member.length > 0) {
      yield '[';
      for (let k = 0; k < member.length; k++) yield `${k ? ',' : ''}\n    ${nested(toPlain(member[k], String(k)), '    ')}`;
      yield '\n  ]';
    } else yield nested(member, '  ');
  }
  yield '\n}';
}

/** A value (its toJSON's result already) stringified alone and indented where it sits (JSON.stringify breaks lines only between tokens). */
function nested(value: unknown, indent: string): string {
  const text = JSON.stringify(value, null, 2);
  // Where JSON.stringify would leave a member out an array item is null.
  return text === undefined ? 'null' : text.replace(/\n/g, `\n${indent}`);
}

/** What JSON.stringify writes for a value: its toJSON's result when it has one. */
function toPlain(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function' ? (value as { toJSON(key: string): unknown }).toJSON(key) : value;
}

/** Whether JSON.stringify writes an object member holding this (undefined, functions and symbols are left out). */
const serializable = (v: unknown): boolean => v !== undefined && typeof v !== 'function' && typeof v !== 'symbol';

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
