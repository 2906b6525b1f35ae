// @vitest-environment jsdom
// The sessions table shows a session with several generations once, as its
// highest, with the older ones one click away (dsh-log-rules L1.2).
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { summarizeLog, type LogSummary } from '../../src/core/folder/summary.ts';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { useFolder } from '../../src/store/folder.ts';
import { FolderView } from '../../src/ui/folder/FolderView.tsx';
import './harness.ts';

const initial = useFolder.getState();
afterEach(() => { cleanup(); useFolder.setState(initial, true); });

/** A format-4 log with the given session id and header version (our generator writes 0 and 4). */
function log(id: string, seed: number, version = 4): Uint8Array {
  const [header, ...rest] = generateLog({ dialect: 'v4', seed, turns: 2 }).lines;
  return new TextEncoder().encode([JSON.stringify({ ...JSON.parse(header), id, version }), ...rest].join('\n') + '\n');
}

const FILES: Record<string, Uint8Array> = {
  'p/a/session.jsonl': log('a', 1, 0),
  'p/a/session.v3.jsonl': log('a', 2, 3),
  'p/a/session.v4.jsonl': log('a', 3),
  'p/b/session.v4.jsonl': log('b', 4),
};

/** The folder store as a finished scan leaves it; `openSession` is a spy (the main view is not under test). */
async function showFolder(summarized = (_rel: string) => true) {
  const rels = Object.keys(FILES).sort();
  const summaries = await Promise.all(rels.map((rel) => (summarized(rel) ? summarizeLog(() => [FILES[rel]], { file: rel, size: FILES[rel].length }) : null)));
  const openSession = vi.fn(async () => {});
  useFolder.setState({
    shown: true, name: 'sessions', status: 'done', done: rels.length, search: null, openSession,
    files: rels.map((rel) => ({ rel, file: new File([FILES[rel] as BlobPart], rel.split('/').pop()!) })),
    summaries: summaries as (LogSummary | null)[],
  });
  render(<FolderView />);
  return { rels, openSession };
}

const rowFiles = (container: HTMLElement) => [...container.querySelectorAll('tbody tr[data-file]')].map((tr) => tr.getAttribute('data-file'));

describe('the sessions table and generations', () => {
  it('one row per session, the highest generation; the older ones open from links on its row', async () => {
    const { rels, openSession } = await showFolder();
    const table = screen.getByRole('table');
    expect(rowFiles(table)).toEqual(['p/a/session.v4.jsonl', 'p/b/session.v4.jsonl']);
    expect(screen.getByRole('status').textContent).toBe('2 sessions (and 2 older generations), 0 other files');
    const row = table.querySelector('tr[data-file="p/a/session.v4.jsonl"]') as HTMLElement;
    expect(row.querySelector('.older-generations')!.textContent).toBe(' older: v3, v0');
    expect(row.querySelector('.older-generations')!.getAttribute('title')).toMatch(/frozen when DSH migrated it/);
    fireEvent.click(within(row).getByRole('button', { name: 'v3' }));
    expect(openSession).toHaveBeenLastCalledWith(rels.indexOf('p/a/session.v3.jsonl'));
    fireEvent.click(within(row).getByRole('button', { name: 'v0' }));
    expect(openSession).toHaveBeenLastCalledWith(rels.indexOf('p/a/session.jsonl'));
    fireEvent.click(within(row).getByTitle('Open p/a/session.v4.jsonl in the main view'));
    expect(openSession).toHaveBeenLastCalledWith(rels.indexOf('p/a/session.v4.jsonl'));
    expect((table.querySelector('tr[data-file="p/b/session.v4.jsonl"]') as HTMLElement).querySelector('.older-generations')).toBeNull();
  });

  it('an older generation is no row while its latest is still being read', async () => {
    await showFolder((rel) => rel !== 'p/a/session.v4.jsonl');
    expect(rowFiles(screen.getByRole('table'))).toEqual(['p/b/session.v4.jsonl', 'p/a/session.v4.jsonl']);
  });
});
