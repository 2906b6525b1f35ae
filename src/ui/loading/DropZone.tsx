import { useEffect, useState } from 'react';
import { openLogs } from '../../store/open-logs.ts';
import { useFolder } from '../../store/folder.ts';
import { filesOfDrop } from '../folder/pick-folder.ts';
import { captureDropHandles } from '../follow/handles.ts';

/** The whole window is a drop target; an overlay says so while a file is dragged over it. */
export function DropZone() {
  const [over, setOver] = useState(false);
  useEffect(() => {
    let depth = 0;
    const enter = (e: DragEvent) => { if (e.dataTransfer?.types.includes('Files')) { depth++; setOver(true); } };
    const leave = () => { depth = Math.max(0, depth - 1); if (depth === 0) setOver(false); };
    const dragover = (e: DragEvent) => e.preventDefault();
    const drop = (e: DragEvent) => {
      e.preventDefault();
      depth = 0;
      setOver(false);
      // The handles (Chromium) let Follow read the file again as it grows (docs/follow.md).
      captureDropHandles(e.dataTransfer);
      const files = [...(e.dataTransfer?.files ?? [])];
      // A dropped folder opens as a sessions folder (docs/sessions-folder.md); files as before. The entries must be read during the drop event.
      const folder = e.dataTransfer ? filesOfDrop(e.dataTransfer.items) : Promise.resolve(null);
      void folder.then((f) => {
        if (f) return useFolder.getState().openFolder(f.name, f.files);
        if (files.length) return openLogs(files.map((file) => ({ kind: 'file' as const, file, name: file.name })));
      });
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragleave', leave);
    window.addEventListener('dragover', dragover);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('dragover', dragover);
      window.removeEventListener('drop', drop);
    };
  }, []);
  return over ? <div className="drop-overlay">Drop a DSH session log to open it (.jsonl, .zst, .gz), or a folder of them</div> : null;
}
