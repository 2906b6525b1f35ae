import { generateLog, type GenerateOptions } from '../generate/generate-log.ts';
import { Rng } from '../generate/prng.ts';
import { readLogText } from '../log/reader.ts';
import type { ReadResult } from '../log/types.ts';
import { foldSession, type ArraySessionFold } from '../session/fold-session.ts';

/**
 * A log the fuzzer mutates: its text split into lines, and the core's own
 * results on it, which every mutated case is compared against.
 */
export interface FuzzBase {
  name: string;
  text: string;
  bytes: Uint8Array;
  /** Lines without their '\n'; `lines[k - 1]` is physical line k. */
  lines: string[];
  /** Whether the text ends with '\n' (false leaves a partial last line). */
  endsWithNewline: boolean;
  read: ReadResult;
  fold: ArraySessionFold;
  /** Rows carry no seq/time (a normalized snapshot). */
  numbered: boolean;
}

const enc = new TextEncoder();

export function makeBase(name: string, text: string): FuzzBase {
  const endsWithNewline = text.endsWith('\n');
  const lines = text.split('\n');
  if (endsWithNewline) lines.pop();
  const read = readLogText(text);
  return {
    name,
    text,
    bytes: enc.encode(text),
    lines,
    endsWithNewline,
    read,
    fold: foldSession(read),
    numbered: read.diagnostics.some((d) => d.code === 'row.numbered'),
  };
}

/** Joins lines the way the base did. */
export function joinLines(base: FuzzBase, lines: readonly string[]): string {
  return lines.join('\n') + (base.endsWithNewline && lines.length ? '\n' : '');
}

/**
 * Generated bases are named by their options, so a printed base name is
 * enough to rebuild it: `gen:v4:7:small`. `dsh021` is a format-4 log shaped
 * like DSH 0.2.1-alpha.2's (dsh-log-rules V4).
 */
export type BaseSize = 'tiny' | 'small' | 'large';
export type BaseShape = 'v0' | 'v4' | 'dsh021';

export function generatedBaseName(shape: BaseShape, seed: number, size: BaseSize): string {
  return `gen:${shape}:${seed}:${size}`;
}

export function generatedOptions(name: string): GenerateOptions | null {
  const m = /^gen:(v0|v4|dsh021):(\d+):(tiny|small|large)$/.exec(name);
  if (!m) return null;
  const seed = Number(m[2]);
  const rng = new Rng(seed * 7919 + 17);
  const [turns, steps]: [number, number][] = m[3] === 'tiny' ? [[1, 2], [1, 2]] : m[3] === 'small' ? [[1, 3], [1, 3]] : [[2, 8], [1, 5]];
  return {
    dialect: m[1] === 'v0' ? 'v0' : 'v4',
    ...(m[1] === 'dsh021' ? { dsh021: true } : {}),
    seed,
    turns: rng.int(...turns),
    stepsPerTurn: rng.int(...steps),
    compactEvery: rng.pick([0, 2, 3]),
    packChunks: rng.chance(0.8),
    openLastTurn: rng.chance(0.3),
    imageOffload: rng.chance(0.4),
  };
}

/** Bases by name, built on first use and kept. */
export class BasePool {
  private readonly cache = new Map<string, FuzzBase>();
  private readonly corpus = new Map<string, string>();
  readonly names: string[];

  /**
   * @param generated how many generator seeds per dialect (0 = none)
   * @param corpus real logs as name → text
   */
  constructor(generated: number, size: BaseSize, corpus: ReadonlyMap<string, string> = new Map()) {
    const names: string[] = [];
    for (let s = 1; s <= generated; s++) names.push(generatedBaseName('v0', s, size), generatedBaseName('v4', s, size), generatedBaseName('dsh021', s, size));
    for (const [name, text] of corpus) {
      this.corpus.set(`corpus:${name}`, text);
      names.push(`corpus:${name}`);
    }
    this.names = names;
  }

  get(name: string): FuzzBase {
    let base = this.cache.get(name);
    if (base) return base;
    const options = generatedOptions(name);
    const text = options ? generateLog(options).text : this.corpus.get(name);
    if (text === undefined) throw new Error(`unknown fuzz base ${name}`);
    base = makeBase(name, text);
    this.cache.set(name, base);
    return base;
  }
}
