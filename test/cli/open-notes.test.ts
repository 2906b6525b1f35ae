// `dsh-devtools open --notes FILE`: the sidecar's notes reach the page in the
// URL's hash (`notes=`, beside `cs=`), only for the log opened; what cannot be
// read is said on stderr, and a file that cannot be read at all is an error.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import type { Note } from '../../src/core/notes/note.ts';
import { notesFileText } from '../../src/core/notes/notes-file.ts';
import { notesFromParam } from '../../src/core/notes/notes-link.ts';
import { builtApp, bundledCommand, openSuite } from '../helpers/open-cli.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-open-notes-'));
const logText = generateLog({ dialect: 'v4', seed: 5, turns: 2 }).text;
const logFile = path.join(dir, 'session.jsonl');
fs.writeFileSync(logFile, logText);
const fingerprint = 'abc123-def456';

// In seq order, as a read gives them back.
const NOTES: Note[] = [
  { id: 'n-bookmark', seq: 2, text: '', created: 1_700_000_000_000 },
  { id: 'n-call', seq: 4, call: 1, text: 'the second call: why so long?', created: 1_700_000_001_000, updated: 1_700_000_002_000 },
  { id: 'n_range', seq: 6, endSeq: 9, text: 'retries here — “quoted”, ünïcode', created: 1_700_000_003_000 },
];

function notesFile(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}
const good = notesFile('session.jsonl.notes.json', notesFileText({ name: 'session.jsonl', fingerprint }, NOTES));

const open = openSuite();
const hashOf = (url: URL) => new URLSearchParams(url.hash.replace(/^#/, ''));

describe('dsh-devtools open --notes', () => {
  it('puts the file\'s notes, exactly, in the URL\'s hash as notes=', async () => {
    const run = await open([logFile, '--no-browser', '--notes', good]);
    const hash = hashOf(run.url);
    expect([...hash.keys()]).toEqual(['notes']);
    expect(notesFromParam(hash.get('notes')!)).toEqual({ notes: NOTES, problems: [] });
    const { code, stderr } = await run.stop();
    expect(code).toBe(0);
    expect(stderr).toContain(`open: 3 notes from ${good} go to the page`);
    expect(stderr).not.toContain('open: note:');
  }, 30_000);

  it('keeps cs= with --at, the notes beside it', async () => {
    const run = await open([logFile, '--no-browser', '--at', '7', '--notes', good]);
    expect(run.url.hash.startsWith('#cs=7&notes=')).toBe(true);
    const hash = hashOf(run.url);
    expect(hash.get('cs')).toBe('7');
    expect(notesFromParam(hash.get('notes')!).notes).toEqual(NOTES);
    await run.stop();
  }, 30_000);

  it('opens with the notes that can be read, and says on stderr why the others were left out', async () => {
    const withBad = JSON.parse(notesFileText({ name: 'session.jsonl', fingerprint }, NOTES)) as { notes: unknown[] };
    withBad.notes.splice(1, 0, { id: 'n-bad', seq: -1, text: 'x', created: 1 });
    const file = notesFile('bad.notes.json', JSON.stringify(withBad));
    const run = await open([logFile, '--no-browser', '--notes', file]);
    expect(notesFromParam(hashOf(run.url).get('notes')!).notes).toEqual(NOTES);
    expect(await run.stderrWith('open: note: ')).toContain(`open: note: ${file}: note 2 left out: its seq is not a whole number ≥ 0\n`);
    expect((await fetch(run.logUrl)).status).toBe(200);
    await run.stop();
  }, 30_000);

  it('no notes readable: no notes= (and the cursor alone stays)', async () => {
    const file = notesFile('none.notes.json', JSON.stringify({ format: 'dsh-devtools-notes', version: 1, notes: [{ id: 'bad id!', seq: 1, text: '', created: 1 }] }));
    const run = await open([logFile, '--no-browser', '--notes', file]);
    expect(run.url.hash).toBe('');
    await run.stop();
    const withCursor = await open([logFile, '--no-browser', '--at', '3', '--notes', file]);
    expect(withCursor.url.hash).toBe('#cs=3');
    expect(await withCursor.stderrWith('open: note: ')).toContain(`open: note: ${file}: note 1 left out: its id is not`);
    await withCursor.stop();
  }, 30_000);

  it('a file saved for a log of another name is still used, and said so', async () => {
    const file = notesFile('other.notes.json', notesFileText({ name: 'yesterday.jsonl', fingerprint }, NOTES.slice(0, 1)));
    const run = await open([logFile, '--no-browser', '--notes', file]);
    expect(notesFromParam(hashOf(run.url).get('notes')!).notes).toEqual(NOTES.slice(0, 1));
    expect(await run.stderrWith('open: note: ')).toContain(`open: note: ${file} was saved for yesterday.jsonl, not session.jsonl; its notes go to session.jsonl`);
    await run.stop();
  }, 30_000);

  it('only the opened log of a folder gets the notes, not the others listed', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-open-notes-folder-'));
    const older = path.join(root, 'older.jsonl');
    fs.writeFileSync(older, logText);
    fs.utimesSync(older, new Date(2020, 0, 1), new Date(2020, 0, 1));
    fs.writeFileSync(path.join(root, 'session.jsonl'), logText);
    const run = await open([root, '--no-browser', '--at', '2', '--notes', good]);
    expect(run.logUrl.pathname.endsWith('/logs/session.jsonl')).toBe(true);
    expect(notesFromParam(hashOf(run.url).get('notes')!).notes).toEqual(NOTES);
    const listed = (await run.stderrWith('  older.jsonl  ')).split('\n').find((l) => l.trim().startsWith('older.jsonl'))!;
    expect(new URL(listed.trim().split(/\s+/)[1]).hash).toBe('');
    await run.stop();
  }, 30_000);

  it('a missing or unreadable notes file is one line and exit 1', () => {
    const cases: Array<[string, RegExp]> = [
      [path.join(dir, 'missing.notes.json'), /^open: cannot read the notes file .*missing\.notes\.json: no such file$/],
      [dir, /^open: cannot read the notes file .*: it is a folder$/],
    ];
    for (const [file, message] of cases) {
      const run = spawnSync(bundledCommand()[0], [...bundledCommand().slice(1), 'open', logFile, '--no-browser', '--notes', file], { encoding: 'utf8', env: { ...process.env, DSH_DEVTOOLS_APP: builtApp() }, timeout: 20_000 });
      expect(run.status, file).toBe(1);
      expect(run.stdout, file).toBe('');
      expect(run.stderr.trim().split('\n'), file).toHaveLength(1);
      expect(run.stderr.trim(), file).toMatch(message);
    }
  }, 30_000);

  it('--notes without a file is a usage mistake (exit 2)', () => {
    const run = spawnSync(bundledCommand()[0], [...bundledCommand().slice(1), 'open', logFile, '--notes'], { encoding: 'utf8', env: { ...process.env, DSH_DEVTOOLS_APP: builtApp() }, timeout: 20_000 });
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toMatch(/^open: Option '--notes <value>' argument missing; usage: dsh-devtools open .*\[--notes FILE\]/);
  });
});
