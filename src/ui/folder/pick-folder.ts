import type { FolderFile } from '../../store/folder.ts';

/** The files of a directory input (`webkitdirectory`): each with its path under the picked folder. */
export function filesOfInput(list: FileList): { name: string; files: FolderFile[] } {
  const files = [...list].map((file) => {
    const path = (file as File & { webkitRelativePath?: string }).webkitRelativePath || file.name;
    return { path, file };
  });
  const name = files[0]?.path.split('/')[0] ?? 'folder';
  // The picked folder's own name leads every path: the table shows paths under it.
  const under = files.map(({ path, file }) => ({ rel: path.startsWith(`${name}/`) ? path.slice(name.length + 1) : path, file }));
  // Hidden folders (.git, .cache) are skipped, as a dropped folder's are.
  return { name, files: under.filter((f) => !f.rel.split('/').slice(0, -1).some((part) => part.startsWith('.'))) };
}

/** Dropped items that are folders, read recursively (FileSystemEntry API); null when no folder was dropped. */
export async function filesOfDrop(items: DataTransferItemList): Promise<{ name: string; files: FolderFile[] } | null> {
  const entries = [...items].map((i) => i.webkitGetAsEntry?.()).filter((e): e is FileSystemEntry => !!e);
  if (!entries.some((e) => e.isDirectory)) return null;
  const files: FolderFile[] = [];
  for (const e of entries) await walk(e, entries.length === 1 && e.isDirectory ? '' : e.name, files);
  return { name: entries.length === 1 ? entries[0].name : `${entries.length} items`, files };
}

async function walk(entry: FileSystemEntry, rel: string, out: FolderFile[]): Promise<void> {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    out.push({ rel: rel || entry.name, file });
    return;
  }
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries returns the listing in batches until an empty one.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) break;
    for (const child of batch) {
      if (child.isDirectory && child.name.startsWith('.')) continue;
      await walk(child, rel ? `${rel}/${child.name}` : child.name, out);
    }
  }
}
