/// <reference lib="webworker" />
import { z } from 'zod';
import { Engine } from './engine.ts';
import type { Request } from './protocol.ts';

// The page's CSP forbids eval; zod must not JIT its parsers.
z.config({ jitless: true });

declare const self: DedicatedWorkerGlobalScope;
const engine = new Engine();
self.onmessage = (e: MessageEvent<Request>) => {
  void engine.handle(e.data, (msg, transfer) => self.postMessage(msg, transfer ?? []));
};
