// `dsh-devtools open <log|folder|url> [--at SEQ] [--notes FILE] [--port P] [--no-browser] [--follow]`:
// the built app and the named log on 127.0.0.1 behind a random token, opened
// in the default browser (the page loads the log through `?url=`, same origin,
// so the app's `connect-src 'self'` covers it). Runs until Ctrl-C or SIGTERM.
import fs from 'node:fs';
import path from 'node:path';
import type { Note } from '../../core/notes/note.ts';
import { readNotesFile } from '../../core/notes/notes-file.ts';
import { MAX_LINK_NOTES_CHARS, withNotesParam } from '../../core/notes/notes-link.ts';
import { text, wholeNumber } from '../args.ts';
import { UsageError } from '../errors.ts';
import { openBrowser } from '../open/browser.ts';
import { FOLDER_DEPTH, resolveTarget } from '../open/logs.ts';
import { startLogServer, type LogServer } from '../open/server.ts';
import { appDir } from '../package-root.ts';
import type { CliCommand } from '../registry.ts';

const USAGE = 'open <log|folder|url> [--at SEQ] [--notes FILE] [--port P] [--no-browser] [--follow]';
/** Logs of a folder listed on stderr; the rest are still served. */
const SHOWN = 20;

export const openCommand: CliCommand = {
  name: 'open',
  summary: 'Open a log in the app: serve the built app and the log on 127.0.0.1 and open the browser.',
  usage: USAGE,
  help: `
The page and the log are served only under a random token in the URL (any
other path gets 403), on 127.0.0.1, with the app's Content-Security-Policy.
The log is read in place, never copied. The URL is printed on stdout; notes
go to stderr. Ctrl-C (or SIGTERM) stops the server.

  <log>          a log file (.jsonl, .zst, .gz, by content)
  <folder>       serves the folder's logs read-only (*.jsonl[.zstd|.zst|.gz], up to
                 ${FOLDER_DEPTH} levels down, as DSH lays out sessions) and opens the newest
                 session, at its highest generation (session.v<N>.jsonl[.zstd], the file
                 DSH reads); the others are listed on stderr with their URLs, older
                 generations marked
  <url>          an http(s) log URL: this command fetches it for the page, so the host needs no CORS
  --at SEQ       put the cursor on that seq (or the next one after it)
  --notes FILE   a notes file (<log>.notes.json, as the app's Notes tab saves it): its
                 notes go into the page's notes for the log opened (the first one of a
                 folder), which the browser keeps in its IndexedDB; a note that cannot be
                 read is left out and said so on stderr
  --port P       listen on port P (default: a free port)
  --no-browser   do not start a browser; open the printed URL yourself
  --follow       the page follows the log as it grows (?url=…&follow=1: it reads the
                 new bytes with Range requests, like tail -f; see docs/follow.md)

The browser is started with xdg-open (Linux), open (macOS) or the URL handler
(Windows), or the program named by $BROWSER. DSH_DEVTOOLS_APP names another
built app folder to serve (default: the package's dist/).

example: dsh-devtools open session.jsonl --at 120 --notes session.jsonl.notes.json`,
  flags: {
    at: { type: 'string' },
    notes: { type: 'string' },
    port: { type: 'string' },
    'no-browser': { type: 'boolean' },
    follow: { type: 'boolean' },
  },
  async run({ values, positionals }) {
    const usage = `dsh-devtools ${USAGE}`;
    const at = wholeNumber(values.at, 'at', usage);
    const port = wholeNumber(values.port, 'port', usage) ?? 0;
    if (port > 65535) throw new UsageError(`--port must be at most 65535; usage: ${usage}`);
    if (positionals.length !== 1) throw new UsageError(`give one log, folder or URL; usage: ${usage}`);

    const app = appDir();
    if (!fs.existsSync(path.join(app, 'index.html'))) {
      throw new Error(`the built app is missing (${app}/index.html); in a clone run \`npm run build\` first`);
    }
    const target = resolveTarget(positionals[0]);
    if (target.entries.length === 0) throw new Error(`no logs in ${target.label} (looked for *.jsonl and *.ndjson, plain or .zstd, .zst, .gz, up to ${FOLDER_DEPTH} levels down)`);

    const first = target.entries[0].rel;
    const notesPath = text(values.notes);
    // Read before the server starts, so an unreadable file stops the command with nothing left running.
    const notes = notesPath === undefined ? [] : notesFor(notesPath, first);

    const server = await startLogServer({ appDir: app, target, port });
    const stopped = untilStopped(server);
    // Only the opened log gets the cursor and the notes: the page keys notes by the log it loads.
    const pageFor = (rel: string, opened: boolean) => {
      const hash = opened ? withNotesParam(at === undefined ? '' : `cs=${at}`, notes) : '';
      return `${server.base}?url=${encodeURIComponent(server.logUrl(rel))}${values.follow ? '&follow=1' : ''}${hash ? `#${hash}` : ''}`;
    };
    const url = pageFor(first, true);
    process.stdout.write(url + '\n');
    console.error(`open: serving ${target.kind === 'folder' ? `${target.entries.length} log${target.entries.length === 1 ? '' : 's'} of ${target.label}` : target.label} on ${new URL(server.base).host}, only to the token in the URL; Ctrl-C stops`);
    if (target.kind === 'folder') {
      console.error(`open: opened the newest, ${first}${target.entries.length > 1 ? '; the others:' : ''}`);
      for (const entry of target.entries.slice(1, SHOWN + 1)) console.error(`  ${entry.rel}  ${pageFor(entry.rel, false)}${entry.olderGenerationOf ? `  (older generation, immutable; DSH reads ${entry.olderGenerationOf})` : ''}`);
      if (target.entries.length > SHOWN + 1) console.error(`  … and ${target.entries.length - SHOWN - 1} more (served too)`);
      for (const note of target.notes ?? []) console.error(`open: note: ${note}`);
    }
    if (!values['no-browser']) {
      // A Ctrl-C while the browser starts ends the wait too: the launcher's own timer and child keep
      // nothing alive, so awaiting it alone after the server closed would leave the command unsettled.
      const failed = await Promise.race([openBrowser(url), stopped.then(() => null)]);
      if (failed) console.error(`open: could not start a browser (${failed}); open the URL above yourself`);
    }
    await stopped;
    return 0;
  },
};

