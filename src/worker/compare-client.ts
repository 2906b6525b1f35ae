import type { WorkerClient } from './client.ts';
import { COMPARE_OPERATIONS, type CompareClient } from './compare-protocol.ts';
import { clientOf } from './operation-table.ts';

export type { CompareClient };

/** Compare-mode calls over the app's one worker connection, derived from the compare table. */
export function compareClient(client: WorkerClient): CompareClient {
  return clientOf(COMPARE_OPERATIONS, (req, onProgress) => client.send(req, onProgress));
}
