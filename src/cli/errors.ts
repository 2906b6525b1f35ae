// Errors in every command (the installed `dsh-devtools` and the dev scripts)
// read the same way: one line per error on stderr, exit 1 (2 for a usage
// mistake), and the stack only with --debug.
import { LoadStopped } from '../core/log/load-stopped.ts';

/** A mistake in the command line itself: the script prints its usage line and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export const debugRequested = (argv: readonly string[] = process.argv): boolean => argv.includes('--debug');

/** `name: message` on one line: a finding's message as it is, any other error with its type when that says something. */
export function errorLine(name: string, err: unknown): string {
  let message: string;
  if (err instanceof LoadStopped || err instanceof UsageError) message = err.message;
  else if (err instanceof Error) message = `${err.name && err.name !== 'Error' ? `${err.name}: ` : ''}${err.message}`;
  else message = String(err);
  return `${name}: ${message.replace(/\s*\n\s*/g, ' ')}`;
}

export function report(name: string, err: unknown): void {
  console.error(errorLine(name, err));
  if (!debugRequested()) return;
  for (let e: unknown = err; e instanceof Error; e = e.cause) console.error(e.stack);
}

/**
 * Reports any error that escapes the script (a throw at the top level, a
 * callback, a stray promise) by the project's rules. Call it first thing.
 */
export function installCliErrors(name: string): void {
  const fatal = (err: unknown) => { report(name, err); process.exit(err instanceof UsageError ? 2 : 1); };
  process.on('uncaughtException', fatal);
  process.on('unhandledRejection', fatal);
  // Output piped into `head` that stops reading is not an error.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => { if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0); else fatal(err); });
}

/**
 * Runs a script's main function by the same rules (exit 2 for a UsageError);
 * a number it returns is the exit code (1: findings the user asked to fail on).
 */
export async function runCli(name: string, main: () => Promise<number | void> | number | void): Promise<void> {
  installCliErrors(name);
  try {
    const code = await main();
    if (typeof code === 'number') process.exitCode = code;
  } catch (err) {
    report(name, err);
    process.exitCode = err instanceof UsageError ? 2 : 1;
  }
}
