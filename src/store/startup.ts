import { workerClient } from '../worker/client.ts';
import { whatIfClient } from '../worker/whatif-client.ts';
import { useCompare } from './compare.ts';
import { useCursor } from './cursor.ts';
import { useLink } from './link.ts';
import { useSession } from './session.ts';
import { sharedLogAtStartup } from './shared-log.ts';
import { useWhatIf } from './whatif.ts';
import { startNotesSync } from './notes-sync.ts';
import { applyLogLink, applyPageLink, decodeHash, resolvePendingLink, startUrlSync } from './url.ts';

/** The bundled demo: a session and a subagent forked from it, opened as one workspace. */
const DEMO = [
  { url: './demo/demo-session.jsonl', name: 'demo-session.jsonl' },
  { url: './demo/demo-session-subagent.jsonl', name: 'demo-session-subagent.jsonl' },
];

/**
 * What the page opens with, called once when the app mounts: the worker, the
 * link's view state, then the log that came with the page (a single file, or
 * inside the link), `?url=` (and `&vs=` for a pair), or the bundled demo.
 * Returns what stops the subscriptions it started.
 */
export function startApp(): () => void {
  const session = useSession.getState();
  if (!session.client) session.setClient(workerClient());
  const shared = sharedLogAtStartup();
  const link = decodeHash(location.hash);
  applyPageLink(link);
  if (link.cmd) useLink.getState().setCommand(link.cmd);
  // A link that names its log waits for that log (docs/share-and-privacy.md); an older link applies to whatever opens.
  const named = link.log !== undefined && !shared;
  if (named) useLink.getState().setPending(link);
  else applyLogLink(link);
  const search = new URLSearchParams(location.search);
  const url = search.get('url');
  const vs = search.get('vs');
  const options = named ? {} : { cursor: link.cursor, cursorSeq: link.cursorSeq, search: link.search };
  const opened = shared ? shared.open(options)
    : url && vs ? openPair(url, vs, named ? undefined : link.cursor)
    : url ? useSession.getState().open({ kind: 'url', url, name: url.split('/').pop() || url }, options)
    : useSession.getState().openMany(DEMO.map((d) => ({ kind: 'url' as const, url: new URL(d.url, location.href).href, name: d.name })), { demo: true, ...options });
  // A link in compare mode names B by its workspace entry, and carries both cursors.
  const compare = link.compare;
  if (compare) void opened.then(() => { if (useSession.getState().summary) return useCompare.getState().start(compare.entry, compare).then(() => { if (link.cursor !== undefined) useCursor.getState().seek(link.cursor); }); });
  // A link with what-if edits stacks them again, and re-folds them when it showed their comparison.
  const whatIf = link.whatIf;
  if (whatIf?.param !== undefined) void opened.then(async () => {
    const client = useSession.getState().client;
    if (!useSession.getState().summary || !client) return;
    const read = await whatIfClient(client)['whatif-parse'](whatIf.param!);
    if (!read.ok) { useWhatIf.setState({ status: 'error', error: read.error }); return; }
    useWhatIf.getState().setEdits(read.edits);
    if (whatIf.folded) await useWhatIf.getState().run(whatIf).then(() => { if (link.cursor !== undefined) useCursor.getState().seek(link.cursor); });
  });
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
  stops.push(startNotesSync());
  return () => { for (const stop of stops) stop(); };
}

/** `?url=A&vs=B`: two published logs, opened as a workspace in that order. */
async function openPair(url: string, vs: string, cursor?: number): Promise<void> {
  const source = (u: string) => ({ kind: 'url' as const, url: u, name: u.split('/').pop() || u });
  const a = source(url);
  useSession.setState({ workspace: [{ source: a, header: null }, { source: source(vs), header: null }], active: 0 });
  await useSession.getState().open(a, { cursor });
}
