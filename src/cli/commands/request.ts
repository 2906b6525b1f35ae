// `dsh-devtools request LOG --call N [--curl]`: the HTTP request DSH sent for one model call.
import { curlCommand, providerRequest } from '../../core/requests/wire.ts';
import { wholeNumber } from '../args.ts';
import { UsageError } from '../errors.ts';
import { loadedLogFile } from '../loaded-log.ts';
import type { CliCommand } from '../registry.ts';

const USAGE = 'request <log> --call N [--curl]';

export const requestCommand: CliCommand = {
  name: 'request',
  summary: 'The request body DSH sent for one model call (messages, tools, config), or the call as a cURL command.',
  usage: USAGE,
  help: `
For DSH's DeepSeek adapter (provider deepseek-official) the body is the one it
serialises: POST {base}/chat/completions with model, messages (the system
prompt first), stream, thinking, tools and sampling. The log holds neither
the endpoint nor the key: --curl reads $DEEPSEEK_BASE_URL (else
https://api.deepseek.com) and $DEEPSEEK_API_KEY when the command runs; no key
from the log is ever printed. Another provider's wire body is built outside
DSH: the exact loop request is printed instead, and --curl refuses. What the
copy cannot hold (image bytes, a scrubbed fixture) is said on stderr.

  --call N   the model call, counted from 1 as the app and \`calls\` count them
  --curl     print a cURL command (the body on its standard input)

example: dsh-devtools request session.jsonl --call 3 --curl`,
  flags: { call: { type: 'string' }, curl: { type: 'boolean' } },
  async run({ values, positionals }) {
    const usage = `dsh-devtools ${USAGE}`;
    const call = wholeNumber(values.call, 'call', usage);
    if (positionals.length !== 1 || call === undefined) throw new UsageError(`give one log file and --call; usage: ${usage}`);
    const { loaded } = await loadedLogFile(positionals[0]);
    const calls = loaded.run.requests;
    const r = calls[call - 1];
    if (!r) throw new Error(`${positionals[0]} has ${calls.length} model call${calls.length === 1 ? '' : 's'}; there is no call ${call}`);
    const request = providerRequest(r);
    for (const note of request.notes) process.stderr.write(`note: ${note}\n`);
    process.stdout.write(values.curl ? curlCommand(request) : JSON.stringify(request.body, null, 2) + '\n');
  },
};
