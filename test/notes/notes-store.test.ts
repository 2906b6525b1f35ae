import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import { notesToParam, notesFromParam } from '../../src/core/notes/notes-link.ts';
import { indexedDbNotes, memoryNotes, type NotesRepository } from '../../src/store/notes-db.ts';
import { setNotesRepository, useNotes } from '../../src/store/notes.ts';

const logA = { name: 'a.jsonl', fingerprint: '1a-aaaa' };
const logB = { name: 'b.jsonl', fingerprint: '1b-bbbb' };
const notes = () => useNotes.getState().notes;

/** The store as a reload finds it: a fresh repository on the same IndexedDB, and no log open yet. */
function reload(factory: IDBFactory): void {
  setNotesRepository(indexedDbNotes(factory)!);
  useNotes.setState({ log: null, notes: [], loading: false, notice: null });
}

describe('the notes store, kept in IndexedDB by the log’s fingerprint', () => {
  let factory: IDBFactory;
  beforeEach(() => {
    factory = new IDBFactory();
    reload(factory);
  });

  it('adds, edits and deletes, and a reload finds what was left', async () => {
    await useNotes.getState().openFor(logA);
    const first = useNotes.getState().add({ seq: 12, text: 'the cache broke here' })!;
    useNotes.getState().add({ seq: 3, endSeq: 9, text: 'compare from here' });
    const gone = useNotes.getState().add({ seq: 20, text: '' })!;
    useNotes.getState().edit(first.id, 'the cache broke here (compaction)');
    useNotes.getState().remove(gone.id);
    await new Promise((r) => setTimeout(r, 20));
    reload(factory);
    await useNotes.getState().openFor(logA);
    expect(notes().map((n) => [n.seq, n.text])).toEqual([[3, 'compare from here'], [12, 'the cache broke here (compaction)']]);
    expect(notes()[1].updated).toBeGreaterThanOrEqual(notes()[1].created);
    expect(useNotes.getState().kept).toBe('indexeddb');
  });

  it('keys notes by fingerprint: another log has its own, and the first one’s come back', async () => {
    await useNotes.getState().openFor(logA);
    useNotes.getState().add({ seq: 1, text: 'on A' });
    await useNotes.getState().openFor(logB);
    expect(notes()).toEqual([]);
    useNotes.getState().add({ seq: 2, text: 'on B' });
    await new Promise((r) => setTimeout(r, 20));
    await useNotes.getState().openFor(logA);
    expect(notes().map((n) => n.text)).toEqual(['on A']);
    // The same name with another fingerprint (the file changed) is another log.
    await useNotes.getState().openFor({ name: 'a.jsonl', fingerprint: '2a-cccc' });
    expect(notes()).toEqual([]);
  });

  it('an import given before the log opens is merged once its notes are read, once only', async () => {
    const linked = [{ id: 'linked1', seq: 5, text: '<b>not html</b>', created: 1 }];
    useNotes.getState().importNotes(notesFromParam(notesToParam(linked)), 'the link');
    await useNotes.getState().openFor(logA);
    expect(notes()).toEqual(linked);
    expect(useNotes.getState().notice).toMatch(/^1 note added from the link/);
    useNotes.getState().importNotes(notesFromParam(notesToParam(linked)), 'the link');
    expect(notes()).toHaveLength(1);
    expect(useNotes.getState().notice).toMatch(/^0 notes added/);
  });

  it('reads a tampered record as untrusted, keeping the good notes and saying why', async () => {
    await indexedDbNotes(factory)!.save(logA.fingerprint, { name: 'a.jsonl', saved: 1, notes: [{ id: 'ok', seq: 1, text: 'fine', created: 1 }, { id: 'bad', seq: 'x' }] });
    await useNotes.getState().openFor(logA);
    expect(notes().map((n) => n.id)).toEqual(['ok']);
    expect(useNotes.getState().notice).toMatch(/note 2 left out: its seq/);
  });

  it('a browser whose storage refuses keeps the notes for the tab and says so', async () => {
    const refusing: NotesRepository = { kind: 'indexeddb', load: () => Promise.reject(new Error('SecurityError')), save: () => Promise.reject(new Error('SecurityError')) };
    setNotesRepository(refusing);
    await useNotes.getState().openFor(logA);
    expect(useNotes.getState()).toMatchObject({ kept: 'memory' });
    expect(useNotes.getState().notice).toMatch(/this tab only.*SecurityError/);
    useNotes.getState().add({ seq: 1, text: 'kept here' });
    expect(notes()).toHaveLength(1);
  });

  it('the tab-only store gives back what it kept', async () => {
    const memory = memoryNotes();
    await memory.save('f', { name: 'x', notes: [1], saved: 2 });
    expect(await memory.load('f')).toEqual({ name: 'x', notes: [1], saved: 2 });
    expect(await memory.load('g')).toBeNull();
  });
});
