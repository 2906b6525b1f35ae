/**
 * Small logs built in the tests themselves: a header plus rows, as JSONL.
 * Each helper writes exactly what DSH would, so a test reads as the log it
 * describes.
 */
export type Row = Record<string, unknown>;

export function header(extra: Row = {}): Row {
  return { type: 'session', version: 0, id: 'test-session', createdAt: 1, cwd: '/work', delegationDepth: 0, ...extra };
}

export function jsonl(rows: Row[], { eol = '\n' } = {}): string {
  return rows.map((r) => JSON.stringify(r) + eol).join('');
}

/** Rows with seq/time filled in order, for quick event sequences. */
export function events(...specs: [type: string, data: unknown, extra?: Row][]): Row[] {
  return specs.map(([type, data, extra], seq) => ({ type, seq, time: 1000 + seq, data, ...extra }));
}

export const userMessage = (id: string, text: string): Row => ({
  id, role: 'user', content: [{ type: 'text', text }], source: { kind: 'user' },
});

export const assistantData = (id: string, text: string, turn = 1, step = 1): Row => ({
  turn, step,
  message: { id, role: 'assistant', content: [{ type: 'text', text }], source: { kind: 'model', provider: 'p', model: 'm' } },
});

export async function* chunked(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}
