/// <reference lib="webworker" />
import { z } from 'zod';
import { Engine } from './engine.ts';
import { CompareHost } from './compare-host.ts';
import { isCompareRequest } from './compare-protocol.ts';
import { FollowHost } from './follow-host.ts';
import { isFollowRequest } from './follow-protocol.ts';
import { WhatIfHost } from './whatif-host.ts';
import { isWhatIfRequest } from './whatif-protocol.ts';
import { answerFolderRequest } from './folder-jobs.ts';
import { isFolderRequest } from './folder-protocol.ts';
import type { Request } from './operations.ts';
import { browserPort, isProjectorPortMessage } from './projector.ts';
import { portProjector } from './projector-client.ts';
import { serveProjections } from './projector-host.ts';

// The page's CSP forbids eval; zod must not JIT its parsers.
z.config({ jitless: true });

declare const self: DedicatedWorkerGlobalScope;
const engine = new Engine();
// Compare mode (docs/compare.md): a second log beside the open one, and queries on both.
const compare = new CompareHost(engine);
// Following a growing log (docs/follow.md): appended bytes refresh the open log.
const follow = new FollowHost(engine);
// What if (docs/whatif.md): the open log edited and re-folded into compare's slot.
const whatIf = new WhatIfHost(compare);
self.onmessage = (e: MessageEvent<Request>) => {
  const post = (msg: unknown, transfer?: Transferable[]) => self.postMessage(msg, transfer ?? []);
  // The page pairs this worker with a second copy of it that folds the projection units of each file on another core (docs/performance.md).
  if (isProjectorPortMessage(e.data)) {
    const port = browserPort(e.data.port);
    if (e.data.projectorPort === 'serve') serveProjections(port);
    else engine.useProjector(portProjector(port));
  } else if (isCompareRequest(e.data)) void compare.handle(e.data, post);
  else if (isWhatIfRequest(e.data)) void whatIf.handle(e.data, post);
  else if (isFollowRequest(e.data)) void follow.handle(e.data, post);
  // The single-file app has one worker script: its folder pool runs folder jobs on copies of it (a shared single file opening a sessions folder).
  else if (isFolderRequest(e.data)) void answerFolderRequest(e.data, post);
  else {
    // Another log opened ends following in the page: its live load is let go here too.
    if (e.data.op === 'load') follow.drop();
    void engine.handle(e.data, post);
  }
};
