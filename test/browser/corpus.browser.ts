// Browser cases on real DSH logs: the panels must show what the core computes.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { readLogText } from '../../src/core/log/reader.ts';
import { analyzePrompts } from '../../src/core/requests/analyze.ts';
import { foldSession } from '../../src/core/session/fold-session.ts';
import { foldSurface } from '../../src/core/surface/fold.ts';
import { gotoSeq, openFile, ready, surfaceNodeSeqs } from './helpers.ts';

type Case = (ctx: { page: Page; baseUrl: string; shot: (name: string) => Promise<unknown> }) => Promise<void>;

export function corpusTests(dir: string): Record<string, Case> {
  const load = (name: string) => {
    const buffer = fs.readFileSync(path.join(dir, name));
    return { buffer, session: foldSession(readLogText(buffer.toString('utf8'))) };
  };
  return {
    async 'corpus: the surface list equals the core at several cursors; the compaction is drawn as a replace span'({ page, baseUrl, shot }) {
      const { buffer, session } = load('headless-compaction-recovery.jsonl');
      await page.goto(baseUrl);
      await ready(page);
      await openFile(page, 'headless-compaction-recovery.jsonl', buffer);
      const replace = session.surface.replacements[0];
      for (const seq of [5, replace.seq - 1, replace.seq, session.events.at(-1)!.seq]) {
        await gotoSeq(page, seq);
        const expected = foldSurface(session.events.filter((e) => e.seq <= seq), session.read.dialect).state.nodes;
        // The list follows the deferred cursor: wait for these very seqs (two cursors can list as many
        // nodes, so a count is no sign the list moved), then assert as shown.
        await page.waitForFunction((want) => {
          const shown = [...document.querySelectorAll('[aria-label="Surface"] [role=listitem].node:not(.ghost) .seq')].map((e) => Number(e.textContent));
          return shown.length === want.length && shown.every((s, i) => s === want[i]);
        }, expected, { timeout: 10000 }).catch(() => {});
        assert.deepEqual(await surfaceNodeSeqs(page), expected, `surface at seq ${seq}`);
      }
      await gotoSeq(page, replace.seq);
      const span = page.getByRole('region', { name: 'Surface' }).getByLabel(new RegExp(`^Replace span: seq ${replace.seq} shadows`));
      await span.waitFor();
      await shot('corpus-compaction');
    },

    async 'corpus: moving across a runtime-context change updates the Runtime context panel'({ page, baseUrl, shot }) {
      const name = 'web-permission-policy-context.jsonl';
      const { buffer, session } = load(name);
      const snapshots = analyzePrompts(session).runtimeContext.snapshots;
      assert.ok(snapshots.length >= 2);
      await page.goto(`${baseUrl}#tab=prompt`);
      await ready(page);
      await openFile(page, name, buffer);
      const region = page.getByRole('region', { name: 'Runtime context' });
      for (const snap of snapshots.slice(0, 3)) {
        await gotoSeq(page, snap.seq);
        await region.getByRole('heading', { name: new RegExp(`^Snapshot seq ${snap.seq}\\b`) }).waitFor({ timeout: 10000 });
      }
      const second = snapshots[1];
      const heading = await region.getByRole('heading', { level: 4 }).innerText();
      assert.ok(heading.includes(`Snapshot seq ${snapshots[2]?.seq ?? second.seq}`));
      await shot('corpus-runtime-context');
      // The system prompt panel names the event that set the prompt.
      await page.getByRole('region', { name: 'System prompt' }).getByText(/set by/).waitFor();
    },
  };
}
