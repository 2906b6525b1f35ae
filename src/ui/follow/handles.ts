/**
 * File handles kept from "Open log" and drops, where the browser has the
 * File System Access API (Chromium): a handle reads the file again as it
 * grows, which a plain File (a snapshot) cannot. Keyed by name, size and
 * time, since the File the page opens and the one a handle gives are
 * different objects. The handles stay in this tab's memory only.
 */
import { openLogs } from '../../store/open-logs.ts';

interface PickerWindow {
  showOpenFilePicker?(options?: { multiple?: boolean }): Promise<FileSystemFileHandle[]>;
}
interface HandleItem {
  getAsFileSystemHandle?(): Promise<FileSystemHandle | null>;
}

const handles = new Map<string, FileSystemFileHandle>();

const keyOf = (file: File) => `${file.name}\u0000${file.size}\u0000${file.lastModified}`;

/** Whether this browser can keep a file handle (else Follow says why). */
export function fileAccessSupported(): boolean {
  return typeof (globalThis as PickerWindow).showOpenFilePicker === 'function';
}

/** The handle a file was opened through, if the browser gave one. */
export function handleFor(source: Blob): FileSystemFileHandle | undefined {
  return source instanceof File ? handles.get(keyOf(source)) : undefined;
}

/** "Open log" through the browser's picker, keeping the handles; null when the picker is missing or cancelled. */
export async function pickLogFiles(): Promise<File[] | null> {
  const picker = (globalThis as PickerWindow).showOpenFilePicker;
  if (!picker) return null;
  let picked: FileSystemFileHandle[];
  try {
    picked = await picker.call(globalThis, { multiple: true });
  } catch {
    return null; // the user cancelled
  }
  return Promise.all(picked.map(async (handle) => {
    const file = await handle.getFile();
    handles.set(keyOf(file), handle);
    return file;
  }));
}

/** "Open log": the browser's picker where it keeps handles, else `fallback` (the file input). */
export async function openWithPicker(fallback: () => void): Promise<void> {
  if (!fileAccessSupported()) return fallback();
  const files = await pickLogFiles();
  if (files?.length) await openLogs(files.map((file) => ({ kind: 'file' as const, file, name: file.name })));
}

/** Called in a drop handler (handles must be asked for before it returns): keeps the dropped files' handles. */
export function captureDropHandles(data: DataTransfer | null): void {
  for (const item of [...(data?.items ?? [])]) {
    const ask = item.kind === 'file' ? (item as unknown as HandleItem).getAsFileSystemHandle : undefined;
    if (!ask) continue;
    void ask.call(item).then(async (handle) => {
      if (handle?.kind !== 'file') return;
      const fileHandle = handle as FileSystemFileHandle;
      handles.set(keyOf(await fileHandle.getFile()), fileHandle);
    }).catch(() => undefined);
  }
}
