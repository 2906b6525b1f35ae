// `dsh-devtools serve-logs <dir> [--port P] [--origin URL]…`: a folder of
// logs served read-only on 127.0.0.1 with Range and CORS for the app's
// origin only, so `?url=…&follow=1` follows a growing log on any browser
// (docs/follow.md; Chromium can follow a local file without it).
import fs from 'node:fs';
import { wholeNumber } from '../args.ts';
import { UsageError } from '../errors.ts';
import type { CliCommand } from '../registry.ts';
import { startFolderServer } from '../serve/log-folder-server.ts';

const USAGE = 'serve-logs <dir> [--port P] [--origin URL]…';

/** Where the app runs unless told: `npm run dev` and `npm run preview`. */
export const DEFAULT_ORIGINS = ['http://localhost:5173', 'http://127.0.0.1:5173', 'http://localhost:4173', 'http://127.0.0.1:4173'];

export const serveLogsCommand: CliCommand = {
  name: 'serve-logs',
  summary: 'Serve a folder of logs read-only on 127.0.0.1 (Range, CORS for the app only), to follow one live in any browser.',
  usage: USAGE,
  help: `
For browsers without the File System Access API: the app at its own origin
reads a log from this server with ?url=http://127.0.0.1:PORT/<file>&follow=1
and follows it as it grows (HTTP Range from the last byte read). Only GET
and HEAD; a path with .. or a symlink that leads out of the folder is
refused (403); a folder's URL lists its entries as JSON. Only pages of the
allowed origins may read anything (others get 403); the Host must be the
loopback address. The base URL is printed on stdout; Ctrl-C stops.

  --port P       listen on port P (default 8765; 0 for a free one)
  --origin URL   an origin allowed to read (repeat for several); default the
                 dev and preview servers: ${DEFAULT_ORIGINS.join(', ')}

example: dsh-devtools serve-logs ~/.dsh/sessions --origin https://devtools.example`,
  flags: {
    port: { type: 'string' },
    origin: { type: 'string', multiple: true },
  },
  async run({ values, positionals }) {
    const usage = `dsh-devtools ${USAGE}`;
    const port = wholeNumber(values.port as string | undefined, 'port', usage) ?? 8765;
    if (port > 65535) throw new UsageError(`--port must be at most 65535; usage: ${usage}`);
    if (positionals.length !== 1) throw new UsageError(`give one folder; usage: ${usage}`);
    const dir = positionals[0];
    if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new Error(`${dir} is not a folder`);
    const given = values.origin as unknown as string[] | undefined;
    const origins = given?.length ? given.map((o) => originOf(o, usage)) : DEFAULT_ORIGINS;
    const server = await startFolderServer({ dir, port, origins });
    process.stdout.write(server.base + '\n');
    console.error(`serve-logs: ${dir} read-only on ${server.base} for ${origins.join(', ')}; open the app with ?url=${server.base}<file>&follow=1; Ctrl-C stops`);
    const signal = await new Promise<NodeJS.Signals>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await server.close();
    console.error(`serve-logs: stopped (${signal})`);
    return 0;
  },
};

/** An origin as the browser sends it (scheme://host[:port], no path). */
function originOf(value: string, usage: string): string {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
    return url.origin;
  } catch {
    throw new UsageError(`--origin needs an http(s) origin like http://localhost:5173, got ${JSON.stringify(value)}; usage: ${usage}`);
  }
}
