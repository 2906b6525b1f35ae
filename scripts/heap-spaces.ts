import v8 from 'node:v8';

/**
 * Bytes in use in V8's young generation (new space and its large-object space): a scratch area
 * of a size V8 sets, which the bench's memory readings also report without.
 */
export function youngBytes(): number {
  let n = 0;
  for (const s of v8.getHeapSpaceStatistics()) if (s.space_name === 'new_space' || s.space_name === 'new_large_object_space') n += s.space_used_size;
  return n;
}
