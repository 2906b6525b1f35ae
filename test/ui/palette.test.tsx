// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { useCompare } from '../../src/store/compare.ts';
import { useCursor } from '../../src/store/cursor.ts';
import { useNotes } from '../../src/store/notes.ts';
import { useSession } from '../../src/store/session.ts';
import { useView } from '../../src/store/view.ts';
import { COMMANDS, useFlash } from '../../src/ui/commands.ts';
import { COMPARE_COMMANDS } from '../../src/ui/compare/commands.ts';
import { NotesPanel } from '../../src/ui/notes/NotesPanel.tsx';
import { nextNote } from '../../src/ui/notes/actions.ts';
import { APP_COMMANDS, commandById, commandsNow, runCommand } from '../../src/ui/palette/command-table.ts';
import { CommandPalette } from '../../src/ui/palette/CommandPalette.tsx';
import { gotoTarget } from '../../src/ui/palette/goto-target.ts';
import { nextTarget } from '../../src/ui/nav-targets.ts';
import { loadText } from './harness.ts';

const text = generateLog({ dialect: 'v0', seed: 4, turns: 5, compactEvery: 2 }).text;
const summary = () => useSession.getState().summary!;
const seqAt = (i: number) => summary().columns.seq[i];

beforeAll(async () => {
  await loadText(text, 'a.jsonl');
  await useNotes.getState().openFor({ name: 'a.jsonl', fingerprint: summary().fingerprint });
});
afterEach(() => { cleanup(); useView.getState().setOverlay(null); });

describe('the command table', () => {
  it('has one entry per id, ids a link can carry, and no key twice in a table', () => {
    for (const table of [APP_COMMANDS, commandsNow(), COMPARE_COMMANDS]) {
      const ids = table.map((c) => c.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of ids) expect(id).toMatch(/^[a-z][a-z0-9-]{0,63}$/);
      const keys = table.flatMap((c) => c.keys);
      expect(new Set(keys).size).toBe(keys.length);
    }
    // Every scrubber command is in it, by the same id.
    for (const c of COMMANDS) expect(commandById(c.id)?.label).toBe(c.label);
    for (const id of ['next-replace', 'add-note', 'next-note', 'prev-note', 'bookmark', 'tab-notes', 'tab-requests', 'compare', 'follow', 'export', 'theme-dark', 'goto', 'goto-call', 'goto-turn', 'search', 'palette']) expect(commandById(id), id).toBeDefined();
  });

  it('runs a command by id, and says why when it cannot', () => {
    useCursor.getState().seek(0);
    expect(runCommand('next-replace')).toBeNull();
    expect(useCursor.getState().index).toBe(nextTarget(summary(), 'replace', 0, 1));
    expect(runCommand('no-such')).toMatch(/no command “no-such”/);
    expect(runCommand('exit-compare')).toBe('Leave compare mode: not comparing');
    expect(runCommand('theme-dark')).toBeNull();
    expect(useView.getState().theme).toBe('dark');
    expect(runCommand('tab-notes')).toBeNull();
    expect(useView.getState().sideTab).toBe('notes');
  });

  it('refuses a single log\'s command in compare mode (a link\'s #cmd=add-note adds nothing there)', () => {
    const notes = useNotes.getState().notes.length;
    useCompare.setState({ status: 'ready' });
    try {
      expect(runCommand('bookmark')).toBe('Bookmark the cursor: not in compare mode');
      expect(runCommand('add-note')).toMatch(/not in compare mode/);
      expect(useNotes.getState().notes.length).toBe(notes);
      expect(useView.getState().overlay).toBeNull();
      expect(runCommand('theme-light')).toBeNull();
    } finally {
      useCompare.setState({ status: 'off' });
    }
  });
});

describe('the go-to box', () => {
  it('takes a seq, call N (from 1) and turn N, and says why it cannot', () => {
    const s = summary();
    expect(gotoTarget('12', s)).toBe(12);
    expect(gotoTarget('seq 12', s)).toBe(12);
    expect(gotoTarget('call 1', s)).toBe(s.callCuts[0]);
    expect(gotoTarget(`c${s.callCuts.length}`, s)).toBe(s.callCuts[s.callCuts.length - 1]);
    expect(gotoTarget('call 0', s)).toMatch(/out of range: this log has calls 1–/);
    const turn3 = gotoTarget('turn 3', s) as number;
    expect(s.columns.turn[turn3]).toBe(3);
    expect(s.columns.turn[turn3 - 1]).toBe(2);
    expect(gotoTarget('turn 99', s)).toBe('there is no turn 99 in this log');
    expect(gotoTarget('call x', s)).toMatch(/not a call number/);
  });
});

