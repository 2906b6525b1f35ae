import { Suspense } from 'react';
// The table and its detail load on first use, the same module as the side panel's tab.
import { RequestsPanel } from './side-panels.ts';

/** The Requests view over the whole workspace: App shows it in place of the three columns (Shift+R). */
export function RequestsFull() {
  return (
    <main className="panel requests-full">
      <Suspense fallback={<p className="muted pad">Loading panel…</p>}>
        <RequestsPanel />
      </Suspense>
    </main>
  );
}
