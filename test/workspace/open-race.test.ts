// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { generateFork, generateLog } from '../../src/core/generate/generate-log.ts';
import { useSession } from '../../src/store/session.ts';
import { inProcessClient } from '../ui/harness.ts';

describe('a log opened while a workspace is still being read', () => {
  it('is the one shown: the workspace (the bundled demo at startup) gives way to it', async () => {
    const { parent, child } = generateFork({ dialect: 'v0', seed: 3, turns: 3, afterTurn: 1, childTurns: 1 });
    const picked = generateLog({ dialect: 'v0', seed: 5, turns: 2 });
    const { client } = inProcessClient();
    useSession.setState({ client, summary: null, workspace: [], error: null, status: 'idle' });
    // As at startup: the demo's two logs are being peeked when the user picks a file.
    const demo = useSession.getState().openMany([
      { kind: 'text', text: parent.text, name: 'demo-session.jsonl' },
      { kind: 'text', text: child.text, name: 'demo-session-subagent.jsonl' },
    ], { demo: true });
    const user = useSession.getState().open({ kind: 'text', text: picked.text, name: 'picked.jsonl' });
    await Promise.all([demo, user]);
    const s = useSession.getState();
    expect(s.summary?.name).toBe('picked.jsonl');
    expect(s.demo).toBe(false);
    expect(s.workspace.map((w) => w.source.name)).toEqual(['picked.jsonl']);
    expect(s.status).toBe('ready');
  });
});
