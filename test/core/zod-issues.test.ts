import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { issuesText } from '../../src/core/util/zod-issues.ts';

describe('a schema complaint in words', () => {
  it('names each issue by its path (the whole value as "value"), the first three only', () => {
    const schema = z.object({ a: z.string(), b: z.object({ c: z.number() }), d: z.boolean(), e: z.null() }).strict();
    const failed = schema.safeParse({ a: 1, b: { c: 'x' }, d: 0, e: 1 });
    expect(failed.success).toBe(false);
    const text = issuesText(failed.error!);
    expect(text).toMatch(/^a: .+; b\.c: .+; d: .+ \(and 1 more\)$/);
    expect(text).not.toContain('[');
    expect(issuesText(z.string().min(1).safeParse('').error!)).toMatch(/^value: /);
  });
});