/**
 * The notes of `--notes FILE` for the log opened as `rel`: what could be read,
 * each problem said on stderr. An unreadable file is an error.
 */
function notesFor(file: string, rel: string): Note[] {
  let body: string;
  try {
    body = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(`cannot read the notes file ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (err as Error).message}`);
  }
  const read = readNotesFile(body, file);
  for (const problem of read.problems) console.error(`open: note: ${problem}`);
  const opened = baseName(rel);
  // Still used: the user named this file for this log, and the page files the notes under the log it opens.
  if (read.log && baseName(read.log.name) !== opened) console.error(`open: note: ${file} was saved for ${read.log.name}, not ${opened}; its notes go to ${opened}`);
  if (!read.notes.length) return [];
  // The page refuses a longer parameter; say so here rather than hand it a URL it will not read.
  if (withNotesParam('', read.notes).length - 'notes='.length > MAX_LINK_NOTES_CHARS) {
    console.error(`open: note: the ${read.notes.length} notes are over ${MAX_LINK_NOTES_CHARS / 1024} KiB in a URL, left out of it; drop ${file} on the app instead`);
    return [];
  }
  console.error(`open: ${read.notes.length} note${read.notes.length === 1 ? '' : 's'} from ${file} go to the page`);
  return read.notes;
}

const baseName = (name: string): string => name.split(/[\\/]/).pop() ?? name;

/** Resolves once Ctrl-C or SIGTERM has closed the server. */
function untilStopped(server: LogServer): Promise<void> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      console.error(`open: stopped (${signal})`);
      void server.close().then(resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
