import { fromBase64 } from '../core/share/base64.ts';
import { readLogFragment } from '../core/share/fragment.ts';
import { unpackLog } from '../core/share/pack-log.ts';
import { useSession, type OpenOptions } from './session.ts';
import { useShare, type ShareOrigin } from './share.ts';
import { setHashTail } from './url.ts';
import type { LoadSource } from '../worker/protocol.ts';
import { embeddedLogOfPage, isSingleFile } from './single-file-page.ts';

/**
 * A log that came with the page (docs/share-and-privacy.md): the one embedded in this single
 * file, or the one inside the link's fragment. `open` opens it with the
 * link's view, or shows why it cannot be read and leaves an empty app.
 */
export interface SharedStart {
  open(options: OpenOptions): Promise<void>;
}

/** Null when the page brought no log (the app opens `?url=` or its demo as usual). */
export function sharedLogAtStartup(): SharedStart | null {
  if (isSingleFile()) return embeddedStart();
  const read = readLogFragment(location.hash);
  if (!read) return null;
  if (!read.ok) return failed(read.error);
  const { log } = read;
  const tail = new URLSearchParams();
  for (const k of ['zn', 'zr', 'zb', 'z']) tail.set(k, new URLSearchParams(location.hash.slice(1)).get(k) ?? '');
  return {
    async open(options) {
      let bytes: Uint8Array;
      try {
        bytes = await unpackLog(log.gzip);
      } catch (err) {
        return showError(`The log in this link cannot be decompressed (${err instanceof Error ? err.message : String(err)}); the link is damaged.`);
      }
      const source: LoadSource = { kind: 'bytes', bytes, name: log.name };
      await openOrigin({ kind: 'link', source, name: log.name, redacted: log.redacted, redactions: log.redactions, bytes: log.gzip.length, fragmentTail: tail.toString() }, options);
    },
  };
}

function embeddedStart(): SharedStart {
  let embedded;
  try {
    embedded = embeddedLogOfPage();
  } catch (err) {
    return failed(`The log embedded in this file cannot be read: ${err instanceof Error ? err.message : String(err)}.`);
  }
  // The app alone (dist/dsh-devtools.html): nothing to open, and no demo (it would need the network).
  if (!embedded) return { open: async () => {} };
  // A file opened without a fragment shows the view of the moment it was exported.
  if (location.hash.length <= 1 && embedded.view) history.replaceState(null, '', `${location.pathname}${location.search}#${embedded.view}`);
  const log = embedded;
  return {
    async open(options) {
      let gzip: Uint8Array;
      try {
        gzip = fromBase64(log.data);
        if (gzip.length !== log.bytes) throw new Error(`it holds ${gzip.length} bytes where it says ${log.bytes}; the file was cut short or edited`);
      } catch (err) {
        return showError(`The log embedded in this file cannot be read: ${err instanceof Error ? err.message : String(err)}.`);
      }
      // The reader opens gzip by its magic bytes; the worker decompresses it off the page's thread.
      await openOrigin({ kind: 'file', source: { kind: 'bytes', bytes: gzip, name: log.name }, name: log.name, redacted: log.redacted, redactions: log.redactions, bytes: gzip.length }, options);
    },
  };
}

async function openOrigin(origin: ShareOrigin, options: OpenOptions): Promise<void> {
  useShare.getState().setOrigin(origin);
  await useSession.getState().open(origin.source, options);
}

function failed(error: string): SharedStart {
  return { open: async () => showError(error) };
}

function showError(error: string): void {
  useSession.setState({ status: 'error', error });
}

/** The shared log's origin while it is the open log (null once another log replaced it). */
export function openShareOrigin(): ShareOrigin | null {
  const origin = useShare.getState().origin;
  const session = useSession.getState();
  return origin && session.workspace[session.active]?.source === origin.source && session.summary && !session.summary.partial ? origin : null;
}

// A link's log stays in the address while it is open, so a reload opens it again.
setHashTail(() => openShareOrigin()?.fragmentTail ?? '');
