// @vitest-environment jsdom
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { SURFACE_CHANGE } from '../../src/core/replay/navigate.ts';
import { useCursor } from '../../src/store/cursor.ts';
import { useSession } from '../../src/store/session.ts';
import { GenerationsChart } from '../../src/ui/surface/GenerationsChart.tsx';
import { DeferredCursorProvider } from '../../src/ui/hooks/useDeferredCursor.ts';
import { Engine } from '../../src/worker/engine.ts';

afterEach(cleanup);

describe('the generations chart', () => {
  it('marks every replace and content rewrite once, and its cursor line follows the cursor', async () => {
    const text = generateLog({ dialect: 'v4', seed: 6, turns: 12, compactEvery: 2 }).text;
    const summary = await new Engine().load({ kind: 'text', text, name: 'gen.jsonl' }, () => {});
    const changes = Array.from(summary.columns.surfaceChange.subarray(0, summary.count));
    const replaces = changes.filter((c) => c === SURFACE_CHANGE.replace).length;
    const content = replaces + changes.filter((c) => c === SURFACE_CHANGE.project).length;
    expect(replaces).toBeGreaterThan(1);
    useSession.setState({ summary });
    useCursor.getState().setCount(summary.count);
    useCursor.getState().reset(0);
    const { container } = render(createElement(DeferredCursorProvider, null, createElement(GenerationsChart)));
    expect(container.querySelector('svg')!.getAttribute('aria-label')).toBe(`replaceGeneration steps: ${replaces}; contentGeneration steps: ${content}`);
    const marks = container.querySelectorAll('.gen-hit');
    expect(marks.length).toBe(content);
    const line = () => container.querySelector('.strip-cursor-line')!.getAttribute('x1');
    expect(line()).toBe('0');
    act(() => useCursor.getState().seek(summary.count - 1));
    expect(line()).toBe('240');
    // The marks are the same elements: a cursor move leaves them as they were.
    expect([...container.querySelectorAll('.gen-hit')].every((m, k) => m === marks[k])).toBe(true);
  });
});
