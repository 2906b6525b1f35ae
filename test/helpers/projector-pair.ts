import { Engine } from '../../src/worker/engine.ts';
import { browserPort } from '../../src/worker/projector.ts';
import { portProjector } from '../../src/worker/projector-client.ts';
import { serveProjections } from '../../src/worker/projector-host.ts';
import type { Projector } from '../../src/worker/projector.ts';
import type { LoadSummary } from '../../src/worker/protocol.ts';

/** A projection helper over a real message channel (the two ends in this thread), as the app pairs its two workers; resolves once it said it started. */
export async function channelProjector(): Promise<{ projector: Projector; close(): void }> {
  const channel = new MessageChannel();
  const projector = portProjector(browserPort(channel.port2));
  serveProjections(browserPort(channel.port1));
  await projector.whenReady;
  return { projector, close: () => { channel.port1.close(); channel.port2.close(); } };
}

/** The same file loaded by an engine that folds the units itself and by one with a helper. */
export async function loadBothWays(text: string, name = 'log.jsonl'): Promise<{ walk: { engine: Engine; summary: LoadSummary }; helped: { engine: Engine; summary: LoadSummary } }> {
  const file = new Blob([text]);
  const walkEngine = new Engine();
  const walkSummary = await walkEngine.load({ kind: 'file', file, name }, () => {});
  const pair = await channelProjector();
  try {
    const helpedEngine = new Engine({ projector: pair.projector });
    const helpedSummary = await helpedEngine.load({ kind: 'file', file, name }, () => {});
    return { walk: { engine: walkEngine, summary: walkSummary }, helped: { engine: helpedEngine, summary: helpedSummary } };
  } finally {
    pair.close();
  }
}

/** Every projection answer the page can get, at `indexes`: what the two engines must agree on. */
export function projectionAnswers(engine: Engine, summary: LoadSummary, indexes: number[]) {
  return {
    units: summary.projectionUnits.map((u) => ({ ...u, changes: Array.from(u.changes), equalWrites: Array.from(u.equalWrites) })),
    at: indexes.map((i) => engine.projectionsAtIndex(i)),
  };
}