describe('the command palette', () => {
  it('fuzzy-finds "replace", shows the keys, and Enter runs the chosen command', () => {
    useCursor.getState().seek(0);
    useView.getState().setOverlay('palette');
    render(<CommandPalette />);
    const input = screen.getByRole('combobox', { name: 'Command' });
    fireEvent.change(input, { target: { value: 'nxt rplc' } });
    const options = screen.getAllByRole('option');
    expect(options[0].getAttribute('data-command')).toBe('next-replace');
    expect(options[0].textContent).toContain('.');
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(useView.getState().overlay).toBeNull();
    expect(useCursor.getState().index).toBe(nextTarget(summary(), 'replace', 0, 1));
  });

  it('a typed "call 2" is a row that goes there; ↓ and Enter pick another row', () => {
    useView.getState().setOverlay('palette');
    render(<CommandPalette />);
    const input = screen.getByRole('combobox', { name: 'Command' });
    fireEvent.change(input, { target: { value: 'call 2' } });
    expect(screen.getAllByRole('option')[0].textContent).toContain('Go to call 2');
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(useCursor.getState().index).toBe(summary().callCuts[1]);
    useView.getState().setOverlay('palette');
    cleanup();
    render(<CommandPalette />);
    const again = screen.getByRole('combobox', { name: 'Command' });
    fireEvent.change(again, { target: { value: 'theme' } });
    const ids = screen.getAllByRole('option').map((o) => o.getAttribute('data-command'));
    fireEvent.keyDown(again, { key: 'ArrowDown' });
    fireEvent.keyDown(again, { key: 'Enter' });
    expect(useView.getState().theme).toBe(ids[1]!.replace('theme-', ''));
  });

  it('a command that cannot run now is shown with why, and Enter does nothing', () => {
    useView.getState().setOverlay('palette');
    render(<CommandPalette />);
    const input = screen.getByRole('combobox', { name: 'Command' });
    fireEvent.change(input, { target: { value: 'leave compare' } });
    const row = screen.getAllByRole('option')[0];
    expect(row.getAttribute('data-command')).toBe('exit-compare');
    expect(row.getAttribute('aria-disabled')).toBe('true');
    expect(row.textContent).toContain('not comparing');
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(useView.getState().overlay).toBe('palette');
  });
});

describe('notes in the app', () => {
  it('m, Shift+M, n and Shift+N: a note and a bookmark, steps between them, hostile text as text', async () => {
    useCursor.getState().seek(20);
    useNotes.getState().add({ seq: seqAt(20), text: '<img src=x onerror="globalThis.__pwned=1">cache' });
    useCursor.getState().seek(60);
    runCommand('bookmark');
    expect(useNotes.getState().notes.map((n) => n.text)).toEqual(['<img src=x onerror="globalThis.__pwned=1">cache', '']);
    useCursor.getState().seek(0);
    runCommand('next-note');
    expect(useCursor.getState().index).toBe(20);
    runCommand('next-note');
    expect(useCursor.getState().index).toBe(60);
    runCommand('next-note');
    expect(useFlash.getState().text).toBe('no next note');
    runCommand('prev-note');
    expect(useCursor.getState().index).toBe(20);
    expect(nextNote(summary(), useNotes.getState().notes, 60, 1)).toBeNull();
    await act(async () => { render(<NotesPanel />); });
    const rows = document.querySelectorAll('.note-row');
    expect(rows).toHaveLength(2);
    expect(rows[0].querySelector('.note-text')!.textContent).toBe('<img src=x onerror="globalThis.__pwned=1">cache');
    expect(document.querySelector('.note-row img')).toBeNull();
    expect((globalThis as { __pwned?: number }).__pwned).toBeUndefined();
    expect(rows[1].textContent).toContain('(bookmark)');
  });
});
