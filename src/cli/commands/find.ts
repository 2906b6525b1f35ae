// `dsh-devtools find LOG QUERY --json`: the app's search, in the terminal.
import { findEvents } from '../../core/answers/find.ts';
import { wholeNumber } from '../args.ts';
import { boundedJson, DEFAULT_MAX_BYTES } from '../bounded.ts';
import { UsageError } from '../errors.ts';
import { loadedLogFile } from '../loaded-log.ts';
import type { CliCommand } from '../registry.ts';

const USAGE = 'find <log> <query> --json [--limit N] [--context CHARS] [--max-bytes N]';

export const findCommand: CliCommand = {
  name: 'find',
  summary: "The events a search matches, in the app's search language, each with the text around the match.",
  usage: USAGE,
  help: `
The query is the app's search: words (all must occur, any case) and filters
type:tool/call (a type, or a family such as type:tool), tool:bash, job:<id>,
role:user, turn:3, error; quote a phrase: "exit code 1".
JSON: {"query", "total", "matches": [{"seq", "type", "turn", "preview",
"context"}]}; "total" counts every match, "matches" holds at most --limit.

  --json           JSON on stdout (the only output form)
  --limit N        matches listed (default 50)
  --context CHARS  characters either side of the matched word (default 80)
  --max-bytes N    at most N bytes of output (default ${DEFAULT_MAX_BYTES}; 0: no bound)

example: dsh-devtools find session.jsonl 'tool:bash error' --json`,
  flags: { json: { type: 'boolean' }, limit: { type: 'string' }, context: { type: 'string' }, 'max-bytes': { type: 'string' } },
  async run({ values, positionals }) {
    const usage = `dsh-devtools ${USAGE}`;
    if (positionals.length !== 2) throw new UsageError(`give one log file and a query; usage: ${usage}`);
    if (!values.json) throw new UsageError(`find prints JSON: give --json; usage: ${usage}`);
    const limit = wholeNumber(values.limit, 'limit', usage) ?? 50;
    const context = wholeNumber(values.context, 'context', usage) ?? 80;
    const maxBytes = wholeNumber(values['max-bytes'], 'max-bytes', usage) ?? DEFAULT_MAX_BYTES;
    const { read, loaded } = await loadedLogFile(positionals[0]);
    const events = read.events.slice(0, loaded.replay.session.loggedCount);
    process.stdout.write(boundedJson({ ...findEvents(events, positionals[1], limit, context) }, maxBytes) + '\n');
  },
};
