// What `open` serves besides the app: one log file, the logs of a folder
// (read-only, looked up by relative path on each request), or a log URL the
// command fetches for the page. Every lookup is confined to what was named.
import fs from 'node:fs';
import path from 'node:path';
import { generationFindings, generationGroups, generationIndex } from '../../core/folder/generations.ts';

/** A log file's name as DSH writes it (dsh-log-rules L1.2: `.jsonl`, `.jsonl.zstd`) or as people save one. */
const LOG_NAME = /\.(jsonl|ndjson)(\.(zstd|zst|gz))?$/i;
/** A folder is searched this deep: DSH's layout is root / project / session / file (dsh-log-rules L1.2). */
export const FOLDER_DEPTH = 3;
/** Listing stops here; a folder with more logs still serves every one of them by path. */
const LIST_LIMIT = 10_000;

export type ServedLog = { kind: 'file'; file: string; size: number } | { kind: 'url'; url: string };

export interface LogEntry {
  /** The path under `/logs/` (forward slashes). */
  rel: string;
  mtimeMs: number;
  /** For an older generation of a session (dsh-log-rules L1.2): the file DSH reads instead. */
  olderGenerationOf?: string;
}

export interface LogTarget {
  /** What the user named, for messages. */
  label: string;
  kind: 'file' | 'folder' | 'url';
  /** The logs to offer, newest first (one for a file or a URL); a session's older generations right after it. */
  entries: LogEntry[];
  /** What DSH would say of the folder's layout (a session directory mixing .jsonl and .jsonl.zstd), one line each. */
  notes?: string[];
  /** The log for a request path under `/logs/`, or null (404). */
  lookup(rel: string): ServedLog | null;
}

/** Resolves the `open` argument; throws a one-line Error for what cannot be served. */
export function resolveTarget(arg: string): LogTarget {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(arg)) return urlTarget(arg);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(arg);
    fs.accessSync(arg, fs.constants.R_OK);
  } catch {
    throw new Error(`cannot read ${arg}`);
  }
  return stat.isDirectory() ? folderTarget(arg) : fileTarget(arg);
}

function fileTarget(arg: string): LogTarget {
  const file = path.resolve(arg);
  const rel = path.basename(file);
  return {
    label: arg, kind: 'file',
    entries: [{ rel, mtimeMs: fs.statSync(file).mtimeMs }],
    lookup: (r) => (r === rel ? regularFile(file) : null),
  };
}

function urlTarget(arg: string): LogTarget {
  const url = new URL(arg);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${arg}: only http(s) URLs can be opened`);
  // The page fetches the log from this server, which fetches the URL: the host needs no CORS.
  const rel = decodeURIComponent(url.pathname.split('/').filter(Boolean).pop() ?? '') || 'log.jsonl';
  return { label: arg, kind: 'url', entries: [{ rel, mtimeMs: 0 }], lookup: (r) => (r === rel ? { kind: 'url', url: url.href } : null) };
}

function folderTarget(arg: string): LogTarget {
  const root = fs.realpathSync(arg);
  const found: LogEntry[] = [];
  walk(root, '', 1, found);
  const { entries, notes } = bySession(found);
  return {
    label: arg, kind: 'folder', entries, notes,
    lookup(rel) {
      const parts = rel.split('/');
      if (parts.length > FOLDER_DEPTH || !LOG_NAME.test(rel) || parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\\') || p.includes('\0'))) return null;
      let real: string;
      try {
        real = fs.realpathSync(path.join(root, ...parts));
      } catch {
        return null;
      }
      // A symlink out of the folder is not the folder's log.
      if (!real.startsWith(root + path.sep)) return null;
      return regularFile(real);
    },
  };
}

/**
 * The newest session first, as the generation DSH reads (dsh-log-rules L1.2), its older
 * generations after it: a session is as new as the newest of its files, so a migrated
 * session is not hidden behind its own frozen history.
 */
function bySession(found: readonly LogEntry[]): { entries: LogEntry[]; notes: string[] } {
  const rels = found.map((e) => e.rel);
  const generations = generationIndex(rels);
  const byRel = new Map(found.map((e) => [e.rel, e]));
  const groups = generationGroups(rels, generations).map((group) => group.map((rel, i) => (i === 0 ? byRel.get(rel)! : { ...byRel.get(rel)!, olderGenerationOf: group[0] })));
  const newest = (group: readonly LogEntry[]) => Math.max(...group.map((e) => e.mtimeMs));
  groups.sort((a, b) => newest(b) - newest(a) || a[0].rel.localeCompare(b[0].rel));
  const notes = generations.sessions.flatMap((s) => generationFindings(s).filter((f) => f.refuses).map((f) => f.message));
  return { entries: groups.flat(), notes };
}

function walk(dir: string, prefix: string, depth: number, out: LogEntry[]): void {
  let names: fs.Dirent[];
  try {
    names = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return; // an unreadable sub-folder is left out of the list
  }
  for (const d of names) {
    if (out.length >= LIST_LIMIT) return;
    const rel = prefix ? `${prefix}/${d.name}` : d.name;
    if (d.isFile() && LOG_NAME.test(d.name)) out.push({ rel, mtimeMs: fs.statSync(path.join(dir, d.name)).mtimeMs });
    else if (d.isDirectory() && depth < FOLDER_DEPTH && !d.name.startsWith('.')) walk(path.join(dir, d.name), rel, depth + 1, out);
  }
}

function regularFile(file: string): ServedLog | null {
  try {
    const stat = fs.statSync(file);
    return stat.isFile() ? { kind: 'file', file, size: stat.size } : null;
  } catch {
    return null;
  }
}
