import type { WorkerClient } from './client.ts';
import { clientOf } from './operation-table.ts';
import { WHATIF_OPERATIONS, type WhatIfClient } from './whatif-protocol.ts';

export type { WhatIfClient };

/** What-if calls over the app's one worker connection, derived from the what-if table. */
export function whatIfClient(client: WorkerClient): WhatIfClient {
  return clientOf(WHATIF_OPERATIONS, (req, onProgress) => client.send(req, onProgress));
}
