import { describe, expect, it } from 'vitest';
import { utf8Bytes } from '../../src/core/requests/hash.ts';
import { HeadCache, serializeHead } from '../../src/core/requests/prefix.ts';
import { jsonText } from '../../src/core/util/json-text.ts';

/**
 * A session's headers go back and forth among a few system prompts and tool
 * lists (an agent's, a subagent's, the title model's): the cache gives each
 * combination's head without serializing it again, and every head it gives
 * is the one serializeHead would make.
 */
describe('request head cache', () => {
  const systems = ['You are DSH.', 'You are a subagent — é😀', undefined];
  const tools = [[{ name: 'read' }], [{ name: 'read' }, { name: 'write' }], undefined];

  it('gives each combination its exact head, the same instance while it is recent', () => {
    const cache = new HeadCache();
    const seen = new Map<string, unknown>();
    for (let i = 0; i < 60; i++) {
      const system = systems[(i * 7) % 3];
      const tool = tools[(i * 5 + (i >> 2)) % 3];
      const head = cache.of(system, tool);
      const text = serializeHead(system, tool);
      expect(head).toMatchObject({ text, bytes: utf8Bytes(text), toolsJson: jsonText(tool) });
      const key = `${(i * 7) % 3}/${(i * 5 + (i >> 2)) % 3}`;
      // At most 9 combinations exist and 8 are kept: the same values come back as the same head.
      if (seen.has(key) && seen.size <= 8) expect(head).toBe(seen.get(key));
      seen.set(key, head);
    }
  });

  it('gives a head equal as text to a recent one as that one, and forgets the least recent past eight', () => {
    const cache = new HeadCache();
    const first = cache.of('s', [{ name: 'a' }]);
    // Equal values that are other objects (a pool missed them): the same text, the same head.
    expect(cache.of('s', [{ name: 'a' }])).toBe(first);
    for (let k = 0; k < 8; k++) cache.of(`other ${k}`, undefined);
    const again = cache.of('s', first.tools);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });
});
