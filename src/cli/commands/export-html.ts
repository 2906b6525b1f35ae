// `dsh-devtools export-html <log> --out FILE [--at SEQ] [--raw]`: the app and
// the log in one HTML file that opens offline from file:// (docs/share-and-privacy.md). The
// app comes from the built single file (dist/dsh-devtools.html, written by
// `npm run build`); the log is redacted unless --raw, gzipped and base64'd.
import fs from 'node:fs';
import path from 'node:path';
import { packLog } from '../../core/share/pack-log.ts';
import { appPartsFromHtml, singleFileHtml } from '../../core/share/single-file.ts';
import { text, wholeNumber } from '../args.ts';
import { UsageError } from '../errors.ts';
import { appDir } from '../package-root.ts';
import type { CliCommand } from '../registry.ts';

const USAGE = 'export-html <log> --out FILE [--at SEQ] [--raw]';
const SINGLE_FILE = 'dsh-devtools.html';
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

export const exportHtmlCommand: CliCommand = {
  name: 'export-html',
  summary: 'Write one self-contained HTML file holding the app and a log: it opens offline from disk, at a cursor.',
  usage: USAGE,
  help: `
The file holds the app (from the built dist/${SINGLE_FILE}) and the log, gzipped
and base64'd. It opens from file:// in Chromium or Firefox with the log loaded,
makes no request, and keeps a strict Content-Security-Policy (its inline script
and style allowed by hash, the worker from a Blob URL, no eval, no network).

  <log>          a log file (.jsonl, .zst, .gz, by content)
  --out FILE     where to write the HTML
  --at SEQ       open at that seq (or the next one after it); default the log's end
  --raw          do not redact: by default API keys, bearer tokens, private keys and
                 secret fields are replaced by [REDACTED…] (the count is printed)

DSH_DEVTOOLS_APP names another built app folder (default: the package's dist/).

example: dsh-devtools export-html session.jsonl --at 120 --out repro.html`,
  flags: {
    out: { type: 'string' },
    at: { type: 'string' },
    raw: { type: 'boolean' },
  },
  async run({ values, positionals }) {
    const usage = `dsh-devtools ${USAGE}`;
    const at = wholeNumber(values.at, 'at', usage);
    const out = text(values.out);
    if (positionals.length !== 1) throw new UsageError(`give one log file; usage: ${usage}`);
    if (!out) throw new UsageError(`--out FILE is needed; usage: ${usage}`);
    const log = positionals[0];
    if (!fs.existsSync(log) || !fs.statSync(log).isFile()) throw new Error(`${log}: no such log file`);
    const single = path.join(appDir(), SINGLE_FILE);
    if (!fs.existsSync(single)) throw new Error(`the built single-file app is missing (${single}); in a clone run \`npm run build\` first`);
    const parts = appPartsFromHtml(fs.readFileSync(single, 'utf8'));

    const raw = values.raw === true;
    const packed = await packLog(fs.createReadStream(log, { highWaterMark: 1 << 20 }) as AsyncIterable<Uint8Array>, { redact: !raw });
    const name = path.basename(log);
    const view = at === undefined ? '' : `cs=${at}`;
    const html = await singleFileHtml(parts, { name, gzip: packed.gzip, redacted: packed.redacted, redactions: packed.redactions, view });
    fs.writeFileSync(out, html);
    const size = Buffer.byteLength(html);
    console.log(`${out}: ${kib(size)} (the app ${kib(size - Math.ceil(packed.gzip.length / 3) * 4)}, the log ${kib(packed.plainBytes)} gzipped to ${kib(packed.gzip.length)}); ${raw ? 'not redacted (--raw)' : `${packed.redactions} secret${packed.redactions === 1 ? '' : 's'} redacted`}`);
    for (const hit of packed.hits.slice(0, 10)) console.error(`  redacted line ${hit.line}: ${hit.what}`);
    if (packed.redactions > 10) console.error(`  … and ${packed.redactions - 10} more`);
  },
};
