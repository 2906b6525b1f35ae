import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.ts';

/**
 * Session generations (dsh-log-rules L1.2): DSH migrates a session to a newer
 * format by writing a successor file beside the untouched source, so one
 * session directory may hold `session.jsonl[.zstd]` (generation 0) and
 * `session.v<N>.jsonl[.zstd]` (generation N ≥ 1). DSH reads the highest; the
 * others are immutable history (I4). Only canonical names count: lowercase
 * `v`, no leading zeros, no `v0`, nothing after the extension (temp files).
 */
const GENERATION_NAME = /^session(?:\.v([1-9][0-9]*))?\.jsonl(\.zstd)?$/;

/** One generation file of a session directory. */
export interface GenerationFile {
  /** The path as given (relative to the folder). */
  file: string;
  generation: number;
  /** `.jsonl.zstd` (else `.jsonl`). */
  compressed: boolean;
}

/** One session directory's generations. */
export interface SessionGenerations {
  /** The directory, relative to the folder ('' for the folder itself). */
  dir: string;
  /** The highest generation: the file DSH reads. */
  latest: GenerationFile;
  /** Every other generation, highest first. */
  older: GenerationFile[];
}

/** The generations of a whole folder, by session directory and by file. */
export interface GenerationIndex {
  sessions: SessionGenerations[];
  /** Each generation file's session; a file not named as a generation is not here. */
  byFile: ReadonlyMap<string, SessionGenerations>;
}

/** A finding about a session's generations: a diagnostic, and the files it is about. */
export interface GenerationFinding extends Diagnostic {
  files: string[];
}

/** The generation a file name (not a path) stands for, null when the name is not canonical. */
export function generationOfName(name: string): { generation: number; compressed: boolean } | null {
  const m = GENERATION_NAME.exec(name);
  if (!m) return null;
  const generation = m[1] === undefined ? 0 : Number(m[1]);
  // A number past 2^53 is no generation DSH could have written.
  if (!Number.isSafeInteger(generation)) return null;
  return { generation, compressed: m[2] !== undefined };
}

const dirOf = (file: string) => file.slice(0, Math.max(0, file.lastIndexOf('/')));
const nameOf = (file: string) => file.slice(file.lastIndexOf('/') + 1);
const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Groups a folder's files (relative paths, forward slashes) by session directory. */
export function generationIndex(files: readonly string[]): GenerationIndex {
  const byDir = new Map<string, GenerationFile[]>();
  for (const file of new Set(files)) {
    const g = generationOfName(nameOf(file));
    if (!g) continue;
    const dir = dirOf(file);
    const list = byDir.get(dir);
    if (list) list.push({ file, ...g });
    else byDir.set(dir, [{ file, ...g }]);
  }
  const sessions: SessionGenerations[] = [];
  const byFile = new Map<string, SessionGenerations>();
  for (const [dir, list] of byDir) {
    // Highest first. One number twice happens only beside mixed compression, which DSH refuses: name order decides.
    list.sort((a, b) => b.generation - a.generation || byPath(a.file, b.file));
    const session = { dir, latest: list[0], older: list.slice(1) };
    sessions.push(session);
    for (const g of list) byFile.set(g.file, session);
  }
  return { sessions, byFile };
}

/** The file's generation, null for a file not named as one. */
export function generationOf(index: GenerationIndex, file: string): GenerationFile | null {
  const s = index.byFile.get(file);
  return s ? [s.latest, ...s.older].find((g) => g.file === file) ?? null : null;
}

/** An older generation: history of its session, not a session of its own. */
export function isOlderGeneration(index: GenerationIndex, file: string): boolean {
  const s = index.byFile.get(file);
  return s !== undefined && s.latest.file !== file;
}

/**
 * The files in the order a list shows them: each session's latest generation
 * at its own place in `files`, its older ones directly after it, highest
 * first; every other file alone, where it was.
 */
export function generationGroups(files: readonly string[], index: GenerationIndex): string[][] {
  const groups: string[][] = [];
  for (const file of files) {
    const s = index.byFile.get(file);
    if (!s) groups.push([file]);
    else if (s.latest.file === file) groups.push([file, ...s.older.map((g) => g.file)]);
  }
  return groups;
}

/**
 * What a session's generations say, worst first: a directory mixing
 * compressed and uncompressed generations (DSH refuses it), a header version
 * that is not its file name's number (`formatOf` gives a file's header
 * version when its summary is known), and each older generation present (I4).
 */
export function generationFindings(session: SessionGenerations, formatOf: (file: string) => number | null | undefined = () => null): GenerationFinding[] {
  const all = [session.latest, ...session.older];
  const findings: GenerationFinding[] = [];
  if (all.some((g) => g.compressed) && all.some((g) => !g.compressed)) {
    const names = all.map((g) => nameOf(g.file)).sort(byPath).join(', ');
    findings.push({
      ...diagnostic('generation.mixed-compression', `${session.dir || 'The folder'} mixes compressed and uncompressed generations (${names}): DSH refuses a root that mixes .jsonl and .jsonl.zstd`),
      files: all.map((g) => g.file),
    });
  }
  for (const g of all) {
    const version = formatOf(g.file);
    if (version === null || version === undefined || version === g.generation) continue;
    findings.push({
      ...diagnostic('generation.version-mismatch', `${g.file}: the header says version ${version}, the file name generation ${g.generation}`, { subject: `format ${version}` }),
      files: [g.file],
    });
  }
  for (const g of session.older) {
    findings.push({
      ...diagnostic('generation.older', `Older generation v${g.generation} present (immutable): ${g.file}; DSH reads v${session.latest.generation}, ${nameOf(session.latest.file)}`),
      files: [g.file],
    });
  }
  return findings;
}
