import { lazy, Suspense, useEffect } from 'react';
import { useCursor } from '../../store/cursor.ts';
import { useSession } from '../../store/session.ts';
import { startApp } from '../../store/startup.ts';
import { useView } from '../../store/view.ts';
import { elementOwnsKey, keyOf, useFlash } from '../commands.ts';
import { commandForKeyNow, runCommand } from '../palette/command-table.ts';
import { useLink } from '../../store/link.ts';
import { LinkNotice } from '../loading/LinkNotice.tsx';
import { EventList } from '../events/EventList.tsx';
import { DropZone } from '../loading/DropZone.tsx';
import { LoadStatus } from '../loading/LoadStatus.tsx';
import { Toolbar } from '../loading/Toolbar.tsx';
import { Scrubber } from '../scrubber/Scrubber.tsx';
import { LiveTail } from '../follow/LiveTail.tsx';
import { SurfacePanel } from '../surface/SurfacePanel.tsx';
import { Timeline } from '../timeline/Timeline.tsx';
import { SidePanel } from './SidePanel.tsx';
import { Workspace } from './Workspace.tsx';
import { Overlays } from './Overlays.tsx';
import { useCompare } from '../../store/compare.ts';
import { WhatIfBar } from '../whatif/WhatIfBar.tsx';
import { useFolder } from '../../store/folder.ts';
import { FolderView } from '../folder/FolderView.tsx';
import { ShareNotice } from '../share/ShareNotice.tsx';
import { useRequestsShortcut } from '../requests/full-window.tsx';
import { RequestsFull } from './RequestsFull.tsx';
import { DeferredCursorProvider } from '../hooks/useDeferredCursor.ts';

// Compare mode loads on first use, keeping the initial bundle small.
const CompareView = lazy(() => import('../compare/CompareView.tsx').then((m) => ({ default: m.CompareView })));

/** Startup (store/startup.ts), once per page. */
function useStartup(): void {
  useEffect(() => startApp(), []);
}

/** Ctrl/Cmd+K or Ctrl+Shift+P: the palette opens over anything, a text box included (as in Chrome DevTools and VS Code). */
function isPaletteKey(e: KeyboardEvent): boolean {
  const k = e.key.toLowerCase();
  return ((e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey && k === 'k') || (e.ctrlKey && e.shiftKey && !e.altKey && k === 'p');
}

function useKeyboard(): void {
  useEffect(() => {
    // In the capture phase: a text box that stops its keys (the events search) must not keep these.
    const onPaletteKey = (e: KeyboardEvent) => {
      if (!isPaletteKey(e) || useFolder.getState().shown) return;
      e.preventDefault();
      e.stopPropagation();
      const v = useView.getState();
      v.setOverlay(v.overlay === 'palette' ? null : 'palette');
    };
    const onKey = (e: KeyboardEvent) => {
      const key = keyOf(e);
      // A focused control keeps its own keys: a text box all of them, a separator or slider its arrows.
      if (e.defaultPrevented || elementOwnsKey(e.target as Element, key)) return;
      // The sessions table is not a session: the replay keys wait until one is open again.
      if (useFolder.getState().shown) return;
      const cmd = commandForKeyNow(key);
      // Shift+R belongs to the Requests view's own listener (full-window.tsx), which runs first.
      if (!cmd || cmd.id === 'requests-full' || e.ctrlKey || e.metaKey || e.altKey) return;
      e.preventDefault();
      cmd.run();
    };
    window.addEventListener('keydown', onPaletteKey, { capture: true });
    window.addEventListener('keydown', onKey);
    return () => { window.removeEventListener('keydown', onPaletteKey, { capture: true }); window.removeEventListener('keydown', onKey); };
  }, []);
}

/**
 * A link's `#cmd=<id>` (docs/notes.md): run once its log is open and read,
 * then taken out of the address so a reload does not run it again. A
 * command typed into the address of an open page runs too.
 */
function useLinkCommand(): void {
  const command = useLink((s) => s.command);
  const waiting = useLink((s) => s.pending !== null);
  const ready = useSession((s) => s.status === 'ready' && !!s.summary && !s.summary.partial);
  useEffect(() => {
    const onHash = () => {
      const id = new URLSearchParams(location.hash.slice(1)).get('cmd');
      if (id) useLink.getState().setCommand(id);
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  useEffect(() => {
    if (!command || !ready || waiting) return;
    useLink.getState().setCommand(null);
    const p = new URLSearchParams(location.hash.slice(1));
    if (p.has('cmd')) { p.delete('cmd'); history.replaceState(null, '', `${location.pathname}${location.search}${p.size ? `#${p}` : ''}`); }
    const why = runCommand(command);
    if (why) useFlash.getState().say(why);
  }, [command, ready, waiting]);
}

function useTheme(): void {
  const theme = useView((s) => s.theme);
  useEffect(() => {
    if (theme === 'system') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = theme;
  }, [theme]);
}

export function App() {
  useStartup();
  useKeyboard();
  useLinkCommand();
  useTheme();
  const summary = useSession((s) => s.summary);
  const status = useSession((s) => s.status);
  useEffect(() => { if (summary) useCursor.getState().setCount(summary.count); }, [summary]);
  const comparing = useCompare((s) => s.status !== 'off');
  const folderShown = useFolder((s) => s.shown);
  // The Requests view is one of the session's views: not over the sessions table or compare mode.
  useRequestsShortcut(!!summary && !comparing && !folderShown);
  const requestsFull = useView((s) => s.requestsFull);
  // Another log opened as A ends compare mode.
  useEffect(() => { const c = useCompare.getState(); if (c.status !== 'off' && c.a && summary !== c.a) c.exit(); }, [summary]);
  // Panels below take the cursor deferred from one provider (see useDeferredCursor).
  return (
    <DeferredCursorProvider>
      <div className="app">
        <Toolbar />
        <LoadStatus />
        <LinkNotice />
        <ShareNotice />
        {summary && !folderShown && <WhatIfBar />}
        <DropZone />
        <Overlays />
        {folderShown ? <FolderView /> : summary && comparing ? <Suspense fallback={<p className="muted pad">Loading compare view…</p>}><CompareView /></Suspense> : summary ? (
          <>
            <Scrubber />
            <LiveTail />
            <Timeline />
            {/* The Requests view (docs/open-and-navigate.md) can take the workspace's place (Shift+R, or its button). */}
            {requestsFull ? <RequestsFull /> : (
              <Workspace>
                <EventList />
                <SurfacePanel />
                <SidePanel />
              </Workspace>
            )}
          </>
        ) : (
          status !== 'loading' && (
            <div className="empty">
              <h1>DSH Devtools</h1>
              <p>Drop a DeepSeek Harness session log anywhere on this page, or use <strong>Open log</strong>, <strong>Paste</strong> or <strong>Open URL</strong>.</p>
              <p className="muted">Logs are read in your browser and never sent anywhere.</p>
            </div>
          )
        )}
      </div>
    </DeferredCursorProvider>
  );
}
