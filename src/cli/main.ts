// `dsh-devtools <command> [flags]`: the installed command (bin, built to
// dist-cli/ by `npm run build:cli`) and the npm scripts (`npm run inspect`,
// through tsx) both start here, so both run the same code.
import fs from 'node:fs';
import { parseFlags } from './args.ts';
import { COMMANDS } from './commands/index.ts';
import { runCli, UsageError } from './errors.ts';
import { packageInfo } from './package-root.ts';
import { helpOf, usageOf, type CliCommand } from './registry.ts';

const PROGRAM = 'dsh-devtools';

function overview(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 2;
  return [
    `${PROGRAM} ${packageInfo().version}: DeepSeek Harness (DSH) session logs in the browser and the terminal`,
    '',
    `usage: ${PROGRAM} <command> [flags]     (${PROGRAM} <command> --help for its flags)`,
    '',
    'commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    'exit codes: 0 ok; 1 an error, or findings a flag asked to fail on; 2 a usage mistake.',
    'Errors are one line on stderr; --debug adds the stack.',
    '',
  ].join('\n');
}

async function main(argv: readonly string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-v') return void (await runCli(PROGRAM, () => void console.log(packageInfo().version)));
  if (name === 'help' && rest.length) {
    const topic = COMMANDS.find((c) => c.name === rest[0]);
    if (topic) return void process.stdout.write(helpOf(topic));
    return runCli(PROGRAM, () => { throw unknownCommand(rest[0]); });
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    // Asking for help is not a mistake; running with nothing is (exit 2), but the list is still shown.
    (name === undefined ? process.stderr : process.stdout).write(overview());
    if (name === undefined) process.exitCode = 2;
    return;
  }
  const command = commandFor(name, rest);
  if (!command) {
    return runCli(PROGRAM, () => { throw unknownCommand(name); });
  }
  await run(command, command.name === name ? rest : rest.slice(1));
}

/**
 * The command a name picks. `npm run inspect -- summary <dir>` arrives as
 * `inspect summary <dir>` (the script fixes the first word): another
 * command's name there runs that command, unless a file of that name exists.
 */
function commandFor(name: string, rest: readonly string[]): CliCommand | undefined {
  const next = rest[0];
  if (name === 'inspect' && next !== undefined && next !== 'inspect' && !fs.existsSync(next)) {
    const other = COMMANDS.find((c) => c.name === next);
    if (other) return other;
  }
  return COMMANDS.find((c) => c.name === name);
}

function unknownCommand(name: string): UsageError {
  return new UsageError(`unknown command ${JSON.stringify(name)}; the commands are ${COMMANDS.map((c) => c.name).join(', ')} (${PROGRAM} --help)`);
}

function run(command: CliCommand, args: readonly string[]): Promise<void> {
  return runCli(command.name, () => {
    const parsed = parseFlags(args, command.flags, usageOf(command));
    if (parsed.values.help) return void process.stdout.write(helpOf(command));
    return command.run(parsed);
  });
}

await main(process.argv.slice(2));
