import { SIDE_TABS, useView } from '../../store/view.ts';
import { DiagnosticsPanel } from '../diagnostics/DiagnosticsPanel.tsx';
import { Suspense, useEffect } from 'react';
import { ChartsPanel, preloadSidePanels, ProjectionsPanel, PromptPanel, RequestsPanel } from './side-panels.ts';
import { EventInspector } from '../inspector/EventInspector.tsx';
import { MessagesView } from '../surface/MessagesView.tsx';
import { useSession } from '../../store/session.ts';
import { useNotes } from '../../store/notes.ts';
import { NotesPanel } from '../notes/NotesPanel.tsx';


export function SidePanel() {
  const tab = useView((s) => s.sideTab);
  const setTab = useView((s) => s.setSideTab);
  const diagnostics = useSession((s) => s.summary?.diagnostics);
  // The tab counts every finding, as the panel's filter does ("all (3)"); its colour is the worst severity.
  const counts = { error: 0, warning: 0, info: 0 };
  for (const d of diagnostics ?? []) counts[d.severity]++;
  const total = counts.error + counts.warning + counts.info;
  const worst = counts.error ? 'error' : counts.warning ? 'warning' : 'info';
  const noteCount = useNotes((s) => s.notes.length);
  const partial = useSession((s) => s.summary?.partial === true);
  const opened = useSession((s) => !!s.summary) && !partial;
  // Once a log is open (all of it read: a big log's load keeps both cores busy), the panels' code loads while the page is idle.
  useEffect(() => (opened ? preloadSidePanels() : undefined), [opened]);
  return (
    <section className="panel side-panel" aria-label="Details">
      <div className="tabs" role="tablist">
        {SIDE_TABS.map(([id, label]) => (
          <button key={id} role="tab" aria-selected={tab === id} className={tab === id ? 'active' : ''} onClick={() => setTab(id)}
            title={id === 'diagnostics' && total ? `${counts.error} error${counts.error === 1 ? '' : 's'}, ${counts.warning} warning${counts.warning === 1 ? '' : 's'}, ${counts.info} info` : undefined}>
            {label}{id === 'diagnostics' && total ? <span className={`tab-count ${worst}`}> ({total})</span> : ''}{id === 'notes' && noteCount ? <span className="tab-count"> ({noteCount})</span> : ''}
          </button>
        ))}
      </div>
      {tab === 'inspector' && <EventInspector />}
      {partial && tab !== 'inspector' && tab !== 'notes' && <p className="muted pad">Reading the log: this panel fills in once all of it is read.</p>}
      {tab === 'messages' && <MessagesView />}
      <Suspense fallback={<p className="muted pad">Loading panel…</p>}>
        {tab === 'projections' && <ProjectionsPanel />}
        {tab === 'prompt' && <PromptPanel />}
        {tab === 'requests' && <RequestsPanel />}
        {tab === 'charts' && <ChartsPanel />}
      </Suspense>
      {tab === 'diagnostics' && <DiagnosticsPanel />}
      {tab === 'notes' && <NotesPanel />}
    </section>
  );
}
