import type { WorkerClient } from './client.ts';
import { FOLLOW_OPERATIONS, type FollowClient } from './follow-protocol.ts';
import { clientOf } from './operation-table.ts';

/** Follow-mode calls over the app's one worker connection, derived from the follow table. */
export function followClient(client: WorkerClient): FollowClient {
  return clientOf(FOLLOW_OPERATIONS, (req, onProgress) => client.send(req, onProgress));
}
