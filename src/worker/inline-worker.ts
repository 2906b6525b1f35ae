import { SINGLE_FILE_IDS } from '../core/share/single-file.ts';

/**
 * The load worker of the single-file app (src/core/share/single-file.ts):
 * its code is a text block of the page, started from a Blob URL, since a
 * page opened from file:// can load no other file. A classic worker: Chromium
 * refuses a module worker from a file:// page's blob, and the worker's bundle
 * has no import or export (scripts/build-single.ts checks). Null in the built app.
 */
export function inlineWorker(): Worker | null {
  const code = globalThis.document?.getElementById(SINGLE_FILE_IDS.worker)?.textContent;
  if (!code) return null;
  return new Worker(URL.createObjectURL(new Blob([code], { type: 'text/javascript' })));
}
