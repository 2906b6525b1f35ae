import fs from 'node:fs';
import path from 'node:path';

/**
 * The real-log corpus lives outside the repo (it belongs to the DSH authors):
 * `DSH_CORPUS`, default `../shared/corpus`. A missing directory fails the
 * suite with one line; it never passes vacuously.
 */
export function corpusDir(): string {
  const dir = path.resolve(process.env.DSH_CORPUS ?? '../shared/corpus');
  if (!fs.existsSync(path.join(dir, 'dsh'))) {
    throw new Error(`corpus not found: ${dir}/dsh is missing (set DSH_CORPUS to a directory with dsh/ and expected/)`);
  }
  return dir;
}

export interface CorpusLog {
  name: string;
  file: string;
  expected: any | null;
}

export function corpusLogs(dir = corpusDir()): CorpusLog[] {
  const logs = fs.readdirSync(path.join(dir, 'dsh')).filter((f) => f.endsWith('.jsonl')).sort();
  return logs.map((f) => {
    const name = f.replace(/\.jsonl$/, '');
    const expectedFile = path.join(dir, 'expected', `${name}.json`);
    return {
      name,
      file: path.join(dir, 'dsh', f),
      expected: fs.existsSync(expectedFile) ? JSON.parse(fs.readFileSync(expectedFile, 'utf8')) : null,
    };
  });
}
