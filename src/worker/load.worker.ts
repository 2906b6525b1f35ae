/// <reference lib="webworker" />
import { z } from 'zod';
import { Engine } from './engine.ts';
import { CompareHost } from './compare-host.ts';
import { isCompareRequest } from './compare-protocol.ts';
import type { Request } from './protocol.ts';

// The page's CSP forbids eval; zod must not JIT its parsers.
z.config({ jitless: true });

declare const self: DedicatedWorkerGlobalScope;
const engine = new Engine();
// Compare mode (issue #20): a second log beside the open one, and queries on both.
const compare = new CompareHost(engine);
self.onmessage = (e: MessageEvent<Request>) => {
  const post = (msg: unknown, transfer?: Transferable[]) => self.postMessage(msg, transfer ?? []);
  if (isCompareRequest(e.data)) void compare.handle(e.data, post);
  else void engine.handle(e.data, post);
};
