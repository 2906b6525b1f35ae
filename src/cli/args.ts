// Flag parsing shared by every subcommand: node:util's parseArgs in strict
// mode (an unknown flag or a missing value is a usage mistake, exit 2), plus
// the checks every command needs for numbers.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './errors.ts';

export type FlagSpec = NonNullable<ParseArgsConfig['options']>;

export interface ParsedArgs {
  /** A flag declared `multiple` gives a list. */
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

/** Flags every subcommand accepts. */
export const COMMON_FLAGS: FlagSpec = {
  help: { type: 'boolean', short: 'h' },
  debug: { type: 'boolean' },
};

export function parseFlags(args: readonly string[], flags: FlagSpec, usage: string): ParsedArgs {
  try {
    const { values, positionals } = parseArgs({ args: [...args], options: { ...COMMON_FLAGS, ...flags }, allowPositionals: true, strict: true });
    return { values: values as ParsedArgs['values'], positionals };
  } catch (err) {
    // parseArgs names the flag ("Unknown option '--x'"); the usage line says what is accepted.
    const reason = err instanceof Error ? err.message.replace(/\. To specify a positional argument.*$/s, '') : String(err);
    throw new UsageError(`${reason}; usage: ${usage}`);
  }
}

/** A non-negative whole number given to `--name`, or undefined when the flag is absent. */
export function wholeNumber(value: ParsedArgs['values'][string], name: string, usage: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (typeof value !== 'string' || value.trim() === '' || !Number.isSafeInteger(n) || n < 0) {
    throw new UsageError(`--${name} needs a whole number ≥ 0, got ${JSON.stringify(value)}; usage: ${usage}`);
  }
  return n;
}

/** The value of a string flag (parseArgs guarantees the type; this keeps callers free of casts). */
export function text(value: ParsedArgs['values'][string]): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The values of a flag declared `multiple` (none when absent). */
export function list(value: ParsedArgs['values'][string]): string[] {
  return Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
}
