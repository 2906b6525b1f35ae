import { lazy, Suspense, useEffect } from 'react';
import { useCursor } from '../../store/cursor.ts';
import { useSession } from '../../store/session.ts';
import { startApp } from '../../store/startup.ts';
import { useView } from '../../store/view.ts';
import { commandForKey, elementOwnsKey, keyOf } from '../commands.ts';
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
import { compareCommandForKey } from '../compare/commands.ts';
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

function useKeyboard(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const key = keyOf(e);
      // A focused control keeps its own keys: a text box all of them, a separator or slider its arrows.
      if (e.defaultPrevented || elementOwnsKey(e.target as Element, key)) return;
      // The sessions table is not a session: the replay keys wait until one is open again.
      if (useFolder.getState().shown) return;
      const cmd = useCompare.getState().status === 'ready' ? compareCommandForKey(key) : commandForKey(key);
      if (!cmd || e.ctrlKey || e.metaKey || e.altKey) return;
      e.preventDefault();
      cmd.run();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
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
