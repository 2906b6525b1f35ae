/**
 * Where a log's notes are kept between visits (docs/notes.md): IndexedDB,
 * one record per log fingerprint holding the log's name and its notes —
 * never the log's content. A browser without IndexedDB (or one refusing it,
 * as some private modes do) keeps notes for the tab only.
 */
export interface NotesRecord {
  name: string;
  notes: unknown;
  saved: number;
}

export interface NotesRepository {
  /** Where the notes live, for the Notes tab to say. */
  readonly kind: 'indexeddb' | 'memory';
  load(fingerprint: string): Promise<NotesRecord | null>;
  save(fingerprint: string, record: NotesRecord): Promise<void>;
}

const DB_NAME = 'dsh-devtools';
const STORE = 'notes';

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

function committed(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB write was aborted'));
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB write failed'));
  });
}

/** The notes store in IndexedDB (opened on first use); null when the browser has none. */
export function indexedDbNotes(factory: IDBFactory | undefined = globalThis.indexedDB): NotesRepository | null {
  if (!factory) return null;
  let db: Promise<IDBDatabase> | null = null;
  const open = () => (db ??= new Promise<IDBDatabase>((resolve, reject) => {
    const req = factory.open(DB_NAME, 1);
    req.onupgradeneeded = () => { if (!req.result.objectStoreNames.contains(STORE)) req.result.createObjectStore(STORE); };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => { db = null; reject(req.error ?? new Error('IndexedDB could not be opened')); };
    // A blocked open may never settle: the next use tries again rather than wait on it forever.
    req.onblocked = () => { db = null; reject(new Error('IndexedDB is blocked by another tab')); };
  }));
  return {
    kind: 'indexeddb',
    async load(fingerprint) {
      const tx = (await open()).transaction(STORE, 'readonly');
      const value = await request(tx.objectStore(STORE).get(fingerprint));
      return value && typeof value === 'object' ? (value as NotesRecord) : null;
    },
    async save(fingerprint, record) {
      const tx = (await open()).transaction(STORE, 'readwrite');
      tx.objectStore(STORE).put(record, fingerprint);
      // A put's success is not the write: only a committed transaction is on disk (an abort undoes it).
      await committed(tx);
    },
  };
}

/** Notes for this tab only. */
export function memoryNotes(): NotesRepository {
  const records = new Map<string, NotesRecord>();
  return {
    kind: 'memory',
    load: async (fingerprint) => records.get(fingerprint) ?? null,
    save: async (fingerprint, record) => { records.set(fingerprint, structuredClone(record)); },
  };
}
