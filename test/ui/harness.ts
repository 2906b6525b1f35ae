import { Engine } from '../../src/worker/engine.ts';
import { WorkerClient } from '../../src/worker/client.ts';
import { useSession } from '../../src/store/session.ts';
import { useCursor } from '../../src/store/cursor.ts';

/**
 * Component tests talk to the same Engine the Web Worker runs, in process:
 * a target that answers postMessage by calling engine.handle.
 */
export function inProcessClient(): { client: WorkerClient; engine: Engine } {
  const engine = new Engine();
  const target = {
    onmessage: null as ((e: MessageEvent) => void) | null,
    postMessage(msg: any) {
      void engine.handle(msg, (reply) => target.onmessage?.({ data: reply } as MessageEvent));
    },
  };
  return { client: new WorkerClient(target), engine };
}

/** Loads log text into the app's stores, as dropping a file would. */
export async function loadText(text: string, name = 'test.jsonl'): Promise<{ client: WorkerClient; engine: Engine }> {
  const pair = inProcessClient();
  useSession.setState({ client: pair.client, summary: null, workspace: [], error: null, status: 'idle' });
  await useSession.getState().open({ kind: 'text', text, name });
  const summary = useSession.getState().summary;
  if (!summary) throw new Error(`load failed: ${useSession.getState().error}`);
  useCursor.getState().setCount(summary.count);
  return pair;
}

// jsdom has no canvas; the timeline draws nothing there.
HTMLCanvasElement.prototype.getContext = (() => null) as never;
// …and no ResizeObserver; layout-driven sizing keeps its initial values.
globalThis.ResizeObserver ??= class { observe() {} unobserve() {} disconnect() {} } as never;
// …and no layout: give every element a viewport-sized box so virtualized lists render rows.
for (const [prop, value] of [['offsetHeight', 600], ['offsetWidth', 800], ['clientHeight', 600], ['clientWidth', 800]] as const) {
  Object.defineProperty(HTMLElement.prototype, prop, { configurable: true, get: () => value });
}
HTMLElement.prototype.getBoundingClientRect = function rect() {
  return { x: 0, y: 0, top: 0, left: 0, right: 800, bottom: 600, width: 800, height: 600, toJSON: () => ({}) } as DOMRect;
};
window.matchMedia ??= ((query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} })) as never;
