import { useRef } from 'react';
import { useFolder } from '../../store/folder.ts';
import { filesOfInput } from './pick-folder.ts';

/** Toolbar: open a sessions folder (the browser's directory picker), and go back to its table from the main view. */
export function FolderButtons() {
  const input = useRef<HTMLInputElement>(null);
  const name = useFolder((s) => s.name);
  const shown = useFolder((s) => s.shown);
  return (
    <>
      <button onClick={() => input.current?.click()} title="Open a folder of session logs (read recursively; logs told by content): every session in a table">Open folder</button>
      <input ref={input} type="file" hidden aria-label="Open folder" multiple
        // The directory mode is not in React's input props: set as attributes.
        {...{ webkitdirectory: '', directory: '' }}
        onChange={(e) => { const list = e.target.files; if (list?.length) { const { name: folder, files } = filesOfInput(list); void useFolder.getState().openFolder(folder, files); } e.target.value = ''; }} />
      {name && !shown && <button onClick={() => useFolder.getState().show(true)} title={`Back to the sessions of ${name}`}>Sessions</button>}
    </>
  );
}
