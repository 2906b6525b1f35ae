import { describe, expect, it } from 'vitest';
import { addNote, deleteNote, editNote, mergeNotes, NOTE_LIMITS, noteKind, notePlace, type Note } from '../../src/core/notes/note.ts';
import { readNotes } from '../../src/core/notes/notes-read.ts';
import { isNotesFileName, notesFileName, notesFileText, readNotesFile } from '../../src/core/notes/notes-file.ts';
import { MAX_LINK_NOTES_CHARS, notesFromParam, notesToParam, withNotesParam } from '../../src/core/notes/notes-link.ts';
import { noteIndexes, noteIsOnLog, noteStops } from '../../src/core/notes/note-targets.ts';

const at = (seq: number, text: string, id = `n${seq}`, created = 1000 + seq): Note => ({ id, seq, text, created });

describe('notes: the list a log keeps', () => {
  it('adds in seq order, keeps a range the right way round, says what each note is on', () => {
    let notes = addNote([], { seq: 40, text: '  the cache broke here  ' }, 'a', 1)!;
    notes = addNote(notes, { seq: 90, endSeq: 12, text: 'compare from here' }, 'b', 2)!;
    notes = addNote(notes, { seq: 30, call: 4, text: '' }, 'c', 3)!;
    notes = addNote(notes, { seq: 50, text: '' }, 'd', 4)!;
    expect(notes.map((n) => n.id)).toEqual(['b', 'c', 'a', 'd']);
    expect(notes[0]).toMatchObject({ seq: 12, endSeq: 90 });
    expect(notes.find((n) => n.id === 'a')!.text).toBe('the cache broke here');
    expect(notes.map(noteKind)).toEqual(['range', 'call', 'event', 'bookmark']);
    expect(notes.map(notePlace)).toEqual(['seqs 12–90', 'model call 4 (seq 30)', 'seq 40', 'seq 50']);
  });

  it('edits and deletes by id, and stamps the edit', () => {
    const notes = [at(1, 'one'), at(2, 'two')];
    const edited = editNote(notes, 'n2', 'deux', 5000);
    expect(edited[1]).toMatchObject({ text: 'deux', updated: 5000 });
    expect(edited[0]).toBe(notes[0]);
    expect(deleteNote(edited, 'n1').map((n) => n.id)).toEqual(['n2']);
    expect(deleteNote(edited, 'nope')).toHaveLength(2);
  });

  it('cuts text to the limit and refuses a note past the most a log holds', () => {
    const long = addNote([], { seq: 1, text: 'x'.repeat(NOTE_LIMITS.text + 50) }, 'a', 1)!;
    expect(long[0].text).toHaveLength(NOTE_LIMITS.text);
    const full = Array.from({ length: NOTE_LIMITS.notes }, (_, i) => at(i, 't'));
    expect(addNote(full, { seq: 1, text: 'one more' }, 'z', 1)).toBeNull();
  });

  it('merges by id: the newer copy wins, new ones are added while there is room', () => {
    const mine = [at(1, 'old', 'a', 10), at(2, 'mine', 'b', 10)];
    const theirs = [{ ...at(1, 'newer', 'a', 10), updated: 20 }, { ...at(2, 'older', 'b', 5) }, at(3, 'new', 'c')];
    const merged = mergeNotes(mine, theirs);
    expect(merged.notes.map((n) => n.text)).toEqual(['newer', 'mine', 'new']);
    expect([merged.added, merged.updated, merged.dropped]).toEqual([1, 1, 0]);
    expect(mergeNotes(merged.notes, theirs)).toMatchObject({ added: 0, updated: 0 });
    const full = Array.from({ length: NOTE_LIMITS.notes }, (_, i) => at(i, 't'));
    expect(mergeNotes(full, [at(9999, 'over')]).dropped).toBe(1);
  });
});

