import fs from 'node:fs';
import path from 'node:path';

export type Resolved =
  | { ok: true; file: string; stat: fs.Stats }
  | { ok: false; status: 400 | 403 | 404; reason: string };

/**
 * The file a request path names inside `root` (a real path), or why not:
 * a `..` or `.` segment, a backslash or NUL, or a path whose real location
 * (symlinks followed) lies outside the folder is refused, never resolved.
 */
export function resolveInside(root: string, pathname: string): Resolved {
  let parts: string[];
  try {
    parts = pathname.split('/').filter((p) => p !== '').map((p) => decodeURIComponent(p));
  } catch {
    return { ok: false, status: 400, reason: 'bad path' };
  }
  if (parts.some((p) => p === '..' || p === '.' || p.includes('\\') || p.includes('/') || p.includes('\0'))) {
    return { ok: false, status: 403, reason: 'paths that leave the folder are refused' };
  }
  const joined = path.join(root, ...parts);
  let real: string;
  try {
    real = fs.realpathSync(joined);
  } catch {
    return { ok: false, status: 404, reason: 'not found' };
  }
  if (real !== root && !real.startsWith(root + path.sep)) return { ok: false, status: 403, reason: 'a link out of the folder is refused' };
  return { ok: true, file: real, stat: fs.statSync(real) };
}

/** A folder's entries as the server lists them: names, sizes and times, links out of the folder left out. */
export function listFolder(root: string, dir: string): { name: string; size: number; modified: number; folder: boolean }[] {
  const out: { name: string; size: number; modified: number; folder: boolean }[] = [];
  for (const name of fs.readdirSync(dir).sort()) {
    const inside = resolveInside(root, path.relative(root, path.join(dir, name)).split(path.sep).map(encodeURIComponent).join('/'));
    if (!inside.ok) continue;
    out.push({ name, size: inside.stat.size, modified: inside.stat.mtimeMs, folder: inside.stat.isDirectory() });
  }
  return out;
}

/** `Range: bytes=…` against a file of `size` bytes: one [start, end] (inclusive), 'unsatisfiable', or null (no or unsupported range: the whole file). */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const n = Number(m[2]);
    if (n === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}
