/// <reference lib="webworker" />
import { z } from 'zod';
import { answerFolderRequest } from './folder-jobs.ts';
import type { FolderRequest } from './folder-protocol.ts';

// The page's CSP forbids eval; zod must not JIT its parsers.
z.config({ jitless: true });

declare const self: DedicatedWorkerGlobalScope;

// One job at a time: the pool gives each worker its next file when it answers.
self.onmessage = (e: MessageEvent<FolderRequest>) => void answerFolderRequest(e.data, (msg) => self.postMessage(msg));
