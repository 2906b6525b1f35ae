import { appPartsFromHtml, parseEmbeddedLog, SINGLE_FILE_IDS, type AppParts, type EmbeddedLog } from '../core/share/single-file.ts';

/** Whether this page is the single-file app (dist/dsh-devtools.html or an export of it). */
export function isSingleFile(): boolean {
  return document.getElementById(SINGLE_FILE_IDS.worker) !== null;
}

/** The log this single file carries (null: none); throws when its block cannot be read. */
export function embeddedLogOfPage(): EmbeddedLog | null {
  const block = document.getElementById(SINGLE_FILE_IDS.log);
  return block ? parseEmbeddedLog(block.textContent || 'null') : null;
}

/** The file the built app keeps beside index.html (scripts/build-single.ts). */
const SINGLE_FILE_URL = './dsh-devtools.html';

/**
 * The app's code for a new single file: this page's own blocks when it is one
 * (from file:// it can fetch nothing), else the built single file beside it.
 */
export async function appParts(): Promise<AppParts> {
  if (isSingleFile()) {
    const text = (id: string) => document.getElementById(id)?.textContent ?? '';
    return { css: text(SINGLE_FILE_IDS.style), script: text(SINGLE_FILE_IDS.script), worker: text(SINGLE_FILE_IDS.worker) };
  }
  const missing = (why: string) => new Error(`the single-file app (dsh-devtools.html) is not beside this page (${why}): the export works from the built app — run \`npm run build\`, then \`npm run preview\``);
  const response = await fetch(SINGLE_FILE_URL, { credentials: 'omit' }).catch((err: unknown) => { throw missing(String(err)); });
  if (!response.ok) throw missing(`HTTP ${response.status}`);
  return appPartsFromHtml(await response.text());
}
