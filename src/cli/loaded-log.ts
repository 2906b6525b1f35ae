import fs from 'node:fs';
import path from 'node:path';
import { loadRun, type LoadedRun } from '../core/compare/run.ts';
import type { ReadResult } from '../core/log/types.ts';
import { readLogFile } from './node-source.ts';

/** One log file, checked as the commands that take one check it: readable, not a folder. */
export function checkLogFile(file: string): void {
  try {
    fs.accessSync(file, fs.constants.R_OK);
  } catch {
    throw new Error(`cannot read ${file}`);
  }
  if (fs.statSync(file).isDirectory()) throw new Error(`${file} is a folder; give one log file`);
}

/** A log file read whole, folded and analysed (the request analysis and the replay index kept), as compare and the exports read it. */
export async function loadedLogFile(file: string): Promise<{ read: ReadResult; loaded: LoadedRun }> {
  checkLogFile(file);
  const read = await readLogFile(file);
  return { read, loaded: loadRun(read, path.basename(file)) };
}
