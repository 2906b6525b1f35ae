// `dsh-devtools state LOG --at SEQ --json`: what was in force at a seq.
import { stateAt } from '../../core/answers/state.ts';
import { inspect } from '../../core/inspect.ts';
import { wholeNumber } from '../args.ts';
import { boundedJson, DEFAULT_MAX_BYTES } from '../bounded.ts';
import { UsageError } from '../errors.ts';
import { checkLogFile } from '../loaded-log.ts';
import { readLogFile } from '../node-source.ts';
import type { CliCommand } from '../registry.ts';

const USAGE = 'state <log> --at SEQ --json [--max-bytes N]';

export const stateCommand: CliCommand = {
  name: 'state',
  summary: 'What was in force at a seq: the surface node ids, every projection value and watermark, the system prompt, the runtime context.',
  usage: USAGE,
  help: `
JSON: {"asOfSeq", "surface": {"count", "ids", "replaceGeneration",
"contentGeneration", "messages"}, "projections": {key: {"observedSeq",
"value"}}, "systemPrompt": {"setBySeq", "setBy", "chars", "text"},
"runtimeContext": {"seq", "sections"} | null, "lastCall": {"call", "seq",
"turnStep"} | null}. A long list or text that does not fit --max-bytes is
cut, and "truncated" names each cut.

  --at SEQ         the seq (a seq past the last is the end of the log)
  --json           JSON on stdout (the only output form)
  --max-bytes N    at most N bytes of output (default ${DEFAULT_MAX_BYTES}; 0: no bound)

example: dsh-devtools state session.jsonl --at 120 --json`,
  flags: { at: { type: 'string' }, json: { type: 'boolean' }, 'max-bytes': { type: 'string' } },
  async run({ values, positionals }) {
    const usage = `dsh-devtools ${USAGE}`;
    const at = wholeNumber(values.at, 'at', usage);
    if (positionals.length !== 1 || at === undefined) throw new UsageError(`give one log file and --at; usage: ${usage}`);
    if (!values.json) throw new UsageError(`state prints JSON: give --json; usage: ${usage}`);
    const maxBytes = wholeNumber(values['max-bytes'], 'max-bytes', usage) ?? DEFAULT_MAX_BYTES;
    checkLogFile(positionals[0]);
    const inspection = inspect(await readLogFile(positionals[0]), { at, briefCalls: true });
    process.stdout.write(boundedJson({ ...stateAt(inspection) }, maxBytes) + '\n');
  },
};
