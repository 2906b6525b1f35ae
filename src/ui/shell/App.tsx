import { lazy, Suspense, useEffect } from 'react';
import { useCursor } from '../../store/cursor.ts';
import { useSession } from '../../store/session.ts';
import { applyLogLink, applyPageLink, decodeHash, resolvePendingLink, startUrlSync } from '../../store/url.ts';
import { useLink } from '../../store/link.ts';
import { useView } from '../../store/view.ts';
import { workerClient } from '../../worker/client.ts';
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
import { useFolder } from '../../store/folder.ts';
import { FolderView } from '../folder/FolderView.tsx';
import { sharedLogAtStartup } from '../share/startup.ts';
import { ShareNotice } from '../share/ShareNotice.tsx';
import { RequestsFull, useRequestsShortcut } from '../requests/full-window.tsx';
import { DeferredCursorProvider } from '../hooks/useDeferredCursor.ts';

// Compare mode loads on first use, keeping the initial bundle small.
const CompareView = lazy(() => import('../compare/CompareView.tsx').then((m) => ({ default: m.CompareView })));

/** The bundled demo: a session and a subagent forked from it, opened as one workspace. */
const DEMO = [
  { url: './demo/demo-session.jsonl', name: 'demo-session.jsonl' },
  { url: './demo/demo-session-subagent.jsonl', name: 'demo-session-subagent.jsonl' },
];

/** Startup: the worker, the link's view state, then `?url=` or the bundled demo. */
function useStartup(): void {
  useEffect(() => {
    const session = useSession.getState();
    if (!session.client) session.setClient(workerClient());
    // A log that came with the page (this single file, or inside the link: issue #22) opens with the link's view.
    const shared = sharedLogAtStartup();
    const link = decodeHash(location.hash);
    applyPageLink(link);
    // A link that names its log waits for that log (issue #17); an older link applies to whatever opens.
    const named = link.log !== undefined && !shared;
    if (named) useLink.getState().setPending(link);
    else applyLogLink(link);
    const url = new URLSearchParams(location.search).get('url');
    const vs = new URLSearchParams(location.search).get('vs');
    const options = named ? {} : { cursor: link.cursor, cursorSeq: link.cursorSeq, search: link.search };
    const opened = shared ? shared.open(options)
      : url && vs ? openPair(url, vs, named ? undefined : link.cursor)
      : url ? useSession.getState().open({ kind: 'url', url, name: url.split('/').pop() || url }, options)
      : useSession.getState().openMany(DEMO.map((d) => ({ kind: 'url' as const, url: new URL(d.url, location.href).href, name: d.name })), { demo: true, ...options });
    // A link in compare mode (issue #20) names B by its workspace entry, and carries both cursors.
    const compare = link.compare;
    if (compare) void opened.then(() => { if (useSession.getState().summary) return useCompare.getState().start(compare.entry, compare).then(() => { if (link.cursor !== undefined) useCursor.getState().seek(link.cursor); }); });
    const stops: (() => void)[] = [];
    if (!named && link.selected !== undefined) {
      const unsub = useSession.subscribe((s, prev) => {
        if (s.loads !== prev.loads) { useCursor.getState().select(link.selected!); unsub(); }
      });
      stops.push(unsub);
    }
    // Every load may be the one a pending link waits for.
    stops.push(useSession.subscribe((s, prev) => { if (s.loads !== prev.loads) resolvePendingLink(); }));
    stops.push(startUrlSync());
    return () => { for (const stop of stops) stop(); };
  }, []);
}

/** `?url=A&vs=B`: two published logs, opened as a workspace in that order. */
async function openPair(url: string, vs: string, cursor?: number): Promise<void> {
  const source = (u: string) => ({ kind: 'url' as const, url: u, name: u.split('/').pop() || u });
  const a = source(url);
  useSession.setState({ workspace: [{ source: a, header: null }, { source: source(vs), header: null }], active: 0 });
  await useSession.getState().open(a, { cursor });
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
        <DropZone />
        <Overlays />
        {folderShown ? <FolderView /> : summary && comparing ? <Suspense fallback={<p className="muted pad">Loading compare view…</p>}><CompareView /></Suspense> : summary ? (
          <>
            <Scrubber />
            <LiveTail />
            <Timeline />
            {/* Issue #19: the Requests view can take the workspace's place (Shift+R, or its button). */}
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