describe('notes from outside are untrusted', () => {
  it('keeps the good notes, leaves out the bad ones with a reason, keeps no unknown field', () => {
    const hostile = '<img src=x onerror=alert(1)><script>alert(2)</script>';
    const read = readNotes([
      { ...at(5, hostile), extra: 'dropped', __proto__: { polluted: true } },
      { id: 'bad id!', seq: 1, text: '', created: 1 },
      { id: 'x', seq: -1, text: '', created: 1 },
      { id: 'y', seq: 3, endSeq: 2, text: '', created: 1 },
      { id: 'z', seq: 3, text: 7, created: 1 },
      at(6, 'x'.repeat(NOTE_LIMITS.text * 3)),
      at(5, 'again', 'n5'),
      'not an object',
    ], 'test');
    expect(read.notes.map((n) => n.id)).toEqual(['n5', 'n6']);
    // Hostile text is kept as text (the UI renders it as text); nothing but the known fields survives.
    expect(read.notes[0]).toEqual(at(5, hostile));
    expect(read.notes[1].text).toHaveLength(NOTE_LIMITS.text);
    expect(read.problems.join('\n')).toMatch(/note 2 left out: its id/);
    expect(read.problems.join('\n')).toMatch(/more problems?$/m);
    expect(readNotes({ notes: [] }, 'test').problems[0]).toMatch(/not a list/);
  });

  it('reads at most the most notes a log holds', () => {
    const many = Array.from({ length: NOTE_LIMITS.notes + 10 }, (_, i) => at(i, ''));
    const read = readNotes(many, 'test');
    expect(read.notes).toHaveLength(NOTE_LIMITS.notes);
    expect(read.problems[0]).toMatch(/at most 500 notes/);
  });
});

describe('the notes sidecar', () => {
  const log = { name: 'session.jsonl', fingerprint: '2n9c-abc123' };
  it('round-trips, names its log, and is named after it', () => {
    const notes = [at(3, 'three'), { ...at(9, 'range'), endSeq: 12 }, { ...at(10, ''), call: 2 }];
    const text = notesFileText(log, notes);
    expect(readNotesFile(text)).toEqual({ log, notes, problems: [] });
    expect(notesFileName('/tmp/x/session.v2.jsonl')).toBe('session.v2.jsonl.notes.json');
    expect(isNotesFileName('Session.JSONL.notes.json')).toBe(true);
    expect(isNotesFileName('session.jsonl')).toBe(false);
  });

  it('says why a file is not one, and reads a bad log name as none', () => {
    expect(readNotesFile('{').problems[0]).toMatch(/not JSON/);
    expect(readNotesFile('{"format":"other"}').problems[0]).toMatch(/not a DSH Devtools notes file/);
    expect(readNotesFile('{"format":"dsh-devtools-notes","version":9,"notes":[]}').problems[0]).toMatch(/version 9/);
    const read = readNotesFile(JSON.stringify({ format: 'dsh-devtools-notes', version: 1, log: { name: 'a', fingerprint: '<b>' }, notes: [at(1, 'ok')] }));
    expect(read.log).toBeNull();
    expect(read.notes).toHaveLength(1);
    expect(readNotesFile(' '.repeat(4 * 1024 * 1024 + 1)).problems[0]).toMatch(/over 4 MiB/);
  });
});

describe('notes in a link', () => {
  it('round-trip through the fragment beside the view, unicode included', () => {
    const notes = [at(3, 'le cache a cassé ici — 缓存 🙂'), { ...at(7, ''), endSeq: 9 }];
    const fragment = withNotesParam('#log=a.jsonl&c=4', notes);
    const p = new URLSearchParams(fragment);
    expect(p.get('c')).toBe('4');
    expect(notesFromParam(p.get('notes')!)).toEqual({ notes, problems: [] });
    expect(withNotesParam(fragment, [])).toBe('log=a.jsonl&c=4');
    expect(notesToParam(notes)).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('refuses a parameter that is too long or not base64 JSON', () => {
    expect(notesFromParam('A'.repeat(MAX_LINK_NOTES_CHARS + 1)).problems[0]).toMatch(/over 256 KiB/);
    expect(notesFromParam('%%%').problems[0]).toMatch(/not readable/);
    expect(notesFromParam(notesToParam([{ id: 'x' } as unknown as Note])).problems[0]).toMatch(/note 1 left out/);
  });
});

describe('where notes land in a log', () => {
  const seqs = Float64Array.from([0, 1, 2, 5, 6, 9, 0, 0]); // a column longer than its 6 events
  it('each at its seq, or the next event when the log skips it, -1 past the end', () => {
    const notes = [at(2, ''), at(3, ''), at(9, ''), at(10, ''), at(2, '', 'again')];
    expect(Array.from(noteIndexes(notes, seqs, 6))).toEqual([2, 3, 5, -1, 2]);
    expect(notes.map((n) => noteIsOnLog(n, seqs, 6))).toEqual([true, false, true, false, true]);
    expect(Array.from(noteStops(noteIndexes(notes, seqs, 6)))).toEqual([2, 3, 5]);
    expect(Array.from(noteIndexes(notes, seqs, 0))).toEqual([-1, -1, -1, -1, -1]);
  });
});
