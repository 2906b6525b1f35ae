import { generationFindings, generationOf, isOlderGeneration, type GenerationFinding, type GenerationIndex } from './generations.ts';
import type { LogSummary } from './summary.ts';

/**
 * A row's place among its session's generations (dsh-log-rules L1.2), as a
 * record carries it: every row has the four fields, so a database gets one
 * schema. `latest` is false only for an older generation; only a latest row
 * lists its older ones and the session's generation findings.
 */
export interface GenerationFields {
  /** The number in the file name (0 for `session.jsonl[.zstd]`), null for a file not named as a generation. */
  generation: number | null;
  latest: boolean;
  olderGenerations: { file: string; generation: number }[];
  generationFindings: GenerationFinding[];
}

/** The generation fields of `file`; `formatOf` gives a file's header version when its summary is known. */
export function generationFields(index: GenerationIndex, file: string, formatOf: (file: string) => number | null | undefined): GenerationFields {
  const session = index.byFile.get(file);
  const generation = generationOf(index, file)?.generation ?? null;
  // A file not named as a generation is a session of its own: its own latest.
  if (!session) return { generation, latest: true, olderGenerations: [], generationFindings: [] };
  if (isOlderGeneration(index, file)) return { generation, latest: false, olderGenerations: [], generationFindings: [] };
  return {
    generation,
    latest: true,
    olderGenerations: session.older.map((g) => ({ file: g.file, generation: g.generation })),
    generationFindings: generationFindings(session, formatOf),
  };
}

/**
 * A summary as one NDJSON record: the fields the issue names first, in a
 * fixed order (a database maps columns by name, a person reads the first
 * ones), then the generation fields when given, then the rest of the table's
 * fields.
 */
export function summaryRecord(s: LogSummary, generations?: GenerationFields): Record<string, unknown> {
  const { file, id, title, format, events, turns, calls, models, tokens, findings, ok, verdict, parentSession, ...rest } = s;
  return { file, id, title, format, events, turns, calls, models, tokens, findings, ok, verdict, parentSession, ...generations, ...rest };
}
