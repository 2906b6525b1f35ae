// The subcommand table of `dsh-devtools`. A command is one module under
// src/cli/commands/ exporting a CliCommand; commands/index.ts lists them,
// and the dispatcher (main.ts) gives each the same help, flag parsing,
// error lines and exit codes.
import type { FlagSpec, ParsedArgs } from './args.ts';

export interface CliCommand {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** The usage line after `dsh-devtools `, e.g. `inspect <log> [--json]`. */
  usage: string;
  /** The rest of `--help`: what it does, each flag, examples. */
  help: string;
  flags: FlagSpec;
  /** Returns the exit code (0 when it returns nothing); throws UsageError for exit 2. */
  run(args: ParsedArgs): Promise<number | void> | number | void;
}

export function usageOf(command: CliCommand): string {
  return `dsh-devtools ${command.usage}`;
}

export function helpOf(command: CliCommand): string {
  return `usage: ${usageOf(command)}\n\n${command.summary}\n\n${command.help.trim()}\n\n  --debug        on an error, print its stack too\n  -h, --help     this help\n`;
}
