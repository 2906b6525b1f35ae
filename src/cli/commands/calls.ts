// `dsh-devtools calls LOG --json`: every model call, one JSON line each, for agents and scripts.
import { callLine } from '../../core/answers/calls.ts';
import { wholeNumber } from '../args.ts';
import { boundedLines, DEFAULT_MAX_BYTES } from '../bounded.ts';
import { UsageError } from '../errors.ts';
import { loadedLogFile } from '../loaded-log.ts';
import type { CliCommand } from '../registry.ts';

const USAGE = 'calls <log> --json [--from N] [--max-bytes N]';

export const callsCommand: CliCommand = {
  name: 'calls',
  summary: 'Every model call of a log, one JSON line each: where it is, its model and tokens, why its cache broke, how it ended.',
  usage: USAGE,
  help: `
Each line: {"call", "seq", "turnStep", "attempt", "model", "messages",
"keptMessages", "inputTokens", "outputTokens", "cacheReadTokens",
"cacheBreak", "outcome"}. "call" counts from 1 as the app does; "seq" is the
call's cut (give it to --at or around --seq); "cacheBreak" lists why the
cached prefix broke (null: the call extends the one before). When the lines do
not fit in --max-bytes, a last line says how many were left out and the
--from that lists the rest.

  --json           JSON lines on stdout (the only output form)
  --from N         start at call N (1-based; default 1)
  --max-bytes N    at most N bytes of output (default ${DEFAULT_MAX_BYTES}; 0: no bound)

example: dsh-devtools calls session.jsonl --json --max-bytes 4000`,
  flags: { json: { type: 'boolean' }, from: { type: 'string' }, 'max-bytes': { type: 'string' } },
  async run({ values, positionals }) {
    const usage = `dsh-devtools ${USAGE}`;
    if (positionals.length !== 1) throw new UsageError(`give one log file; usage: ${usage}`);
    if (!values.json) throw new UsageError(`calls prints JSON lines: give --json; usage: ${usage}`);
    const from = Math.max(1, wholeNumber(values.from, 'from', usage) ?? 1);
    const maxBytes = wholeNumber(values['max-bytes'], 'max-bytes', usage) ?? DEFAULT_MAX_BYTES;
    const { loaded } = await loadedLogFile(positionals[0]);
    const calls = loaded.run.requests;
    const lines = calls.slice(from - 1).map((r) => JSON.stringify(callLine(r)));
    process.stdout.write(boundedLines(lines, maxBytes, (shown) => JSON.stringify({ truncated: true, shown, total: calls.length, next: `--from ${from + shown}` })));
  },
};
