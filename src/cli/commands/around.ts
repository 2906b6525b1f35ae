// `dsh-devtools around LOG --seq N --json`: the events around one seq, previews bounded.
import { eventsAround } from '../../core/answers/around.ts';
import { wholeNumber } from '../args.ts';
import { boundedJson, DEFAULT_MAX_BYTES } from '../bounded.ts';
import { UsageError } from '../errors.ts';
import { loadedLogFile } from '../loaded-log.ts';
import type { CliCommand } from '../registry.ts';

const USAGE = 'around <log> --seq N [--before K] [--after K] [--preview CHARS] --json [--max-bytes N]';

export const aroundCommand: CliCommand = {
  name: 'around',
  summary: 'The events around a seq, each with its type, turn, step, what it did to the surface and a one-line preview.',
  usage: USAGE,
  help: `
JSON: {"seq", "atSeq", "events": [{"seq", "type", "turn", "step", "surface",
"preview", "at"}]}. "surface" is append, replace, project, reject or null;
"at" marks the event asked for (or the next one when that seq is not in the
log). Previews are cut to --preview characters.

  --seq N          the seq to look around (required)
  --before K       events before it (default 5)
  --after K        events after it (default 5)
  --preview CHARS  characters of each preview (default 160)
  --json           JSON on stdout (the only output form)
  --max-bytes N    at most N bytes of output (default ${DEFAULT_MAX_BYTES}; 0: no bound)

example: dsh-devtools around session.jsonl --seq 120 --before 3 --after 3 --json`,
  flags: { seq: { type: 'string' }, before: { type: 'string' }, after: { type: 'string' }, preview: { type: 'string' }, json: { type: 'boolean' }, 'max-bytes': { type: 'string' } },
  async run({ values, positionals }) {
    const usage = `dsh-devtools ${USAGE}`;
    const seq = wholeNumber(values.seq, 'seq', usage);
    if (positionals.length !== 1 || seq === undefined) throw new UsageError(`give one log file and --seq; usage: ${usage}`);
    if (!values.json) throw new UsageError(`around prints JSON: give --json; usage: ${usage}`);
    const before = wholeNumber(values.before, 'before', usage) ?? 5;
    const after = wholeNumber(values.after, 'after', usage) ?? 5;
    const preview = wholeNumber(values.preview, 'preview', usage) ?? 160;
    const maxBytes = wholeNumber(values['max-bytes'], 'max-bytes', usage) ?? DEFAULT_MAX_BYTES;
    const { loaded } = await loadedLogFile(positionals[0]);
    process.stdout.write(boundedJson({ ...eventsAround(loaded.run, seq, before, after, preview) }, maxBytes) + '\n');
  },
};
