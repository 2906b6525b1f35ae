import { describe, expect, it } from 'vitest';
import { inspect } from '../../src/core/inspect.ts';
import { readLogFile } from '../../scripts/node-source.ts';
import { corpusLogs } from './corpus-dir.ts';

/**
 * Issue #16 on real logs: a log DSH restores shows no error-severity
 * finding, and the verdict tells a refusal from a newer log.
 */
const logs = corpusLogs();
const formatOf = async (file: string) => (await readLogFile(file)).version;

describe('verdict on the real DSH corpus', async () => {
  const later = [];
  for (const log of logs) if ((await formatOf(log.file)) >= 3) later.push(log);

  it('holds format-3 and format-4 logs', () => {
    expect(later.length).toBeGreaterThanOrEqual(7);
  });

  it.each(later.map((l) => [l.name, l] as const))('%s (format 3/4): no error-severity finding, ok, not refused', async (_name, log) => {
    const r = inspect(await readLogFile(log.file));
    expect(r.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code} seq ${d.seq}: ${d.message}`)).toEqual([]);
    expect(r.ok).toBe(true);
    expect(['ok', 'newer-than-app']).toContain(r.verdict);
    if (r.format.version === 4) expect(r.projections).toHaveProperty('workingDirectory');
    // Only Bake's own record type is unknown to the app in this set.
    if (r.verdict === 'newer-than-app') expect(r.verdictDetail.unknown).toEqual(['request/tool-update']);
  });

  it.each(logs.filter((l) => l.expected).map((l) => [l.name, l] as const))('%s: the verdict agrees with DSH\'s own restore, and errors are only refusals', async (_name, log) => {
    const r = inspect(await readLogFile(log.file));
    for (const d of r.diagnostics) if (d.severity === 'error') expect(d.refuses).toBe(true);
    const ref = log.expected;
    // DSH refuses the log even with its header realized (a seq gap, a bad payload): so does the verdict.
    // (Snapshot placeholders such as {{cwd}}, which DSH refuses as stored, are fixture artifacts: a warning.)
    if (ref.ok === false) expect(r.verdict).toBe('dsh-refuses');
    // Errors the reference's header realization rewrote away aside, a log DSH restores shows none.
    if (ref.ok === true) {
      const realized = ref.realized ?? {};
      const left = r.diagnostics.filter((d) => d.severity === 'error' && !(d.path && Object.hasOwn(realized, d.path)));
      expect(left.map((d) => `${d.code}: ${d.message}`)).toEqual([]);
    }
  });
});
