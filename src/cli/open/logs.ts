// What `open` serves besides the app: one log file, the logs of a folder
// (read-only, looked up by relative path on each request), or a log URL the
// command fetches for the page. Every lookup is confined to what was named.
import fs from 'node:fs';
import path from 'node:path';

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
}

export interface LogTarget {
  /** What the user named, for messages. */
  label: string;
  kind: 'file' | 'folder' | 'url';
  /** The logs to offer, newest first (one for a file or a URL). */
  entries: LogEntry[];
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
  const entries: LogEntry[] = [];
  walk(root, '', 1, entries);
  entries.sort((a, b) => b.mtimeMs - a.mtimeMs || a.rel.localeCompare(b.rel));
  return {
    label: arg, kind: 'folder', entries,
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
