import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionHeader } from '../../src/core/log/types.ts';
import { childRefOf, linkChildren } from '../../src/core/workspace/forks.ts';
import { Engine } from '../../src/worker/engine.ts';
import { corpusDir } from './corpus-dir.ts';

/**
 * Parent and child logs of the corpus (X.jsonl with X.1.jsonl, X.2.jsonl…):
 * the child links found from the parent's calls agree with what each child
 * says of itself (its descriptor's label repeats the call's description), and
 * a fork child's inherited events are the parent's.
 */
const dir = path.join(corpusDir(), 'dsh');
const files = fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
const headerOf = (f: string) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8').split('\n')[0]) as SessionHeader;
const families = files
  .filter((f) => !/\.\d+(\.v\d)?\.jsonl$/.test(f))
  .map((parent) => {
    const id = headerOf(parent).id;
    const stem = parent.replace(/\.jsonl$/, '');
    const children = files.filter((f) => f.startsWith(`${stem}.`) && /^\.\d+\.jsonl$/.test(f.slice(stem.length)) && headerOf(f).parentSession === id);
    return { parent, children };
  })
  .filter((f) => f.children.length > 0);

/** Children checked against their descriptor label, over all families. */
let labelled = 0;

const load = (f: string) => new Engine().load({ kind: 'text', text: fs.readFileSync(path.join(dir, f), 'utf8'), name: f }, () => {});

describe('workspace links on real parent and child logs', () => {
  it('the corpus has parent/child families (some with forks)', () => {
    expect(families.length).toBeGreaterThan(5);
  });

  it.each(families.map((f) => [f.parent, f] as const))('%s: each child links to the call its descriptor names', async (_name, family) => {
    const parent = new Engine();
    await parent.load({ kind: 'text', text: fs.readFileSync(path.join(dir, family.parent), 'utf8'), name: family.parent }, () => {});
    const spawns = parent.spawns();
    const links = linkChildren(spawns, family.children.map((c) => childRefOf(headerOf(c))));
    let checked = 0;
    for (const child of family.children) {
      const engine = new Engine();
      const summary = await engine.load({ kind: 'text', text: fs.readFileSync(path.join(dir, child), 'utf8'), name: child }, () => {});
      const descriptor = engine.projectionsAtIndex(summary.count - 1).find((p) => p.key === 'subagent')?.view as { label?: string } | null | undefined;
      if (!descriptor?.label) continue;
      const seq = links.get(headerOf(child).id);
      expect(seq, `${child} has no link`).toBeDefined();
      expect(spawns.find((s) => s.seq === seq)?.label, child).toBe(descriptor.label);
      checked++;
    }
    labelled += checked;
  });

  it('the labels checked cover most children (17 in the corpus this was written against)', () => {
    expect(labelled).toBeGreaterThanOrEqual(17);
  });

  it('a fork child (seedLength 36) starts its own events at seq 36, after the parent events it copied', async () => {
    const child = await load('acp-subagent-mixed.2.jsonl');
    expect(child.inherited).toEqual({ seq: 36, events: 36 });
    const parent = new Engine();
    await parent.load({ kind: 'text', text: fs.readFileSync(path.join(dir, 'acp-subagent-mixed.jsonl'), 'utf8'), name: 'p' }, () => {});
    expect(parent.spawns().filter((s) => s.kind === 'tool-call').map((s) => [s.seq, s.name])).toEqual([[117, 'subagent'], [213, 'subagent_fork']]);
  });
});
